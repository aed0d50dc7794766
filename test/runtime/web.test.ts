// Tests for the web platform's runtime module, src/runtime/web.ts (browsers, Cloudflare workerd,
// web workers): what it has (bytes, timers, an empty environment) and what it lacks (processes,
// files, blocking workers, listeners, a terminal), each lack an UnsupportedRuntimeError that
// says what was asked, where, and what to use instead. Loaded directly: it needs only web
// standards, so Node and Deno run it as a browser would.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { McpwireError } from "../../src/common/mcpwire-error.ts";
import { UnsupportedRuntimeError } from "../../src/runtime/errors.ts";
import { runtime as web } from "../../src/runtime/web.ts";

/** Asserts `error` is the UnsupportedRuntimeError for `capability`, and returns its message. */
function unsupported(error: unknown, capability: string): string {
  assert.ok(error instanceof UnsupportedRuntimeError, `not an UnsupportedRuntimeError: ${String(error)}`);
  assert.ok(error instanceof McpwireError);
  assert.equal(error.code, "unsupported-runtime");
  assert.equal(error.name, "UnsupportedRuntimeError");
  assert.equal(error.capability, capability);
  assert.equal(typeof error.runtime, "string");
  return error.message;
}

describe("the web runtime: what it lacks fails when asked, with a reason and what to do", () => {
  test("ensure('processes') names the operation, says stdio needs Node, Deno or Bun, and points to StreamableHttpTransport", () => {
    let caught: unknown;
    try {
      web.ensure("processes", `cannot start stdio "node server.js"`);
    } catch (error) {
      caught = error;
    }
    const message = unsupported(caught, "processes");
    assert.match(message, /^cannot start stdio "node server\.js": not available in /);
    assert.match(message, /needs Node, Deno or Bun/);
    assert.match(message, /StreamableHttpTransport/);
  });

  test("spawn rejects (never throws) with the processes error", async () => {
    const spawning = web.spawn({ command: "node", args: [], env: {}, onStdout() {}, onStderr() {} });
    unsupported(await spawning.then(() => undefined, (error: unknown) => error), "processes");
  });

  test("every file operation rejects with the files error naming its path", async () => {
    const attempts: [string, Promise<unknown>][] = [
      ["readTextFile", web.readTextFile("/tmp/a.json")],
      ["writePrivateFile", web.writePrivateFile("/tmp/a.json", "{}")],
      ["openPrivateLog", web.openPrivateLog("/tmp/a.jsonl")],
      ["makePrivateDirectory", web.makePrivateDirectory("/tmp/a")],
      ["linkInfo", web.linkInfo("/tmp/a.json")],
      ["removeFile", web.removeFile("/tmp/a.json")],
      ["listFiles", web.listFiles("/tmp/a")],
    ];
    for (const [name, attempt] of attempts) {
      const message = unsupported(await attempt.then(() => undefined, (error: unknown) => error), "files");
      assert.match(message, /\/tmp\/a/, name);
      assert.match(message, /MemoryTokenStore/, name);
    }
  });

  test("worker threads, listeners and the terminal: the blocking bridge points to the async API", async () => {
    const worker = (() => {
      try {
        web.startWorker({ url: new URL("file:///worker.js"), data: {} });
      } catch (error) {
        return error;
      }
    })();
    assert.match(unsupported(worker, "workers"), /createSyncBridge, dispatchSync.*client\.callTool/);
    unsupported(await web.serveLoopback(0, () => new Response()).then(() => undefined, (error: unknown) => error), "listeners");
    unsupported(await web.listenHttp({ port: 0 }, () => new Response()).then(() => undefined, (error: unknown) => error), "listeners");
    assert.throws(() => web.stdinLines(), (error) => unsupported(error, "terminal") !== "");
    assert.throws(() => web.exit(1), (error) => unsupported(error, "terminal") !== "");
    assert.throws(() => web.receiveMessageSync(new MessageChannel().port1), (error) => unsupported(error, "workers") !== "");
  });
});

describe("the web runtime: what it has", () => {
  test("an empty environment, no arguments, no user id, no worker data, and a name", () => {
    assert.equal(web.name, "web");
    assert.deepEqual(web.env(), {});
    assert.deepEqual(web.args(), []);
    assert.equal(web.userId(), undefined);
    assert.equal(web.workerData(), undefined);
    assert.equal(web.isTerminal("stdout"), false);
  });

  test("the framer's byte helpers decode and search as TextDecoder and indexOf do", () => {
    const bytes = new TextEncoder().encode('{"a":"€"}\n{"b":1}\n');
    assert.equal(web.decodeUtf8(bytes, 0, 11), '{"a":"€"}'); // € is three bytes
    assert.equal(web.decodeUtf8(new Uint8Array([0x61, 0xff, 0x62]), 0, 3), "a\uFFFDb");
    assert.equal(web.decodeUtf8(new Uint8Array([0xef, 0xbb, 0xbf, 0x61]), 0, 4), "\uFEFFa", "a BOM is kept as text");
    assert.equal(web.indexOfByte(bytes, 0x0a, 0), 11);
    assert.equal(web.indexOfByte(bytes, 0x0a, 12), bytes.length - 1);
    assert.equal(web.lastIndexOfByte(bytes, 0x0a), bytes.length - 1);
  });

  test("timerKeepsAlive accepts a timer of any shape (a number in a browser, an object elsewhere)", () => {
    const timer = setTimeout(() => {}, 60_000);
    web.timerKeepsAlive(timer, false);
    web.timerKeepsAlive(timer, true);
    web.timerKeepsAlive(7 as unknown as ReturnType<typeof setTimeout>, false);
    clearTimeout(timer);
  });

  test("exit hooks and interrupts are accepted and never run (no process to end, no signal arrives)", () => {
    web.onExit(() => assert.fail("ran"));
    web.onInterrupt(() => assert.fail("ran"));
  });
});
