// The check's stdio probe against real child processes: a conformant fixture in both eras, the
// same fixture breaking one rule per argument (test/fixtures/check/stdio-server.mjs), and the
// reference servers of the dev dependencies — spec 2025-11-25 basic/transports ("stdio"),
// 2026-07-28 basic/transports/stdio, JSON-RPC 2.0 §5 and §5.1. No process outlives a probe.

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import type { Rule } from "../../src/check/rule.ts";
import { probeStdio, type StdioProbeContext, StdioRules } from "../../src/check/stdio-probe.ts";
import { MAX_LINE_BYTES, type StdoutLine, StdoutLines } from "../../src/check/stdout-lines.ts";
import type { StdioTransportOptions } from "../../src/transport/stdio.ts";
import { behaviour } from "../support/behaviour.ts";
import { EVERYTHING } from "../support/everything-path.ts";
import { fixturePath } from "../support/fixture-process.ts";
import { childProcesses, hasProc, isRunning } from "../support/processes.ts";
import { RecordingJudge } from "../support/recording-judge.ts";

const SERVER = fixturePath("check/stdio-server.mjs");
const LEGACY: StdioProbeContext = { era: "legacy", protocolVersion: "2025-11-25" };
const MODERN: StdioProbeContext = { era: "modern", protocolVersion: "2026-07-28" };
const MEMORY = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/server-memory/dist/index.js", import.meta.url));
const FILESYSTEM = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js", import.meta.url));

/** A temporary directory for the pid file, removed after `body`. */
async function withPidsFile<T>(body: (file: string) => Promise<T>): Promise<T> {
  const directory = mkdtempSync(join(tmpdir(), "mcpwire-stdio-probe-"));
  try {
    return await body(join(directory, "pids"));
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** Probes the fixture with these breaks; asserts that none of its processes (grandchildren too) is left. */
async function probe(breaks: string[], context: StdioProbeContext = LEGACY, options: Partial<StdioTransportOptions> = {}): Promise<RecordingJudge> {
  return await withPidsFile(async (pidsFile) => {
    const judge = new RecordingJudge();
    const stdio: StdioTransportOptions = { command: "node", args: [SERVER, ...breaks], env: { CHECK_PIDS_FILE: pidsFile }, ...options };
    await probeStdio(stdio, context, judge, { timeoutMs: 5000 });
    const pids = readFileSync(pidsFile, "utf8").split(" ").map(Number);
    for (const pid of pids) assert.equal(isRunning(pid), false, `process ${pid} of the fixture (${breaks.join(" ")}) outlived the probe`);
    return judge;
  });
}

function assertFails(judge: RecordingJudge, rule: Rule, pattern: RegExp): void {
  assert.equal(judge.outcome(rule), "fail", `${rule.id}: ${JSON.stringify(judge.summary())}`);
  assert.match(judge.failuresOf(rule).map((each) => each.detail).join("\n"), pattern);
}

const ALL_PASS_LEGACY = {
  "transport/stdio-stdout-messages-only": "pass",
  "transport/stdio-no-embedded-newline": "pass",
  "transport/stdio-utf8": "pass",
  "transport/stdio-no-server-requests": "skip",
  "transport/stdio-stderr-logging": "pass",
  "transport/stdio-parse-error": "pass",
  "transport/stdio-parse-error-id": "pass",
  "transport/stdio-survives-bad-line": "pass",
  "transport/stdio-exit-on-stdin-close": "pass",
};

behaviour("a conformant server passes every stdio rule (2025-11-25, initialize)", async () => {
  const judge = await probe([]);
  assert.deepEqual(judge.summary(), ALL_PASS_LEGACY);
  assert.equal(Object.keys(ALL_PASS_LEGACY).length, Object.keys(StdioRules).length);
});

behaviour("a conformant server passes every stdio rule (2026-07-28, server/discover)", async () => {
  const judge = await probe([], MODERN);
  assert.deepEqual(judge.summary(), { ...ALL_PASS_LEGACY, "transport/stdio-no-server-requests": "pass" });
});

behaviour("a banner on stdout breaks stdout-messages-only, at its line", async () => {
  const judge = await probe(["banner"]);
  assertFails(judge, StdioRules.stdoutMessagesOnly, /^stdout line 1: not JSON$/);
  assert.equal(judge.failuresOf(StdioRules.stdoutMessagesOnly)[0]?.seen?.excerpt, "check-fixture running on stdio");
  // The rest of the session still works: the answers were read and judged.
  assert.equal(judge.outcome(StdioRules.survivesBadLine), "pass");
});

behaviour("pretty-printed messages break no-embedded-newline, and are still read as messages", async () => {
  const judge = await probe(["pretty"], MODERN);
  assertFails(judge, StdioRules.noEmbeddedNewline, /one message spread over \d+ lines/);
  assert.equal(judge.outcome(StdioRules.stdoutMessagesOnly), "pass");
  assert.equal(judge.outcome(StdioRules.parseError), "pass");
  assert.equal(judge.outcome(StdioRules.survivesBadLine), "pass");
});

behaviour("a byte that is not UTF-8 on stdout breaks stdio-utf8", async () => {
  const judge = await probe(["latin1"]);
  assertFails(judge, StdioRules.utf8, /^stdout line 1: its bytes are not valid UTF-8$/);
});

behaviour("stderr is counted for information (a MAY), and its first lines shown", async () => {
  const judge = await probe(["stderr"]);
  assertFails(judge, StdioRules.stderrLogging, /^for information: the server wrote 2 line\(s\), 45 bytes, to stderr.*"check-fixture: starting"/);
  assert.equal(StdioRules.stderrLogging.level, "MAY");
});

behaviour("a line that is not JSON left unanswered breaks stdio-parse-error (a SHOULD)", async () => {
  const judge = await probe(["no-parse-error"]);
  assertFails(judge, StdioRules.parseError, /^the line that is not JSON got no answer$/);
  assert.equal(judge.outcome(StdioRules.parseErrorId), "skip");
  assert.equal(judge.outcome(StdioRules.survivesBadLine), "pass");
});

behaviour("a parse error answered with another code breaks stdio-parse-error", async () => {
  const judge = await probe(["parse-error-code"]);
  assertFails(judge, StdioRules.parseError, /answered with code -32600, not -32700/);
  assert.equal(judge.outcome(StdioRules.parseErrorId), "pass");
});

behaviour("a parse error answered with an id breaks stdio-parse-error-id (a MUST)", async () => {
  const judge = await probe(["parse-error-id"]);
  assertFails(judge, StdioRules.parseErrorId, /^the answer carries id 0, not null$/);
  assert.equal(judge.outcome(StdioRules.parseError), "pass");
});

behaviour("a server that exits on a line that is not JSON breaks stdio-survives-bad-line", async () => {
  const judge = await probe(["crash-on-bad-json"]);
  assertFails(judge, StdioRules.survivesBadLine, /^the server exited with code 3 after the line that is not JSON, without answering ping$/);
  assert.equal(judge.outcome(StdioRules.exitOnStdinClose), "skip");
});

behaviour("a server that stays after stdin closes breaks exit-on-stdin-close; SIGTERM ends it", async () => {
  const judge = await probe(["ignore-stdin-close"]);
  assertFails(judge, StdioRules.exitOnStdinClose, /still running 2000 ms after its stdin closed; SIGTERM ended it/);
});

behaviour("a server that ignores stdin closing and SIGTERM is killed, with its grandchild", async () => {
  const judge = await probe(["ignore-sigterm", "grandchild"]);
  assertFails(judge, StdioRules.exitOnStdinClose, /only SIGKILL ended it/);
});

behaviour("a grandchild left in the group by a server that exits is ended too", async () => {
  const judge = await probe(["grandchild"]);
  assert.equal(judge.outcome(StdioRules.exitOnStdinClose), "pass");
});

behaviour("a request on stdout breaks no-server-requests in the 2026-07-28 era", async () => {
  const judge = await probe(["request"], MODERN);
  assertFails(judge, StdioRules.noServerRequests, /^stdout line 2: a request \("roots\/list"\)$/);
});

behaviour("a server flooding stdout is stopped, what is kept of it bounded", async () => {
  const judge = await probe(["flood"]);
  assertFails(judge, StdioRules.stdoutMessagesOnly, /^stdout line 1: not JSON\n/);
  assert.match(judge.failuresOf(StdioRules.stdoutMessagesOnly)[2]?.detail ?? "", /\(and 9997 more lines\); of \d+ lines the first 10000 were judged$/);
  assert.match(judge.skipReason(StdioRules.parseError), /wrote more than 16777216 bytes to stdout before it answered initialize/);
});

behaviour("the server is started through wrapSpawn, as the transport would start it", async () => {
  const wrapped: string[] = [];
  await withPidsFile(async (pidsFile) => {
    const judge = new RecordingJudge();
    await probeStdio(
      {
        command: "node",
        args: [SERVER],
        wrapSpawn: (spawn) => {
          wrapped.push(spawn.command);
          // The environment the transport's policy made (the baseline), with the wrapper's own addition.
          assert.equal(spawn.env.CHECK_PIDS_FILE, undefined);
          return Promise.resolve({ ...spawn, env: { ...spawn.env, CHECK_PIDS_FILE: pidsFile } });
        },
      },
      LEGACY,
      judge,
      { timeoutMs: 5000 },
    );
    assert.deepEqual(wrapped, ["node"]);
    const [pid] = readFileSync(pidsFile, "utf8").split(" ").map(Number);
    assert.equal(isRunning(pid!), false);
    assert.deepEqual(judge.summary(), ALL_PASS_LEGACY);
  });
});

behaviour("a server that cannot be started skips every rule, saying why", async () => {
  const judge = new RecordingJudge();
  await probeStdio({ command: "mcpwire-no-such-command-39" }, LEGACY, judge, { timeoutMs: 2000 });
  for (const rule of Object.values(StdioRules)) {
    assert.match(judge.skipReason(rule), /could not be started again for the probe/);
  }
});

test("stdout is split into lines at \\n: a \\r before it dropped, UTF-8 checked per line, a long line clipped", () => {
  const seen: StdoutLine[] = [];
  const lines = new StdoutLines((line) => seen.push(line));
  const encoded = new TextEncoder().encode("caf\u00e9\r\n");
  // "é" cut between two chunks still decodes whole.
  lines.push(encoded.subarray(0, 4));
  lines.push(encoded.subarray(4));
  lines.push(new Uint8Array([0x61, 0xe9, 0x0a]));
  lines.push(new Uint8Array(MAX_LINE_BYTES + 10).fill(0x78));
  lines.push(new Uint8Array([0x0a, 0x7b]));
  lines.end();
  assert.deepEqual(seen.map(({ text, utf8, bytes, clipped, unterminated }) => ({ text: text.slice(0, 5), utf8, bytes, clipped, unterminated })), [
    { text: "caf\u00e9", utf8: true, bytes: 5, clipped: false, unterminated: false },
    { text: "a\ufffd", utf8: false, bytes: 2, clipped: false, unterminated: false },
    { text: "xxxxx", utf8: true, bytes: MAX_LINE_BYTES + 10, clipped: true, unterminated: false },
    { text: "{", utf8: true, bytes: 1, clipped: false, unterminated: true },
  ]);
  assert.equal(seen[2]!.text.length, 1024);
  assert.equal(lines.bytes, encoded.length + 3 + MAX_LINE_BYTES + 10 + 2);
});

// The reference servers (TypeScript SDK, stdio): what the probe says of each, in both eras.
const REFERENCE: { name: string; args: (directory: string) => string[] }[] = [
  { name: "server-everything", args: () => [EVERYTHING, "stdio"] },
  { name: "server-filesystem", args: (directory) => [FILESYSTEM, directory] },
  { name: "server-memory", args: () => [MEMORY] },
];

for (const server of REFERENCE) {
  for (const context of [LEGACY, MODERN]) {
    behaviour(`${server.name} (${context.era}): stdout clean, exits on stdin close; it leaves a line that is not JSON unanswered`, async () => {
      const directory = mkdtempSync(join(tmpdir(), "mcpwire-stdio-probe-"));
      try {
        const judge = new RecordingJudge();
        await probeStdio(
          { command: "node", args: server.args(directory), env: { MEMORY_FILE_PATH: join(directory, "memory.jsonl") } },
          context,
          judge,
          { timeoutMs: 20_000 },
        );
        if (hasProc) {
          const left = childProcesses().filter((child) => child.state !== "Z" && child.cmdline.includes(server.args(directory)[0]!));
          assert.deepEqual(left, [], `${server.name} outlived the probe`);
        }
        assert.deepEqual(judge.summary(), {
          ...ALL_PASS_LEGACY,
          "transport/stdio-no-server-requests": context.era === "modern" ? "pass" : "skip",
          // Each logs a line or two to stderr ("… running on stdio"): allowed, reported as information.
          "transport/stdio-stderr-logging": "fail",
          // The TypeScript SDK's stdio server drops a line it cannot parse without answering it.
          "transport/stdio-parse-error": "fail",
          "transport/stdio-parse-error-id": "skip",
        });
      } finally {
        rmSync(directory, { recursive: true, force: true });
      }
    });
  }
}
