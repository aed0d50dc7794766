// The client in real browsers (issue 28): headless Chromium, then headless Firefox (ESR), opens a
// page served from 127.0.0.1 whose script imports mcpwire's browser bundle, connects to
// server-everything in Streamable HTTP mode (another origin: CORS as a real page needs it;
// server-everything sends `Access-Control-Allow-Origin: *` and exposes Mcp-Session-Id itself,
// so no proxy is put in front of it), lists tools, calls `echo`, gets progress from a long-running tool, reads a
// resource, and posts what it found back as JSON. The same page again under a
// Content-Security-Policy without 'unsafe-eval' (`script-src 'self'`), where structured results
// must still be checked against the tool's outputSchema.
//
// The bundle is made from the package built as `npm run build` builds it (scripts/bundle-sizes.ts
// buildPackage: tsc, then the #runtime entry), not from src/: only the built package has the
// package.json "imports" conditions that give a browser web.js and no node: module
// (src/runtime/mod.ts says why), and that is what an embedder's bundler meets. One build per
// file, in a temp dir, bundled twice: one file (as scripts/bundle-sizes.ts measures it), and
// code-split (each validator a chunk loaded when first used, as Vite or webpack would make it).
// One browser run per browser visits the three pages (plain, code-split, CSP) in turn and is
// killed as a group once the last has posted. One page script, one build, one set of assertions: the suite is a function of the browser (support/browsers.ts),
// run for each, under a describe that builds the package and bundles and starts server-everything
// and the page server once for both.

import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import * as esbuild from "esbuild";
import { buildPackage, ROOT } from "../../scripts/bundle-sizes.ts";
import { bundleForBrowser, MISMATCHED_RESULT, type PageServer, servePage } from "../support/browser-page.ts";
import { allBrowsersSkip, BROWSERS, type PageBrowser } from "../support/browsers.ts";
import { freePort, startEverything, stop } from "../support/everything-http.ts";

/** The page's script: every step of the client, its report posted to /result/<name>. */
const PAGE_SCRIPT = `const params = new URLSearchParams(location.search);
const name = params.get("name");
const errorOf = (error) => ({ name: error?.name, code: error?.code, message: String(error?.message ?? error) });
const textOf = (content) => content.filter((block) => block.type === "text").map((block) => block.text).join("\\n");

${MISMATCHED_RESULT}
async function run() {
  const found = { userAgent: navigator.userAgent };
  try {
    new Function("return 1")();
    found.evalRefused = false;
  } catch (error) {
    found.evalRefused = errorOf(error);
  }
  const mcpwire = await import(params.get("bundle") === "split" ? "./split/mcpwire.js" : "./bundle/mcpwire.js");
  const client = new mcpwire.Client({ name: "browser-page", version: "1.0.0" });
  const problems = [];
  client.on("problem", ({ message }) => problems.push(message));
  await client.connect(new mcpwire.StreamableHttpTransport({ url: params.get("mcp") }));
  found.server = client.serverInfo?.name;
  found.protocolVersion = client.protocolVersion;
  found.tools = (await client.listTools()).map((tool) => tool.name);
  found.echo = textOf((await client.callTool("echo", { message: "from a browser" })).content);
  const progress = [];
  const long = await client.callTool("trigger-long-running-operation", { duration: 0.6, steps: 3 }, { onProgress: (update) => progress.push(update) });
  found.long = textOf(long.content);
  found.progress = progress;
  const read = await client.readResource("demo://resource/static/document/features.md");
  found.resource = read.contents.map((content) => ({ uri: content.uri, mimeType: content.mimeType, text: (content.text ?? "").slice(0, 200) }));
  try {
    const structured = await client.callTool("get-structured-content", { location: "Chicago" });
    found.structured = { structuredContent: structured.structuredContent, isError: structured.isError ?? false };
  } catch (error) {
    found.structured = { failed: errorOf(error) };
  }
  found.mismatched = await mismatchedResult(mcpwire);
  if (params.get("tasks") === "1") {
    // Tasks are code a client is given: without it a tool that requires a task is refused at once…
    found.taskRefused = await client.callTool("simulate-research-query", { topic: "mcp" }).then(() => "called", errorOf);
    // …with it the call runs as a task, polled to its result.
    const tasking = new mcpwire.Client({ name: "browser-page-tasks", version: "1.0.0" }, { use: [mcpwire.tasksExtension] });
    tasking.on("problem", ({ message }) => problems.push(message));
    await tasking.connect(new mcpwire.StreamableHttpTransport({ url: params.get("mcp") }));
    await tasking.listTools();
    const statuses = [];
    const research = await tasking.callTool("simulate-research-query", { topic: "mcp" }, {
      timeoutMs: 60000,
      onTaskStatus: ({ status }) => statuses.push(status),
    });
    found.task = { statuses, text: textOf(research.content).slice(0, 200) };
    await tasking.close();
  }
  found.problems = problems;
  await client.close();
  return found;
}

let report;
try {
  report = await run();
} catch (error) {
  report = { failed: errorOf(error), stack: String(error?.stack ?? "") };
}
await fetch("/result/" + name, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(report) });
// The next page of this browser run, if any: one browser start for all the pages (a start is
// most of a visit's time, three seconds of Firefox's).
const next = params.get("next");
if (next !== null && next.startsWith("/")) location.assign(next);
`;

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>mcpwire in a browser</title></head>
<body><script type="module" src="/page.js"></script></body></html>
`;

/** No eval: script-src 'self' (no 'unsafe-eval', no inline script). */
const CSP = "script-src 'self'";

interface PageReport {
  failed?: { message: string };
  userAgent: string;
  stack?: string;
  evalRefused: false | { name: string; message: string };
  server: string;
  protocolVersion: string;
  tools: string[];
  echo: string;
  long: string;
  progress: { progress: number; total?: number }[];
  resource: { uri: string; mimeType?: string; text: string }[];
  structured: { structuredContent: unknown; isError: boolean };
  mismatched: {
    accepted?: unknown;
    rejected?: { name: string; code: string; message: string };
    isOutputValidationError?: boolean;
    problems: string[];
  };
  problems: string[];
  /** The plain page only (tasks=1): the task tool without and with the tasks extension. */
  taskRefused?: { name: string; code: string; message: string };
  task?: { statuses: string[]; text: string };
}

const skip = allBrowsersSkip();

describe("a page that imports the browser bundle and uses the client, in headless Chromium and Firefox", { skip }, () => {
  const scratch = mkdtempSync(join(os.tmpdir(), "mcpwire-browser-test-"));
  const site = join(scratch, "site");
  let everything: ChildProcess | undefined;
  let mcpUrl = "";
  let pages: PageServer | undefined;

  before(async () => {
    const built = join(scratch, "package");
    mkdirSync(built);
    buildPackage(built);
    mkdirSync(site);
    await bundleForBrowser({ resolveDir: built, outdir: join(site, "bundle"), nodePaths: [join(ROOT, "node_modules")] });
    // As a bundler that splits code makes it (Vite, webpack, esbuild --splitting): each validator in a chunk of its own.
    await bundleForBrowser({ resolveDir: built, outdir: join(site, "split"), splitting: true, nodePaths: [join(ROOT, "node_modules")] });
    await esbuild.stop();
    writeFileSync(join(site, "index.html"), PAGE);
    writeFileSync(join(site, "csp.html"), PAGE);
    writeFileSync(join(site, "page.js"), PAGE_SCRIPT);
    const port = await freePort();
    everything = await startEverything(port);
    mcpUrl = `http://127.0.0.1:${port}/mcp`;
    pages = await servePage({ dir: site, headersFor: (path): Record<string, string> => (path === "/csp.html" ? { "content-security-policy": CSP } : {}) });
  });

  after(async () => {
    await pages?.close();
    if (everything) await stop(everything);
    rmSync(scratch, { recursive: true, force: true });
  });

  for (const browser of BROWSERS) {
    describe(`headless ${browser.name}`, { skip: browser.skip }, () => pageSuite(browser));
  }

  /** Every test of the page, in `browser`. */
  function pageSuite(browser: PageBrowser): void {
    const reports = new Map<string, PageReport>();

    // One browser run visits the three pages in turn (each page goes on to the next once it has
    // posted), each under a name of its own: both browsers post to one server.
    before(async () => {
      const visits = [
        { run: "plain", page: "index.html", bundle: "single", tasks: true },
        { run: "split", page: "index.html", bundle: "split", tasks: false },
        { run: "csp", page: "csp.html", bundle: "single", tasks: false },
      ];
      const nameOf = (run: string) => `${browser.name.toLowerCase()}-${run}`;
      let next: string | undefined;
      for (const { run, page, bundle, tasks } of [...visits].reverse()) {
        next = `/${page}?name=${nameOf(run)}&bundle=${bundle}&tasks=${tasks ? 1 : 0}&mcp=${encodeURIComponent(mcpUrl)}` +
          (next === undefined ? "" : `&next=${encodeURIComponent(next)}`);
      }
      const posted = Promise.all(visits.map(({ run }) => pages!.result(nameOf(run), 150_000)));
      const all = (await browser.open(`${pages!.origin}${next}`, posted, 160_000)) as PageReport[];
      visits.forEach(({ run }, at) => reports.set(run, all[at]!));
    });

    /** What the page posted on its visit `run`, which ran in the browser. */
    function reportOf(run: string): PageReport {
      const report = reports.get(run)!;
      assert.equal(report.failed, undefined, `the page failed in ${browser.name}: ${JSON.stringify(report.failed)}\n${report.stack}`);
      assert.match(report.userAgent, browser.userAgent);
      return report;
    }

    /** What every page must have done against server-everything. */
    function assertClientWorked(report: PageReport): void {
      assert.equal(report.server, "mcp-servers/everything");
      assert.ok(report.tools.includes("echo") && report.tools.includes("trigger-long-running-operation"), report.tools.join(", "));
      assert.equal(report.echo, "Echo: from a browser");
      assert.match(report.long, /Long running operation completed/);
      assert.deepEqual(report.progress.map((update) => [update.progress, update.total]), [[1, 3], [2, 3], [3, 3]]);
      assert.equal(report.resource.length, 1);
      assert.equal(report.resource[0]!.uri, "demo://resource/static/document/features.md");
      assert.ok(report.resource[0]!.text.length > 0, "the resource has text");
      assert.deepEqual(report.structured, { structuredContent: { temperature: 36, conditions: "Light rain / drizzle", humidity: 82 }, isError: false });
    }

    test("connects over Streamable HTTP across origins, lists tools, calls echo, gets progress, reads a resource, runs a task", () => {
      const report = reportOf("plain");
      assert.match(report.protocolVersion, /^\d{4}-\d{2}-\d{2}$/);
      assertClientWorked(report);
      assert.equal(report.evalRefused, false, "without a CSP the page may compile code");
      // the interpreting validator (#json-schema gives a browser no ajv): a result that does not match its outputSchema is refused
      assert.equal(report.mismatched.isOutputValidationError, true, JSON.stringify(report.mismatched));
      assert.equal(report.mismatched.rejected?.code, "output-mismatch", JSON.stringify(report.mismatched));
      // Tasks in a browser: refused without tasksExtension (saying what to import), run to completion with it.
      assert.equal(report.taskRefused?.name, "TaskError", JSON.stringify(report.taskRefused));
      assert.equal(report.taskRefused?.code, "unsupported");
      assert.match(report.taskRefused?.message ?? "", /use: \[tasksExtension\]/);
      assert.equal(report.task?.statuses.at(-1), "completed", JSON.stringify(report.task));
      assert.ok((report.task?.text.length ?? 0) > 0, "the task's result has text");
      assert.deepEqual(report.problems, []);
    });

    // The validator is a chunk of its own there, loaded when the first schema is checked.
    test("a code-split bundle (the validator a chunk loaded when first used) checks results too", () => {
      const report = reportOf("split");
      assertClientWorked(report);
      assert.equal(report.mismatched.isOutputValidationError, true, JSON.stringify(report.mismatched));
      assert.deepEqual([...report.problems, ...report.mismatched.problems], []);
    });

    describe(`under a Content-Security-Policy without 'unsafe-eval' (${CSP})`, () => {
      let report: PageReport | undefined;
      before(() => {
        report = reportOf("csp");
      });

      test("the policy is in force (new Function is refused), and the client still connects, calls and reads", () => {
        assert.notEqual(report!.evalRefused, false, "the CSP did not refuse new Function");
        // HTML's EnsureCSPDoesNotBlockStringCompilation throws an EvalError; its message is each browser's own
        assert.equal(report!.evalRefused && report!.evalRefused.name, "EvalError", JSON.stringify(report!.evalRefused));
        assertClientWorked(report!);
      });

      // The browser build's validator is the interpreting one: it compiles nothing, so the CSP changes nothing.
      test("structured results are still checked against the tool's outputSchema, with no eval", () => {
        assert.equal(report!.mismatched.isOutputValidationError, true, JSON.stringify(report!.mismatched));
        assert.equal(report!.mismatched.rejected?.code, "output-mismatch", JSON.stringify(report!.mismatched));
        assert.deepEqual([...report!.problems, ...report!.mismatched.problems], []);
      });
    });
  }
});
