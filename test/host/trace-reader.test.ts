// Reading a trace file back (host/trace/trace-reader.ts): the events a --trace-file writer wrote, in
// order; lines that are not events skipped with their line numbers; a version it does not know,
// a file it cannot read and a file too deep refused with a code.

import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { McpwireError } from "../../src/common/mcpwire-error.ts";
import { openTraceFile } from "../../src/host/trace/trace-file.ts";
import { MAX_TRACE_EVENT_DEPTH, parseTrace, readTrace, TraceReadError } from "../../src/host/trace/trace-reader.ts";
import type { TraceEvent } from "../../src/transport/trace-event.ts";

const base = { v: 1 as const, wall: "2026-12-04T12:00:00.000Z", server: "everything", transport: "stdio" };
const events: TraceEvent[] = [
  { ...base, t: 0, kind: "process", phase: "spawn", command: "node server.mjs", pid: 42 },
  { ...base, t: 1.5, kind: "lifecycle", phase: "era", era: "legacy", protocolVersion: "2025-11-25", reason: "initialize answered" },
  {
    ...base,
    t: 2,
    kind: "message",
    dir: "send",
    method: "tools/call",
    id: 3,
    size: 60,
    message: { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "echo", arguments: { message: "hi" } } },
  },
  {
    ...base,
    t: 4.5,
    kind: "message",
    dir: "receive",
    method: "tools/call",
    id: 3,
    answers: { id: 3, method: "tools/call" },
    latencyMs: 2.5,
    size: 70,
    message: { jsonrpc: "2.0", id: 3, result: { content: [{ type: "text", text: "Echo: hi" }] } },
  },
];

describe("reading a trace file", () => {
  test("the events a trace file holds come back in order, equal to what was written", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcpwire-trace-reader-"));
    try {
      const file = join(dir, "t.jsonl");
      const trace = await openTraceFile(file);
      for (const event of events) trace.sink(event);
      trace.close();
      const read = await readTrace(file);
      assert.deepEqual(read.events, events);
      assert.deepEqual(read.problems, []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a line that is not an event is skipped and named by its line; a later version's unknown kind is ignored", () => {
    const lines = [
      JSON.stringify(events[0]),
      "{ not json",
      JSON.stringify({ ...base, t: 3, kind: "message", dir: "sideways", message: {} }),
      "[1, 2]",
      JSON.stringify({ ...base, t: 3, kind: "telemetry", span: "x" }),
      `${"[".repeat(MAX_TRACE_EVENT_DEPTH + 5)}${"]".repeat(MAX_TRACE_EVENT_DEPTH + 5)}`,
      "",
      JSON.stringify(events[3]).slice(0, 40), // cut short by a crash
    ];
    const read = parseTrace(lines.join("\n"), "t.jsonl");
    assert.deepEqual(read.events, [events[0]]);
    assert.deepEqual(read.problems.map((problem) => problem.line), [2, 3, 4, 6, 8]);
    assert.match(read.problems[0]!.message, /not JSON/);
    assert.match(read.problems[1]!.message, /dir/);
    assert.match(read.problems[3]!.message, /deeper than/);
  });

  test("a trace of another version, a file that is not there, and a file too large are refused with a code", async () => {
    const later = JSON.stringify({ ...events[0], v: 2 });
    assert.throws(
      () => parseTrace(`${JSON.stringify(events[0])}\n${later}\n`, "new.jsonl"),
      (error: unknown) =>
        error instanceof TraceReadError && error instanceof McpwireError && error.code === "trace-version" &&
        /new\.jsonl:2: written in version 2/.test(error.message),
    );
    const missing = join(tmpdir(), "mcpwire-no-such-trace", "t.jsonl");
    await assert.rejects(
      readTrace(missing),
      (error: unknown) => error instanceof TraceReadError && error.code === "trace-unreadable" && error.path === missing,
    );
    assert.throws(
      () => parseTrace({ length: 300 * 1024 * 1024 } as unknown as string, "big.jsonl"),
      (error: unknown) => error instanceof TraceReadError && error.code === "trace-too-large",
    );
  });

  test("a file that is not JSON Lines at all reads as no events and one problem per line", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcpwire-trace-reader-"));
    try {
      const file = join(dir, "notes.txt");
      writeFileSync(file, "hello\nworld\n");
      const read = await readTrace(file);
      assert.deepEqual(read.events, []);
      assert.deepEqual(read.problems.map((problem) => problem.line), [1, 2]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
