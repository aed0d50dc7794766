// The server-to-client half through `mcpwire call`, as child processes of the runtime under
// test: log lines with the server's name, --log-level, sampling declined with -1 (no model),
// elicitation declined without a terminal, --elicit accept-defaults and --elicit prompt.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import process from "node:process";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { everythingConfig, mcpwire as runMcpwire, root, runtimeArgs } from "../support/cli-runner.ts";
import { EVERYTHING } from "../support/everything-path.ts";
import { hasScript, shellQuote as quote } from "../support/terminal.ts";

const featuresServer = fileURLToPath(new URL("../fixtures/cli-features-server.mjs", import.meta.url));

/** Runs mcpwire with `input` on its stdin (a pipe, never a terminal), closed after it. */
const mcpwire = (args: string[], input = "") => runMcpwire(args, { input });

const { config } = everythingConfig("mcpwire-cli-features-", ["trigger-sampling-request", "trigger-elicitation-request", "trigger-url-elicitation"], () => [
  "  features:",
  "    command: node",
  `    args: [${JSON.stringify(featuresServer)}]`,
  "    log_level: warning",
  // server-everything again, with a sampling.model that only run and chat use.
  "  modelled:",
  "    command: node",
  `    args: [${JSON.stringify(EVERYTHING)}, "stdio"]`,
  "    tools:",
  '      include: ["trigger-sampling-request"]',
  "    sampling:",
  "      model: ollama/qwen3",
]);

describe("logging", () => {
  test("log messages go to stderr as [server] level: …, from the config's log_level up", async () => {
    const { code, stdout, stderr } = await mcpwire(["call", "mcp_features_log", "--config", config]);
    assert.equal(code, 0, stderr);
    assert.equal(stdout, "level is warning\n", "log_level: warning was sent as logging/setLevel");
    assert.match(stderr, /^\[features\] warning: fixture: a warning message$/m);
    assert.match(stderr, /^\[features\] emergency: fixture: a emergency message$/m);
    assert.doesNotMatch(stderr, /\] info:/);
  });

  test("--log-level overrides the config's log_level for every server", async () => {
    const { code, stdout, stderr } = await mcpwire(["call", "mcp_features_log", "--log-level", "critical", "--config", config]);
    assert.equal(code, 0, stderr);
    assert.equal(stdout, "level is critical\n");
    assert.doesNotMatch(stderr, /\] (warning|error):/);
    assert.match(stderr, /^\[features\] critical: fixture: a critical message$/m);
  });

  test("an unknown --log-level is a usage error listing the levels", async () => {
    const { code, stderr } = await mcpwire(["call", "mcp_features_log", "--log-level", "loud", "--config", config]);
    assert.equal(code, 2);
    assert.match(stderr, /--log-level must be one of debug, info, notice, warning, error, critical, alert, emergency \(got "loud"\)/);
  });
});

describe("sampling", () => {
  test("a sampling request is declined with -1 and a reason naming the config the server lacks: its sampling.model", async () => {
    const { code, stdout, stderr } = await mcpwire(["call", "mcp_everything_trigger-sampling-request", '{"prompt":"hi"}', "--config", config]);
    assert.equal(code, 1, "server-everything reports the refusal as a tool error");
    const reason = 'mcpwire call has no model to sample with, and server "everything" has no sampling.model configured: ' +
      `add sampling: { model: provider/model } (e.g. ollama/qwen3) to server "everything" in ${config}, ` +
      "then mcpwire run or mcpwire chat answer its sampling with that model";
    assert.ok(stdout.includes(`-1: ${reason}`), `the server was not told what is missing:\n${stdout}`);
    assert.ok(stderr.includes(`server "everything" asked to sample a model (sampling/createMessage); declined: ${reason}`), stderr);
  });

  test("a server with a sampling.model is told that only run and chat use it, naming the model", async () => {
    const { code, stdout, stderr } = await mcpwire(["call", "mcp_modelled_trigger-sampling-request", '{"prompt":"hi"}', "--config", config]);
    assert.equal(code, 1, stderr);
    const reason =
      'mcpwire call has no model to sample with; mcpwire run and mcpwire chat answer server "modelled"\'s sampling with its sampling.model (ollama/qwen3)';
    assert.ok(stdout.includes(`-1: ${reason}`), stdout);
    assert.ok(stderr.includes(`declined: ${reason}`), stderr);
  });
});

describe("elicitation", () => {
  test("without a terminal a request for input is declined, and stderr says why and what to pass", async () => {
    const { code, stdout, stderr } = await mcpwire(["call", "mcp_everything_trigger-elicitation-request", "--config", config]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /User declined to provide the requested information/);
    assert.match(
      stderr,
      /server "everything" asked for input \("Please provide inputs for the following fields:"\); declined: stdin is not a terminal .*--elicit accept-defaults/,
    );
  });

  test("--elicit accept-defaults sends the schema's defaults to the server", async () => {
    const { code, stdout, stderr } = await mcpwire(["call", "mcp_features_ask", "--elicit", "accept-defaults", "--config", config]);
    assert.equal(code, 0, stderr);
    assert.equal(stdout, 'answer: {"action":"accept","content":{"color":"blue","count":3,"subscribe":true}}\n');
    assert.match(stderr, /server "features" asked for input \("Pick your settings"\); accepted with the schema's defaults/);
  });

  test("--elicit accept-defaults declines when a required field has no default, naming it", async () => {
    const { code, stdout, stderr } = await mcpwire(["call", "mcp_everything_trigger-elicitation-request", "--elicit", "accept-defaults", "--config", config]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /User declined/);
    assert.match(stderr, /cannot answer the required field\(s\) "name", which have no default/);
  });

  test("--elicit prompt asks field by field, naming the server; the server receives the answers with defaults filled in", async () => {
    const answers = ["Grace Hopper", "y", "", "not-an-email", "grace@example.com", "", "", "150", "7", "", "3", "2,4", "2", "", "5", "y"];
    const { code, stdout, stderr } = await mcpwire(
      ["call", "mcp_everything_trigger-elicitation-request", "--elicit", "prompt", "--config", config],
      answers.join("\n") + "\n",
    );
    assert.equal(code, 0, stderr);
    assert.match(stderr, /server "everything" asks: Please provide inputs for the following fields:/);
    assert.match(stderr, /firstLine \[It was a dark and stormy night\.\]: /, "defaults are shown");
    assert.match(stderr, /^ {2}3\) Joey$/m, "enum choices are listed");
    assert.match(stderr, /"email" must match format "email"/, "a bad value is re-asked");
    assert.match(stderr, /"integer" must be <= 100/);
    assert.match(stdout, /- Name: Grace Hopper/);
    assert.match(stdout, /- Email: grace@example.com/);
    assert.match(stdout, /- Favorite Integer: 7/);
    assert.match(stdout, /- Favorite Number: 3\.14/, "an empty answer keeps the default");
    assert.match(stdout, /"untitledSingleSelectEnum": "Joey"/);
    assert.match(stdout, /"titledSingleSelectEnum": "hero-2"/);
    assert.match(stdout, /"legacyTitledEnum": "pet-5"/);
  });

  test("--elicit prompt: :decline at any field declines; end of input cancels", async () => {
    const declined = await mcpwire(["call", "mcp_features_ask", "--elicit", "prompt", "--config", config], ":decline\n");
    assert.equal(declined.code, 0, declined.stderr);
    assert.equal(declined.stdout, 'answer: {"action":"decline"}\n');
    const cancelled = await mcpwire(["call", "mcp_features_ask", "--elicit", "prompt", "--config", config], "green\n");
    assert.equal(cancelled.stdout, 'answer: {"action":"cancel"}\n');
  });
});

describe("URL-mode elicitation", () => {
  const args = ["call", "mcp_everything_trigger-url-elicitation", '{"url":"https://example.com/authorize?state=1"}', "--config", config];

  test("without a terminal a link is declined, and stderr shows the full URL", async () => {
    const { code, stdout, stderr } = await mcpwire([...args.slice(0, 3), "--config", config]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /User declined to open the URL/);
    assert.match(stderr, /server "everything" asks you to open https:\/\/example\.com\/authorize\?state=1 .*declined: stdin is not a terminal/);
  });

  test("--elicit prompt shows the URL and its origin and asks for consent; yes accepts", async () => {
    const { code, stdout, stderr } = await mcpwire([...args.slice(0, 3), "--elicit", "prompt", "--config", config], "maybe\ny\n");
    assert.equal(code, 0, stderr);
    assert.match(stderr, /^ {2}https:\/\/example\.com\/authorize\?state=1$/m);
    assert.match(stderr, /origin https:\/\/example\.com; mcpwire does not open or fetch it/);
    assert.match(stdout, /User completed the URL elicitation flow/);
  });
});

describe("elicitation on a terminal", () => {
  test(
    "mcpwire call asks on the terminal without any flag, and the server receives the answer",
    { skip: hasScript() ? false : "no util-linux script(1) here" },
    async () => {
      const command = [process.execPath, ...runtimeArgs, "call", "mcp_features_ask", "--config", config].map(quote).join(" ");
      const child = spawn("script", ["-qec", command, "/dev/null"], { cwd: root, stdio: ["pipe", "pipe", "pipe"] });
      // Each answer is typed once its prompt is on the screen, as a user would.
      const script: [RegExp, string][] = [[/color number \[blue\]: $/, "2"], [/count \[3\]: $/, "7"], [/subscribe y\/n \[true\]: $/, "n"], [
        /\[c\]ancel: $/,
        "",
      ]];
      let screen = "";
      const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
      child.stdout!.on("data", (chunk: Uint8Array) => {
        screen += new TextDecoder().decode(chunk);
        const next = script[0];
        if (next !== undefined && next[0].test(screen.replaceAll("\r", ""))) {
          script.shift();
          child.stdin!.write(next[1] + "\r");
        }
      });
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      clearTimeout(timer);
      child.stdin!.destroy();
      const text = screen.replaceAll("\r", "");
      assert.equal(code, 0, text);
      assert.match(text, /server "features" asks: Pick your settings/);
      assert.match(text, /^ {2}2\) green$/m);
      assert.match(text, /answer: \{"action":"accept","content":\{"color":"green","count":7,"subscribe":false\}\}/);
    },
  );
});
