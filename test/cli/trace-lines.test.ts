// The readable trace line (cli/trace/trace-lines.ts) of an event read from a file someone else wrote:
// a field of the wrong type holding a line break or an escape sequence stays on its one line,
// with its control characters made visible.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { formatTraceEvent } from "../../src/cli/trace/trace-lines.ts";
import type { TraceEvent } from "../../src/transport/trace-event.ts";

const base = { v: 1 as const, t: 1, wall: "2026-12-04T12:00:00.000Z", server: "s", transport: "stdio" };
const hostile = "x\n\u001b[2J\u001b]8;;https://evil.example\u0007y";

/** An event whose typed fields hold text, as a hand-edited trace file may. */
function forged(event: Record<string, unknown>): TraceEvent {
  return { ...base, ...event } as unknown as TraceEvent;
}

describe("trace lines of a hostile trace file", () => {
  const events = [
    forged({ kind: "http", phase: "response", method: hostile, url: "http://h/mcp", status: hostile, requestHeaders: {}, responseHeaders: {} }),
    forged({ kind: "http", phase: "body", method: hostile, url: "http://h/mcp", status: hostile, body: "{}" }),
    forged({ kind: "http", phase: "failed", method: hostile, url: "http://h/mcp", error: "refused" }),
    forged({ kind: "process", phase: "spawn", command: "node s.mjs", pid: hostile }),
    forged({ kind: "process", phase: "spawn", command: "node s.mjs", pid: 7, wrapper: hostile }),
    forged({ kind: "process", phase: "exit", pid: hostile, code: null, signal: hostile }),
    forged({ kind: "process", phase: "exit", pid: 7, code: hostile, signal: null }),
  ];
  for (const event of events) {
    const name = `${event.kind} ${(event as { phase: string }).phase}`;
    test(`${name}: one line, no raw escape`, () => {
      const line = formatTraceEvent(event);
      assert.equal(line.includes("\n"), false, `a line break got through: ${JSON.stringify(line)}`);
      assert.equal(/[\u0000-\u0008\u000b-\u001f\u007f]/.test(line), false, `a control character got through: ${JSON.stringify(line)}`);
    });
  }
});

test("a server spawned in a sandbox: its line says what it runs inside, then its own command", () => {
  const line = formatTraceEvent({ ...base, kind: "process", phase: "spawn", command: "node s.mjs", pid: 7, wrapper: "bubblewrap" });
  assert.match(line, /process started in bubblewrap, pid 7: node s\.mjs$/);
  assert.match(formatTraceEvent({ ...base, kind: "process", phase: "spawn", command: "node s.mjs", pid: 7 }), /process started, pid 7: node s\.mjs$/);
});
