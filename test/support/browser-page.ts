// Test helper: a page in a headless browser (Chromium, Firefox) that imports mcpwire's browser bundle and posts what
// it found back to the test (issue 28). Three parts, each usable alone:
// - bundleForBrowser: esbuild bundles `export * from "<specifier>"` for the browser (ESM, one
//   file as scripts/bundle-sizes.ts measures it; `splitting` puts what is imported when first
//   used, the validators, in chunks of their own), resolved from a directory holding node_modules/mcpwire: the
//   package built as `npm run build` builds it (scripts/bundle-sizes.ts buildPackage), or
//   installed from the tarball.
// - servePage: a loopback HTTP server of a directory (the page, its script, the bundle) with the
//   headers a test wants (a Content-Security-Policy); `POST /result/<name>` takes the page's
//   JSON report, which `result(name)` waits for (bounded).
// - openInChromium: headless Chromium on a URL, kept open until a promise settles (the posted
//   result) or a time limit, then its whole process group is killed and its profile removed.
//   runBrowserUntil is that contract for any browser: firefox.ts's openInFirefox uses it too.

import "./test-env.ts"; // the era cache off (test-env.ts)
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { extname, join, normalize, sep } from "node:path";
import process from "node:process";
import * as esbuild from "esbuild";
import { findChromium } from "./chromium.ts";

/** The most a page may post as its report. */
const RESULT_LIMIT = 4 * 1024 * 1024;

export interface BrowserBundleOptions {
  /** A directory whose node_modules holds the package (and its dependencies, or see nodePaths). */
  resolveDir: string;
  /** Where the bundle goes: `<outdir>/<name>.js` and its chunks. */
  outdir: string;
  /** The module bundled (default "mcpwire"): the bundle re-exports all of it. */
  specifier?: string;
  /** The entry module's text instead (a Worker's, say); `specifier` is then unused. */
  source?: string;
  /** The bundle's file name without `.js` (default "mcpwire"). */
  name?: string;
  /** esbuild conditions (default: esbuild's for the browser platform: browser, import, default). */
  conditions?: string[];
  /** Code splitting: dynamic imports become chunks loaded when first used (default false: one file). */
  splitting?: boolean;
  /** More directories to resolve packages from (the checkout's node_modules for a built package's dependencies). */
  nodePaths?: string[];
}

/**
 * Bundles `export * from specifier` for the browser into `outdir` and returns the entry's file
 * name (relative to outdir). Fails, with esbuild's messages, when a module cannot be bundled
 * for a browser (a node: import, say). Call `esbuild.stop()` when done bundling.
 */
export async function bundleForBrowser(options: BrowserBundleOptions): Promise<string> {
  const name = options.name ?? "mcpwire";
  const entry = join(mkdtempSync(join(tmpdir(), "mcpwire-browser-entry-")), `${name}.js`);
  writeFileSync(entry, options.source ?? `export * from ${JSON.stringify(options.specifier ?? "mcpwire")};\n`);
  try {
    await esbuild.build({
      entryPoints: [entry],
      absWorkingDir: options.resolveDir,
      bundle: true,
      splitting: options.splitting ?? false,
      format: "esm",
      platform: "browser",
      target: "es2022",
      ...(options.conditions === undefined ? {} : { conditions: options.conditions }),
      nodePaths: [join(options.resolveDir, "node_modules"), ...(options.nodePaths ?? [])],
      outdir: options.outdir,
      logLevel: "silent",
    });
  } finally {
    await rm(join(entry, ".."), { recursive: true, force: true });
  }
  return `${name}.js`;
}

/**
 * The source of a script function `mismatchedResult(mcpwire)`, for a page or a Worker: a
 * hand-written server over a MemoryTransport pair whose tool lists an outputSchema and answers
 * with structuredContent that does not match it; resolves `{ rejected, isOutputValidationError,
 * problems }` when the client refused the result (it was checked), `{ accepted, problems }` when not.
 */
export const MISMATCHED_RESULT = `async function mismatchedResult(mcpwire) {
  const [clientEnd, serverEnd] = mcpwire.MemoryTransport.pair();
  serverEnd.onmessage = (message) => {
    if (!("id" in message) || !("method" in message)) return;
    const answer = (result) => serverEnd.send({ jsonrpc: "2.0", id: message.id, result });
    if (message.method === "initialize") {
      answer({ protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "in-page", version: "1.0.0" } });
    } else if (message.method === "tools/list") {
      const outputSchema = { type: "object", properties: { temperature: { type: "number" } }, required: ["temperature"] };
      answer({ tools: [{ name: "weather", inputSchema: { type: "object" }, outputSchema }] });
    } else if (message.method === "tools/call") {
      answer({ content: [{ type: "text", text: "warm" }], structuredContent: { temperature: "warm" } });
    } else {
      serverEnd.send({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } });
    }
  };
  await serverEnd.start();
  const client = new mcpwire.Client({ name: "browser-page", version: "1.0.0" });
  const problems = [];
  client.on("problem", ({ message }) => problems.push(message));
  try {
    await client.connect(clientEnd);
    await client.listTools();
    const result = await client.callTool("weather", {});
    return { accepted: result.structuredContent, problems };
  } catch (error) {
    return { rejected: { name: error?.name, code: error?.code, message: String(error?.message ?? error) }, isOutputValidationError: error instanceof mcpwire.OutputValidationError, problems };
  } finally {
    await client.close();
  }
}
`;

export interface PageServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** The report the page posted to `/result/<name>`, parsed; rejects after timeoutMs. */
  result(name: string, timeoutMs?: number): Promise<unknown>;
  close(): Promise<void>;
}

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".css": "text/css",
};

export interface PageServerOptions {
  /** The directory served (GET and HEAD only, nothing above it). */
  dir: string;
  /** Extra headers of a response, by its path (e.g. a CSP for one page). */
  headersFor?: (path: string) => Record<string, string>;
  /** Told of every request: its method and URL (path and query), e.g. to check what a page put in its URLs. */
  onRequest?: (method: string, url: string) => void;
}

/** Serves `dir` on a free 127.0.0.1 port and takes the page's reports (see the header). */
export function servePage(options: PageServerOptions): Promise<PageServer> {
  const posted = new Map<string, unknown>();
  const waiting = new Map<string, (value: unknown) => void>();
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    options.onRequest?.(request.method ?? "", request.url ?? "/");
    const path = decodeURIComponent(new URL(request.url ?? "/", "http://127.0.0.1").pathname);
    const reported = /^\/result\/([\w-]+)$/.exec(path);
    if (request.method === "POST" && reported !== null) {
      const body = await readLimited(request);
      let value: unknown;
      try {
        value = JSON.parse(body);
      } catch {
        value = { notJson: body.slice(0, 2000) };
      }
      posted.set(reported[1]!, value);
      waiting.get(reported[1]!)?.(value);
      response.writeHead(204).end();
      return;
    }
    if (request.method !== "GET" && request.method !== "HEAD") return void response.writeHead(405).end();
    const file = normalize(join(options.dir, path === "/" ? "index.html" : path));
    if (!file.startsWith(options.dir + sep)) return void response.writeHead(403).end();
    let body: Uint8Array;
    try {
      body = readFileSync(file);
    } catch {
      return void response.writeHead(404, { "content-type": "text/plain" }).end(`not found: ${path}`);
    }
    response.writeHead(200, {
      "content-type": TYPES[extname(file)] ?? "application/octet-stream",
      "cache-control": "no-store",
      ...(options.headersFor?.(path) ?? {}),
    });
    response.end(request.method === "HEAD" ? undefined : body);
  };
  const server = createServer((request, response) => {
    handle(request, response).catch((error) => {
      if (!response.headersSent) response.writeHead(500, { "content-type": "text/plain" });
      response.end(String(error));
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      resolve({
        origin: `http://127.0.0.1:${port}`,
        result(name, timeoutMs = 60_000) {
          if (posted.has(name)) return Promise.resolve(posted.get(name));
          return new Promise((done, fail) => {
            const timer = setTimeout(() => {
              waiting.delete(name);
              fail(new Error(`the page posted no result "${name}" within ${timeoutMs} ms`));
            }, timeoutMs);
            waiting.set(name, (value) => {
              clearTimeout(timer);
              waiting.delete(name);
              done(value);
            });
          });
        },
        close() {
          server.closeAllConnections();
          return new Promise((done) => server.close(() => done()));
        },
      });
    });
  });
}

function readLimited(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    request.on("data", (chunk: Uint8Array) => {
      size += chunk.length;
      if (size > RESULT_LIMIT) {
        request.destroy();
        reject(new Error(`a page's report is larger than ${RESULT_LIMIT} bytes`));
      } else chunks.push(chunk);
    });
    request.once("end", () => {
      const all = new Uint8Array(size);
      let at = 0;
      for (const chunk of chunks) {
        all.set(chunk, at);
        at += chunk.length;
      }
      resolve(new TextDecoder().decode(all));
    });
    request.once("error", reject);
  });
}

/**
 * Opens `url` in headless Chromium (its own profile, the leader of its own process group) and
 * resolves with what `until` resolves to; rejects when `until` rejects, when Chromium exits
 * first or cannot start, or after timeoutMs. In every case the process group is killed and
 * waited for, and the profile removed, before this settles. Chromium's last output is in the
 * error's message. `extraArgs` go before the URL (`--disable-popup-blocking` for a page that
 * opens a popup with no user gesture, which nobody gives headless Chromium).
 */
export async function openInChromium<T>(url: string, until: Promise<T>, timeoutMs = 90_000, extraArgs: readonly string[] = []): Promise<T> {
  const executable = findChromium() ?? "chromium";
  const profile = mkdtempSync(join(tmpdir(), "mcpwire-chromium-"));
  const args = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-dev-shm-usage",
    "--disable-extensions",
    "--disable-background-networking",
    "--disable-component-update",
    `--user-data-dir=${profile}`,
    ...extraArgs,
    url,
  ];
  return await runBrowserUntil({ name: "chromium", debianPackage: "chromium", executable, args, profile }, url, until, timeoutMs);
}

/** A browser run for runBrowserUntil: what to start, and the profile directory it owns. */
export interface BrowserLaunch {
  /** For messages: "chromium", "firefox". */
  name: string;
  /** The Debian package that installs it, for the message when it cannot start. */
  debianPackage: string;
  executable: string;
  /** Every argument, the URL included. */
  args: readonly string[];
  /** The profile directory (made by the caller), removed once the run is over. */
  profile: string;
  /** The environment (default: this process's). */
  env?: Record<string, string | undefined>;
}

/**
 * What openInChromium and openInFirefox share: starts `launch` as the leader of its own process
 * group and resolves with what `until` resolves to; rejects when `until` rejects, when the
 * browser exits first or cannot start, or after timeoutMs, with the browser's last output in
 * the message. In every case the process group is killed and waited for (bounded), and the
 * profile removed, before this settles.
 */
export async function runBrowserUntil<T>(launch: BrowserLaunch, url: string, until: Promise<T>, timeoutMs: number): Promise<T> {
  const { name, executable, profile } = launch;
  const child = spawn(executable, launch.args, {
    stdio: ["ignore", "ignore", "pipe"],
    detached: true,
    ...(launch.env === undefined ? {} : { env: launch.env }),
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Uint8Array) => {
    stderr = (stderr + new TextDecoder().decode(chunk)).slice(-20_000);
  });
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const gaveUp = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${name}: no result from ${url} within ${timeoutMs} ms`)), timeoutMs);
  });
  const failed = new Promise<never>((_, reject) => {
    child.once("error", (error) => reject(new Error(`cannot start ${executable}: ${error.message}; install Debian's ${launch.debianPackage} package`)));
    void closed.then(() => reject(new Error(`${name} exited (code ${child.exitCode}, signal ${child.signalCode}) before ${url} posted its result`)));
  });
  try {
    return await Promise.race([until, gaveUp, failed]);
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${name}'s last output:\n${stderr.slice(-4000)}`, { cause: error });
  } finally {
    clearTimeout(timer);
    killGroup(child.pid);
    if (child.exitCode === null && child.signalCode === null) {
      let waited: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([closed, new Promise((resolve) => (waited = setTimeout(resolve, 10_000)))]);
      clearTimeout(waited); // not left pending: it would keep the test's process alive 10 s after its last test
    }
    killGroup(child.pid); // a renderer (content process) that outlived its parent, if any
    await rm(profile, { recursive: true, force: true, maxRetries: 3 });
  }
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    try {
      process.kill(pid, "SIGKILL"); // no group to kill (gone already, or a runtime without process groups)
    } catch {
      // gone
    }
  }
}
