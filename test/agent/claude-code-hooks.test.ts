// Hooks written in Claude Code's nested form (`{ matcher, hooks: [{ type: command, command,
// timeout }] }`, as mcphost writes them too) in a config file, loaded and run for real: the
// Runner over server-everything with a scripted model, the hook a real shell command.

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { Hooks } from "../../src/agent/hooks.ts";
import { Runner } from "../../src/agent/runner.ts";
import { parseConfig } from "../../src/host/config/parse.ts";
import { everythingRegistry } from "../support/everything.ts";
import { answer, callTools, ScriptedProvider, toolResults } from "../support/scripted-provider.ts";

const dir = mkdtempSync(join(tmpdir(), "mcpwire-cc-hooks-"));
after(() => rmSync(dir, { recursive: true, force: true }));

describe("Claude Code's hooks block in a config", () => {
  const { registry } = everythingRegistry();

  test("loads, and its PreToolUse command runs with the event on stdin and blocks the matching call; PostToolUse runs too", async () => {
    const pre = join(dir, "pre.json");
    const post = join(dir, "post.json");
    const text = JSON.stringify(
      {
        mcpServers: {},
        hooks: {
          PreToolUse: [{
            matcher: "get-sum$",
            hooks: [{ type: "command", command: `cat > '${pre}'; echo "no sums here" >&2; exit 2`, timeout: 30 }],
          }],
          PostToolUse: [{ matcher: "echo", hooks: [{ type: "command", command: `cat > '${post}'` }] }],
        },
      },
      null,
      2,
    );
    const config = parseConfig(text, { file: join(dir, ".mcp.json"), env: {} });
    assert.equal(config.hooks?.PreToolUse?.[0]?.timeoutMs, 30_000);
    const provider = new ScriptedProvider([
      callTools(
        { id: "s", name: "mcp_everything_get-sum", arguments: { a: 2, b: 40 } },
        { id: "e", name: "mcp_everything_echo", arguments: { message: "hi" } },
      ),
      answer("ok"),
    ]);
    await new Runner({ provider, registry, hooks: new Hooks(config.hooks!) }).run("x");
    const [sum, echo] = toolResults(provider.requests[1]!);
    assert.match(JSON.parse(sum!).error, /a PreToolUse hook blocked this call to "mcp_everything_get-sum": no sums here/);
    assert.match(echo!, /Echo: hi/);
    const input = JSON.parse(readFileSync(pre, "utf8")) as Record<string, unknown>;
    assert.equal(input.tool_name, "mcp_everything_get-sum");
    assert.deepEqual(input.tool_input, { a: 2, b: 40 });
    const after = JSON.parse(readFileSync(post, "utf8")) as Record<string, unknown>;
    assert.equal(after.hook_event_name, "PostToolUse");
    assert.match(String(after.tool_response), /Echo: hi/);
  });
});
