// The CLI's errors follow the one error model: each is an McpwireError whose `code` is one of
// CliErrorCode, reached through the path that raises it (the option parser, a --stdio command
// line, `mcpwire call`'s arguments, run's host set-up); and a bad command line still exits 2
// with a pointer to the verb's help.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { HookConfigError } from "../../src/agent/hooks.ts";
import { ModelStringError } from "../../src/agent/providers/model-string.ts";
import { parseArgs, UsageError } from "../../src/cli/args.ts";
import { splitCommandLine } from "../../src/cli/command-line.ts";
import { HOST_OPTIONS, NoModelError, setUpHost } from "../../src/cli/session/agent-session.ts";
import { CallArgumentsError, parseArgumentWords, typeArguments } from "../../src/cli/tools/call-arguments.ts";
import type { McpwireConfig } from "../../src/host/config/types.ts";
import { mcpwire } from "../support/cli-runner.ts";
import { coded, thrown } from "../support/coded-error.ts";
import { refusedOrigin } from "../support/fake-model-apis.ts";
import { rejection } from "../support/rejection.ts";

/** A config as loadConfig gives it: no servers, these settings. */
function config(settings: Partial<McpwireConfig>): McpwireConfig {
  return { servers: [], warnings: [], ...settings };
}

describe("CLI error codes", () => {
  test("UsageError: usage, from the option parser and from a --stdio command line with an open quote", () => {
    coded(thrown(() => parseArgs(["--nope"], {})), UsageError, "usage");
    const quote = coded(thrown(() => splitCommandLine(`node "server.js`)), UsageError, "usage");
    assert.match(quote.message, /unterminated " quote/);
  });

  test("CallArgumentsError: a UsageError with the code of what was wrong", () => {
    const pair = coded(thrown(() => parseArgumentWords(["a"])), CallArgumentsError, "not-a-pair");
    assert.ok(pair instanceof UsageError);
    coded(thrown(() => parseArgumentWords(["a=1", "a=2"])), CallArgumentsError, "duplicate-key");
    const schema = { type: "object", properties: { n: { type: "integer" } }, required: ["n"] };
    coded(thrown(() => typeArguments(parseArgumentWords([]), schema, "tool t")), CallArgumentsError, "missing-required");
    coded(thrown(() => typeArguments(parseArgumentWords(["n=x"]), schema, "tool t")), CallArgumentsError, "type-mismatch");
  });

  test("NoModelError: no-model-configured, when no model is given and no Ollama answers", async () => {
    const settings = config({ providers: { ollama: { baseUrl: await refusedOrigin() } } });
    const error = coded(await rejection(setUpHost("run", parseArgs([], HOST_OPTIONS), settings)), NoModelError, "no-model-configured");
    assert.match(error.message, /no model configured/);
  });

  test("run's set-up: a bad model string or hook config is a UsageError (usage) carrying the agent's error as cause", async () => {
    const model = coded(await rejection(setUpHost("run", parseArgs(["--model", "gpt-4o"], HOST_OPTIONS), config({}))), UsageError, "usage");
    assert.ok(model.cause instanceof ModelStringError && model.cause.code === "no-provider");
    const hooks = config({ hooks: { PreToolUse: [{ matcher: "(", command: "true" }] } });
    const hook = coded(await rejection(setUpHost("run", parseArgs(["--model", "ollama/m"], HOST_OPTIONS), hooks)), UsageError, "usage");
    assert.ok(hook.cause instanceof HookConfigError && hook.cause.code === "invalid-hook");
  });

  test("a --stdio command line with an open quote still exits 2 with a pointer to the verb's help", async () => {
    const { code, stdout, stderr } = await mcpwire(["inspect", "--stdio", `node "server.js`]);
    assert.equal(code, 2, stderr);
    assert.equal(stdout, "");
    assert.match(stderr, /^mcpwire: unterminated " quote in command line: node "server\.js\nrun "mcpwire help inspect" for usage\n$/);
  });
});
