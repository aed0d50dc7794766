// `mcpwire trace html` (issue 26): a real session's trace — `mcpwire run` with a fake model calling
// tools on server-everything over stdio (progress), the cli-features fixture (an elicitation: a
// request from the server) and server-everything over Streamable HTTP (http events) — drawn as
// one page that headless Chromium loads: one arrow per message, counted by data-method and
// data-dir against the trace; hostile text stays text; 10,000 messages load.

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { after, before, describe, test } from "node:test";
import { UsageError } from "../../src/cli/args.ts";
import { renderTraceHtml } from "../../src/cli/trace/trace-html.ts";
import { traceHtml } from "../../src/cli/verbs/trace-verb.ts";
import { parseTrace, readTrace, type Trace } from "../../src/host/trace/trace-reader.ts";
import type { TraceEvent } from "../../src/transport/trace-event.ts";
import { type HttpServerProcess, startEverything } from "../fixtures/sse-servers.ts";
import { chromiumSkip, fileUrl, runChromium } from "../support/chromium.ts";
import { everythingYaml, mcpwire, scratchDir, writeConfig } from "../support/cli-runner.ts";
import { type FakeModelApi, refusedOrigin, startFakeModelApi } from "../support/fake-model-apis.ts";
import { fixturePath } from "../support/fixture-process.ts";

const scratch = scratchDir("mcpwire-trace-html-");
const skip = chromiumSkip();

/** Prints a line in the test's output (t.diagnostic where the runtime has it). */
function note(t: { diagnostic?: (message: string) => void }, message: string): void {
  if (typeof t.diagnostic === "function") t.diagnostic(message);
  else console.log(`# ${message}`);
}

/** The attributes of every element of the dumped DOM that carries data-method: the message arrows. */
function arrowsOf(dom: string): Array<{ method: string; dir: string; className: string }> {
  const arrows = [];
  for (const match of dom.matchAll(/<div((?:\s+[\w-]+(?:="[^"]*")?)*)\s*>/g)) {
    const attributes = new Map([...match[1]!.matchAll(/([\w-]+)="([^"]*)"/g)].map(([, name, value]) => [name!, decode(value!)]));
    const method = attributes.get("data-method");
    if (method === undefined) continue;
    arrows.push({ method, dir: attributes.get("data-dir") ?? "", className: attributes.get("class") ?? "" });
  }
  return arrows;
}

function decode(text: string): string {
  return text.replaceAll("&quot;", '"').replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&nbsp;", "\u00a0").replaceAll("&amp;", "&");
}

/** `method dir` → how many, from the trace's message events. */
function countsOfTrace(events: readonly TraceEvent[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const event of events) {
    if (event.kind !== "message") continue;
    const key = `${event.method ?? ""} ${event.dir}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

function countsOfArrows(arrows: ReadonlyArray<{ method: string; dir: string }>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const arrow of arrows) counts.set(`${arrow.method} ${arrow.dir}`, (counts.get(`${arrow.method} ${arrow.dir}`) ?? 0) + 1);
  return counts;
}

function sorted(counts: Map<string, number>): Array<[string, number]> {
  return [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Loads a page in headless Chromium and returns the DOM after its script ran. */
async function dumpDom(page: string, timeoutMs = 60_000, fragment?: string): Promise<{ dom: string; ms: number }> {
  const run = await runChromium(fileUrl(page, fragment), ["--dump-dom"], timeoutMs);
  assert.equal(run.code, 0, `chromium --dump-dom ended with ${run.code}: ${run.stderr.slice(-2000)}`);
  assert.match(run.stdout, /data-render-ms="[\d.]+"/, `the page's script did not finish (blocked by its CSP, or it threw): ${run.stderr.slice(-2000)}`);
  return { dom: run.stdout, ms: run.ms };
}

describe("mcpwire trace html of a real session (run: everything over stdio and HTTP, cli-features)", () => {
  let api: FakeModelApi;
  let web: HttpServerProcess;
  let trace: Trace;
  let page: string;

  before(async () => {
    web = await startEverything("streamableHttp");
    api = await startFakeModelApi("openai", [
      {
        toolCalls: [
          { name: "mcp_everything_trigger-long-running-operation", arguments: { duration: 1, steps: 2 } },
          { name: "mcp_features_ask", arguments: {} },
          { name: "mcp_web_echo", arguments: { message: "hi over HTTP" } },
        ],
      },
      () => ({ text: "done" }),
    ]);
    const config = await writeConfig(scratch.path, "mcpwire.yaml", [
      "providers:",
      "  openai:",
      `    base_url: ${JSON.stringify(api.url)}`,
      "mcp_servers:",
      ...everythingYaml(),
      "  features:",
      "    command: node",
      `    args: [${JSON.stringify(fixturePath("cli-features-server.mjs"))}]`,
      "  web:",
      `    url: ${web.origin}/mcp`,
    ]);
    const file = join(scratch.path, "session.jsonl");
    const env: Record<string, string | undefined> = { ...process.env, OLLAMA_HOST: await refusedOrigin() };
    for (const name of ["OPENAI_API_KEY", "OPENAI_BASE_URL"]) delete env[name];
    const run = await mcpwire(["run", "-p", "use the tools", "--model", "openai/any", "--yes", "--trace-file", file, "--config", config], { env });
    assert.equal(run.code, 0, run.stderr);
    trace = await readTrace(file);
    page = join(scratch.path, "session.html");
    await writeFile(page, "an older file");
    const code = await traceHtml([file, "-o", page]);
    assert.equal(code, 0);
  });
  after(async () => {
    await api?.close();
    await web?.stop();
  });

  test("the trace holds what the page draws: requests, answers, progress, a request from a server, http events", () => {
    const messages = trace.events.filter((event) => event.kind === "message");
    assert.deepEqual(trace.problems, []);
    assert.ok(messages.some((event) => event.dir === "send" && event.method === "tools/call"));
    assert.ok(messages.some((event) => event.answers?.method === "tools/call"));
    assert.ok(messages.some((event) => event.method === "notifications/progress" && event.progressOf?.method === "tools/call"));
    assert.ok(messages.some((event) => event.dir === "receive" && event.method === "elicitation/create" && event.id !== undefined));
    assert.ok(trace.events.some((event) => event.kind === "http" && event.phase === "response" && event.status === 200));
    assert.deepEqual(new Set(trace.events.map((event) => event.server)), new Set(["everything", "features", "web"]));
  });

  test("traceHtml replaced the existing file with one page (mode 0600) that loads nothing from elsewhere", async () => {
    const html = await readFile(page, "utf8");
    assert.ok(html.startsWith("<!DOCTYPE html>"));
    if (process.platform !== "win32") assert.equal((await stat(page)).mode & 0o777, 0o600);
    assert.doesNotMatch(html, /\s(src|href)=/i, "an element loads or links something");
    assert.doesNotMatch(html, /https?:\/\/[^"\s]*\.(js|css|woff2?)\b/, "an external script, style or font");
    assert.equal(html.match(/<script/g)?.length, 2, "one data block and one script");
  });

  test("the Content-Security-Policy allows only the page's own script and style, by SHA-256: no network, no eval, no inline anything else", async () => {
    const html = await readFile(page, "utf8");
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1];
    assert.ok(policy !== undefined, "no CSP meta tag");
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    const hash = (text: string) => createHash("sha256").update(text, "utf8").digest("base64");
    assert.ok(policy.split("; ").includes("default-src 'none'"), policy);
    assert.ok(policy.includes(`script-src 'sha256-${hash(script)}'`), policy);
    assert.ok(policy.includes(`style-src 'sha256-${hash(style)}'`), policy);
    assert.doesNotMatch(policy, /unsafe|https?:|\*/);
  });

  test("headless Chromium draws one arrow per message: counts by data-method and data-dir equal the trace's; a screenshot", { skip }, async (t) => {
    const { dom, ms } = await dumpDom(page);
    const arrows = arrowsOf(dom);
    assert.deepEqual(sorted(countsOfArrows(arrows)), sorted(countsOfTrace(trace.events)));
    // Each kind of arrow is drawn as such.
    const classed = (method: string, dir: string, role: string) =>
      arrows.some((arrow) => arrow.method === method && arrow.dir === dir && arrow.className.includes(role));
    assert.ok(classed("tools/call", "send", "request"));
    assert.ok(classed("tools/call", "receive", "answer"));
    assert.ok(classed("notifications/progress", "receive", "notification"));
    assert.ok(classed("elicitation/create", "receive", "server-request"), "the server's elicitation/create is not drawn as a request from the server");
    assert.ok(classed("elicitation/create", "send", "answer"), "the client's answer to elicitation/create");
    assert.ok(classed("server/discover", "receive", "error"), "the stdio servers' refusal of server/discover is not an error answer");
    // HTTP statuses and headers under the arrows, process and lifecycle marks on the lanes.
    assert.match(dom, /class="http">POST 200 \(SSE\) · Mcp-Session-Id: /);
    assert.match(dom, /class="http">POST 202 /);
    assert.match(dom, /class="mark process[^"]*"[^>]*>spawn pid \d+: node /);
    assert.match(dom, /class="mark lifecycle[^"]*"[^>]*>ready</);
    assert.match(dom, /class="mark http[^"]*"[^>]*>DELETE 200/);
    for (const lane of ["client", "everything", "features", "web"]) assert.match(dom, new RegExp(`class="lane-name"[^>]*>${lane}<`));
    note(t, `chromium loaded ${arrows.length} arrows in ${ms} ms`);

    // The screenshot shows the answer to tools/call over HTTP selected (#N selects row N): its JSON in the side panel.
    const drawn = JSON.parse(decode(/id="trace-data">([^<]*)<\/script>/.exec(dom)![1]!)) as {
      lanes: string[];
      rows: Array<{ role: string; method?: string; lane: number }>;
    };
    const answer = drawn.rows.findIndex((row) => row.role === "answer" && row.method === "tools/call" && drawn.lanes[row.lane] === "web");
    // Selected (as a click selects it): its request is lit, and the side panel shows its JSON.
    const selected = (await dumpDom(page, 60_000, String(answer))).dom;
    assert.equal(selected.match(/<div class="row[^"]*\bselected">/g)?.length, 1);
    assert.match(selected, /<div class="row[^"]*\brelated">(?:(?!<div class="row)[\s\S])*>tools\/call #\d+ echo</, "the request it answers is not lit");
    assert.match(selected, /<aside id="panel"><h2>↳ tools\/call #\d+ · [\d.]+ ms<\/h2>[\s\S]*"text": "Echo: hi over HTTP"/);
    assert.match(selected, /<dt>answers<\/dt><dd><button type="button">tools\/call #\d+ echo<\/button>/);
    const shots = mkdtempSync(join(tmpdir(), "mcpwire-trace-html-shot-")); // kept: the path is printed to be looked at
    const png = join(shots, "trace.png");
    const shot = await runChromium(fileUrl(page, String(answer)), [`--screenshot=${png}`, "--window-size=1400,900"]);
    assert.equal(shot.code, 0, shot.stderr.slice(-2000));
    const bytes = await readFile(png);
    assert.deepEqual([...bytes.subarray(1, 4)], [0x50, 0x4e, 0x47], "not a PNG");
    note(t, `screenshot: ${png}`);
  });
});

/** A trace of `events`, each given the common fields. */
function traceOf(details: Array<Record<string, unknown>>): Trace {
  const lines = details.map((detail, index) =>
    JSON.stringify({ v: 1, t: index, wall: "2026-12-04T12:00:00.000Z", transport: "stdio", server: "s", ...detail })
  );
  return parseTrace(lines.join("\n"));
}

const SCRIPT_BREAK = "</script><script>alert(1)</script>";
const IMG = "<img src=x onerror=alert(1)>";

describe("mcpwire trace html of hostile text", () => {
  const hostile = traceOf([
    { kind: "process", phase: "stderr", line: `${SCRIPT_BREAK} ${IMG}` },
    {
      kind: "message",
      dir: "send",
      id: 1,
      method: "tools/call",
      size: 1,
      message: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: SCRIPT_BREAK } },
    },
    {
      kind: "message",
      dir: "receive",
      id: 1,
      method: "tools/call",
      answers: { id: 1, method: "tools/call" },
      size: 1,
      message: { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: `${IMG} <!-- \u2028 & ${SCRIPT_BREAK}` }] } },
    },
    { kind: "message", dir: "receive", method: IMG, size: 1, message: { jsonrpc: "2.0", method: IMG } },
    {
      kind: "message",
      dir: "receive",
      server: SCRIPT_BREAK,
      method: "notifications/message",
      size: 1,
      message: { jsonrpc: "2.0", method: "notifications/message" },
    },
    { kind: "lifecycle", phase: "close", reason: "\u001b]8;;http://evil\u0007click\u001b]8;;\u0007 \u202eevil" },
    // Fields of the wrong type, and a phase of no version: drawn as marks or as they are, never a crash.
    { kind: "message", dir: "send", transport: "streamable-http", id: 2, method: "ping", size: 1, message: { jsonrpc: "2.0", id: 2, method: "ping" } },
    { kind: "http", transport: "streamable-http", phase: "response", method: "POST", url: 5, status: "x" },
    { kind: "http", phase: "teleport", url: "x" },
    { kind: "process", phase: "spawn", pid: null },
    { kind: "message", dir: "receive", answers: null, progressOf: "x", size: 1, message: { jsonrpc: "2.0", id: null, result: null } },
  ]);

  test("the data block escapes < > & and U+2028: no script, img or comment can start from the trace", () => {
    const html = renderTraceHtml(hostile, { title: SCRIPT_BREAK });
    assert.equal(html.match(/<script/g)?.length, 2);
    assert.equal(html.match(/<\/script>/g)?.length, 2);
    assert.ok(!html.includes("<img"), "an img tag in the page's source");
    assert.ok(!html.includes("<!-- "), "a comment opened from the data");
    assert.ok(!html.includes("\u2028"));
    const data = /id="trace-data">([^<]*)<\/script>/.exec(html)?.[1];
    assert.ok(data !== undefined && data.includes("\\u003c/script\\u003e"));
    const parsed = JSON.parse(data) as { events: Array<{ message: { result: { content: Array<{ text: string }> } } }>; rows: Array<{ label: string }> };
    assert.equal(parsed.events[2]!.message.result.content[0]!.text, `${IMG} <!-- \u2028 & ${SCRIPT_BREAK}`);
    assert.ok(parsed.rows.some((row) => row.label.startsWith("an event this page cannot draw: ")), "the malformed http response");
    assert.equal(parsed.rows.length, hostile.events.length);
  });

  test("in Chromium the hostile text is text: no extra script or img element, the text is shown, control characters visible", { skip }, async () => {
    const page = join(scratch.path, "hostile.html");
    await writeFile(page, renderTraceHtml(hostile, { title: SCRIPT_BREAK }));
    const { dom } = await dumpDom(page);
    assert.equal(dom.match(/<script/g)?.length, 2, "a script element was added");
    assert.equal(dom.match(/<img/g)?.length ?? 0, 0, "an img element was made");
    assert.ok(dom.includes("tools/call #1 &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;"), "the tool name is not shown as text");
    assert.ok(dom.includes("stderr: &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror=alert(1)&gt;"));
    assert.ok(dom.includes("<h1>&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;</h1>"), "the title is not text");
    assert.ok(dom.includes('data-method="<img src=x onerror=alert(1)>"') || dom.includes('data-method="&lt;img src=x onerror=alert(1)&gt;"'));
    assert.ok(dom.includes("\\x1b]8;;http://evil\\x07click"), "the escape sequence is not made visible");
    assert.ok(dom.includes("\\u202eevil"), "the bidi override is not made visible");
    assert.equal(arrowsOf(dom).length, 6);
  });
});

describe("mcpwire trace html of 10,000 messages", () => {
  test("the page loads with 10,000 arrows (the load time is printed, not asserted)", { skip }, async (t) => {
    const details: Array<Record<string, unknown>> = [];
    for (let i = 1; i <= 5000; i++) {
      const server = `server-${i % 3}`;
      const method = i % 2 === 0 ? "tools/call" : "resources/read";
      const params = method === "tools/call" ? { name: "echo", arguments: { message: `call ${i}` } } : { uri: `file:///doc/${i}.txt` };
      details.push({ kind: "message", server, dir: "send", id: i, method, size: 80, message: { jsonrpc: "2.0", id: i, method, params } });
      details.push({
        kind: "message",
        server,
        dir: "receive",
        id: i,
        method,
        answers: { id: i, method },
        latencyMs: 1.5,
        size: 60,
        message: { jsonrpc: "2.0", id: i, result: { content: [{ type: "text", text: `answer ${i}` }] } },
      });
    }
    const trace = traceOf(details);
    const page = join(scratch.path, "large.html");
    await writeFile(page, renderTraceHtml(trace, { title: "large" }));
    const { dom, ms } = await dumpDom(page, 120_000);
    const arrows = arrowsOf(dom);
    assert.equal(arrows.length, 10_000);
    assert.deepEqual(sorted(countsOfArrows(arrows)), sorted(countsOfTrace(trace.events)));
    const script = /data-render-ms="([\d.]+)"/.exec(dom)?.[1];
    const ready = /data-ready-ms="([\d.]+)"/.exec(dom)?.[1];
    note(
      t,
      `10,000 messages (${
        Math.round((await stat(page)).size / 1024)
      } KB): the page's script built them in ${script} ms, ${ready} ms after navigation; chromium ran ${ms} ms in all`,
    );
  });
});

describe("mcpwire trace html: the command line", () => {
  test("no file, no -o, two files are usage errors; a trace that cannot be read exits 2 (as trace show and diff)", async () => {
    await assert.rejects(traceHtml([]), (error) => error instanceof UsageError && /needs the trace file/.test(error.message));
    await assert.rejects(traceHtml(["t.jsonl"]), (error) => error instanceof UsageError && /needs -o OUT\.html/.test(error.message));
    await assert.rejects(traceHtml(["a.jsonl", "b.jsonl", "-o", "x.html"]), (error) => error instanceof UsageError && /one trace file/.test(error.message));
    await assert.rejects(traceHtml(["t.jsonl", "--out", "x.html"]), (error) => error instanceof UsageError && /unknown option --out/.test(error.message));
    const out = join(scratch.path, "never.html");
    assert.equal(await traceHtml([join(scratch.path, "missing.jsonl"), "--output", out]), 2);
    await assert.rejects(stat(out), "a page was written for a trace that could not be read");
  });
});
