// The CLI's small parsers: command lines, options, schema summaries.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseArgs, positiveInt, UsageError } from "../../src/cli/args.ts";
import { splitCommandLine } from "../../src/cli/command-line.ts";
import { summarizeInputSchema } from "../../src/cli/tools/schema-summary.ts";

describe("splitCommandLine", () => {
  test("splits on whitespace and keeps quoted words whole", () => {
    assert.deepEqual(splitCommandLine(`node  server.js --name "my server" 'it''s'`), ["node", "server.js", "--name", "my server", "its"]);
  });
  test("backslash escapes outside quotes and the shell's escapes inside double quotes", () => {
    assert.deepEqual(splitCommandLine(String.raw`a\ b "c\"d" "e\n"`), ["a b", 'c"d', String.raw`e\n`]);
  });
  test("an empty quoted word is still a word", () => {
    assert.deepEqual(splitCommandLine(`cmd "" x`), ["cmd", "", "x"]);
  });
  test("an unterminated quote is a usage error naming the quote", () => {
    assert.throws(
      () => splitCommandLine(`node "server.js`),
      (error: unknown) => error instanceof UsageError && error.code === "usage" && /unterminated " quote/.test(error.message),
    );
  });
});

describe("parseArgs", () => {
  const spec = { stdio: { kind: "string" }, env: { kind: "list" }, json: { kind: "flag" } } as const;
  test("reads values, repeated lists, flags and positionals", () => {
    const parsed = parseArgs(["--stdio", "node x", "--env=A=1", "--env", "B=2", "--json", "rest"], spec);
    assert.equal(parsed.values.get("stdio"), "node x");
    assert.deepEqual(parsed.lists.get("env"), ["A=1", "B=2"]);
    assert.ok(parsed.flags.has("json"));
    assert.deepEqual(parsed.positional, ["rest"]);
  });
  test("an unknown option, a missing value and a flag with a value are usage errors", () => {
    assert.throws(() => parseArgs(["--nope"], spec), UsageError);
    assert.throws(() => parseArgs(["--stdio"], spec), /needs a value/);
    assert.throws(() => parseArgs(["--json=yes"], spec), /takes no value/);
  });
  test("an optional-value option takes a value only after =, and leaves the next word alone", () => {
    const optional = { trace: { kind: "optional" } } as const;
    assert.equal(parseArgs(["--trace", "full"], optional).values.get("trace"), "");
    assert.deepEqual(parseArgs(["--trace", "full"], optional).positional, ["full"]);
    assert.equal(parseArgs(["--trace=full"], optional).values.get("trace"), "full");
    assert.equal(parseArgs([], optional).values.has("trace"), false);
  });
  test("positiveInt rejects what is not a positive integer", () => {
    assert.equal(positiveInt("timeout", "250", 1), 250);
    assert.equal(positiveInt("timeout", undefined, 7), 7);
    assert.throws(() => positiveInt("timeout", "-3", 1), /--timeout must be a positive integer/);
  });
});

describe("summarizeInputSchema", () => {
  test("lists properties with types, enums, arrays and required marks", () => {
    const summary = summarizeInputSchema({
      type: "object",
      properties: {
        path: { type: "string" },
        mode: { enum: ["r", "w"] },
        tags: { type: "array", items: { type: "string" } },
        limit: { anyOf: [{ type: "number" }, { type: "null" }] },
      },
      required: ["path"],
    });
    assert.equal(summary, `(path*: string, mode: "r"|"w", tags: string[], limit: number|null)`);
  });
  test("a schema without properties is ()", () => {
    assert.equal(summarizeInputSchema({ type: "object" }), "()");
  });
});
