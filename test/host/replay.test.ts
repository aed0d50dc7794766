// The matching of `mcpwire replay` (src/host/trace/replay.ts), on traces written here event by
// event: repeated answers in order then the last again, notifications around requests and
// after client notifications, progress tokens remapped, server-to-client requests skipped with
// a note, and the choice of a server in a trace of several.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Recording, ReplayError } from "../../src/host/trace/replay.ts";
import { parseTrace } from "../../src/host/trace/trace-reader.ts";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.ts";

let t = 0;
/** One message event of `server` as a trace line. */
function line(dir: "send" | "receive", message: Record<string, unknown>, extra: Record<string, unknown> = {}, server = "s"): string {
  t += 1;
  return JSON.stringify({ v: 1, t, wall: "2026-01-01T00:00:00.000Z", server, transport: "stdio", kind: "message", dir, size: 1, message, ...extra });
}
const request = (id: number, method: string, params?: Record<string, unknown>) =>
  line("send", params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
const answer = (id: number, result: unknown) => line("receive", { jsonrpc: "2.0", id, result });
const notification = (dir: "send" | "receive", method: string, params?: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  line(dir, params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params }, extra);

const recording = (lines: string[], server?: string) => Recording.fromTrace(parseTrace(lines.join("\n")), server);
const ask = (replay: Recording, id: number, method: string, params?: Record<string, unknown>): JsonRpcMessage[] =>
  replay.reply(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params }).messages;

describe("Recording (mcpwire replay's matching)", () => {
  test("several answers to one request are replayed in order, then the last repeats; _meta is ignored; ids are the client's", () => {
    const replay = recording([
      request(1, "tools/call", { name: "count", arguments: {}, _meta: { progressToken: 1 } }),
      answer(1, { n: 1 }),
      request(2, "tools/call", { _meta: { progressToken: 2 }, arguments: {}, name: "count" }),
      answer(2, { n: 2 }),
    ]);
    const results = [10, 11, 12].map((id) => ask(replay, id, "tools/call", { arguments: {}, name: "count" }));
    assert.deepEqual(results, [
      [{ jsonrpc: "2.0", id: 10, result: { n: 1 } }],
      [{ jsonrpc: "2.0", id: 11, result: { n: 2 } }],
      [{ jsonrpc: "2.0", id: 12, result: { n: 2 } }],
    ]);
  });

  test("progress follows its request with the new token, and is left out without one; a recorded error is replayed as an error", () => {
    const replay = recording([
      request(5, "tools/call", { name: "slow", _meta: { progressToken: 5 } }),
      notification("receive", "notifications/message", { level: "info", data: "working" }),
      notification("receive", "notifications/progress", { progressToken: 5, progress: 1, total: 2 }, { progressOf: { id: 5, method: "tools/call" } }),
      answer(5, { done: true }),
      request(6, "tools/call", { name: "broken" }),
      line("receive", { jsonrpc: "2.0", id: 6, error: { code: -32000, message: "it broke" } }),
    ]);
    assert.deepEqual(ask(replay, 1, "tools/call", { name: "slow", _meta: { progressToken: "tok" } }), [
      { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "working" } },
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "tok", progress: 1, total: 2 } },
      { jsonrpc: "2.0", id: 1, result: { done: true } },
    ]);
    assert.deepEqual(ask(replay, 2, "tools/call", { name: "slow" }).map((message) => "method" in message ? message.method : "answer"), [
      "notifications/message",
      "answer",
    ]);
    assert.deepEqual(ask(replay, 3, "tools/call", { name: "broken" }), [{ jsonrpc: "2.0", id: 3, error: { code: -32000, message: "it broke" } }]);
  });

  test("a server-to-client request is skipped with a note; notifications after a client notification follow it; initialize by method alone", () => {
    const replay = recording([
      request(1, "initialize", { protocolVersion: "2025-11-25", clientInfo: { name: "a", version: "1" }, capabilities: {} }),
      answer(1, { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "rec", version: "1" } }),
      notification("send", "notifications/initialized"),
      notification("receive", "notifications/tools/list_changed"),
      request(2, "tools/call", { name: "ask" }),
      line("receive", { jsonrpc: "2.0", id: 0, method: "sampling/createMessage", params: { messages: [] } }),
      line("send", { jsonrpc: "2.0", id: 0, result: { role: "assistant", content: { type: "text", text: "hi" } } }),
      answer(2, { content: [{ type: "text", text: "the model said hi" }] }),
    ]);
    const init = ask(replay, "x" as unknown as number, "initialize", {
      protocolVersion: "2025-11-25",
      clientInfo: { name: "b", version: "2" },
      capabilities: {},
    });
    assert.deepEqual(init, [{
      jsonrpc: "2.0",
      id: "x",
      result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "rec", version: "1" } },
    }]);
    assert.deepEqual(replay.reply({ jsonrpc: "2.0", method: "notifications/initialized" }).messages, [
      { jsonrpc: "2.0", method: "notifications/tools/list_changed" },
    ]);
    const call = replay.reply({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "ask" } });
    assert.deepEqual(call.messages, [{ jsonrpc: "2.0", id: 4, result: { content: [{ type: "text", text: "the model said hi" }] } }]);
    assert.equal(call.notes.length, 1);
    assert.match(call.notes[0]!, /sent sampling\/createMessage during tools\/call \{"name":"ask"\}: not sent again/);
    assert.deepEqual(replay.reply({ jsonrpc: "2.0", id: 9, result: {} }).messages, []);
  });

  test("unmatched: the closest recorded tool by name, or method; ping is {}", () => {
    const replay = recording([request(1, "tools/call", { name: "get-sum", arguments: { a: 1, b: 2 } }), answer(1, { sum: 3 })]);
    const [wrongName] = ask(replay, 2, "tools/call", { name: "get-sun", arguments: { a: 1, b: 2 } });
    assert.ok(wrongName !== undefined && "error" in wrongName);
    assert.equal(wrongName.error.code, -32602);
    assert.match(wrongName.error.message, /the closest recorded request: tools\/call \{"arguments":\{"a":1,"b":2\},"name":"get-sum"\}$/);
    assert.deepEqual(wrongName.error.data, { closest: { method: "tools/call", params: { name: "get-sum", arguments: { a: 1, b: 2 } } } });
    const [unknown] = ask(replay, 3, "resources/list");
    assert.ok(unknown !== undefined && "error" in unknown);
    assert.equal(unknown.error.code, -32601);
    assert.match(unknown.error.message, /resources\/list was never asked in the recording; recorded: tools\/call$/);
    assert.deepEqual(ask(replay, 4, "ping"), [{ jsonrpc: "2.0", id: 4, result: {} }]);
  });

  test("a trace of several servers needs --server; an unknown one is refused with the names held", () => {
    const lines = [request(1, "tools/list"), line("send", { jsonrpc: "2.0", id: 1, method: "tools/list" }, {}, "other")];
    assert.throws(() => recording(lines), (error: unknown) => error instanceof ReplayError && error.code === "replay-which-server");
    assert.equal(recording(lines, "other").server, "other");
    assert.throws(
      () => recording(lines, "othr"),
      (error: unknown) => error instanceof ReplayError && error.code === "replay-unknown-server" && /did you mean "other"\?/.test(error.message),
    );
    assert.throws(() => recording([]), (error: unknown) => error instanceof ReplayError && error.code === "replay-no-messages");
  });
});
