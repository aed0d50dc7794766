// More of `mcpwire resources`, `read`, `prompts`, `prompt`, `complete` and `watch` (issue 27):
// `watch` against a 2026-07-28 server (the URI in the subscriptions/listen filter, updates
// correlated by subscriptionId, an acknowledgment that leaves the URI out, a server that goes
// away, Ctrl-C), and every verb with a server given on the command line (--stdio), alone and
// beside the config's servers. The server is test/fixtures/subscriptions-server.mjs (2026-07-28,
// or 2025-11-25 with --legacy), run as a child process.

import assert from "node:assert/strict";
import process from "node:process";
import { describe, test } from "node:test";
import { mcpwire as runMcpwire, type Outcome, scratchDir, startMcpwire, writeConfig } from "../support/cli-runner.ts";
import { fixturePath } from "../support/fixture-process.ts";
import { waitUntil } from "../support/polling.ts";

const SERVER = fixturePath("subscriptions-server.mjs");
const scratch = scratchDir("mcpwire-resources-prompts-more-");
const ERAS = { modern: "2026-07-28", legacy: "2025-11-25" } as const;

/**
 * `mcpwire <args>`; a server that cannot start (the config's "broken") is tried again after 20 ms,
 * not 1 s doubling, before it is parked.
 */
function mcpwire(args: string[]): Promise<Outcome> {
  return runMcpwire(args, { env: { ...process.env, MCPWIRE_RECONNECT_DELAY_MS: "20" } });
}

/** `--stdio "node subscriptions-server.mjs [flags]"`. */
function adHoc(...flags: string[]): string[] {
  return ["--stdio", ["node", JSON.stringify(SERVER), ...flags].join(" ")];
}

function ok(outcome: Outcome, what: string): void {
  assert.equal(outcome.code, 0, `${what}: ${outcome.stderr}`);
}

describe("mcpwire watch on the 2026-07-28 wire (subscriptions/listen)", () => {
  test("the URI joins the listen filter: each notifications/resources/updated of the listen is printed, --count ends it", async () => {
    const outcome = await mcpwire(["watch", "subs", "note://b", "--count", "2", ...adHoc(), "--name", "subs"]);
    ok(outcome, "watch");
    const lines = outcome.stdout.trimEnd().split("\n");
    assert.equal(lines.length, 2, outcome.stdout);
    for (const line of lines) assert.match(line, /^\d\d:\d\d:\d\d updated note:\/\/b$/);
    assert.match(outcome.stderr, /^mcpwire watch: watching note:\/\/b on server "subs" for 2 updates$/m);
  });

  test("--json prints one object a line", async () => {
    const outcome = await mcpwire(["watch", "subs", "note://a", "--count", "2", "--json", ...adHoc(), "--name", "subs"]);
    ok(outcome, "watch --json");
    const objects = outcome.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as { time: string; uri: string });
    assert.deepEqual(objects.map((object) => object.uri), ["note://a", "note://a"]);
    assert.ok(objects.every((object) => !Number.isNaN(Date.parse(object.time))));
  });

  test("an acknowledgment that leaves the URI out is said, and the watch ends with exit 3 instead of waiting for nothing", async () => {
    const outcome = await mcpwire(["watch", "subs", "note://a", "--count", "1", ...adHoc("--refuse-subscriptions"), "--name", "subs"]);
    assert.equal(outcome.code, 3, outcome.stderr);
    assert.equal(outcome.stdout, "");
    assert.match(outcome.stderr, /warning: server "subs": subscription \d+ was acknowledged without resourceSubscriptions note:\/\/a/);
    assert.match(outcome.stderr, /server "subs" does not watch note:\/\/a \(its subscriptions\/listen acknowledgment leaves it out\)/);
  });

  for (const [era, version] of Object.entries(ERAS)) {
    test(`a server that goes away ends the watch with exit 3, after the updates it sent (${version})`, async () => {
      const flags = era === "legacy" ? ["--legacy", "--exit-after-updates"] : ["--exit-after-updates"];
      const outcome = await mcpwire(["watch", "subs", "note://a", "--count", "5", ...adHoc(...flags), "--name", "subs"]);
      assert.equal(outcome.code, 3, outcome.stderr);
      assert.equal(outcome.stdout.trimEnd().split("\n").length, 2, outcome.stdout);
      assert.match(outcome.stderr, /mcpwire watch: server "subs" is (failed|closed)/);
    });
  }

  test("Ctrl-C ends a watch without --count: exit 130, without a word about the server closing", async () => {
    const running = startMcpwire(["watch", "subs", "note://a", ...adHoc(), "--name", "subs"]);
    const exited = new Promise<string>((resolve) => running.child.on("close", (code, signal) => resolve(String(code ?? signal))));
    try {
      await waitUntil(() => running.stdout().includes("updated note://a"), "the first update", 60_000);
      running.child.kill("SIGINT");
      // 130; Deno's node:child_process reports an exit of 128 + 2 as the signal itself.
      assert.match(await exited, /^(130|SIGINT)$/, running.stderr());
      assert.doesNotMatch(running.stderr(), /is (closed|failed)/);
    } finally {
      running.child.kill("SIGKILL");
    }
  });
});

for (const [era, version] of Object.entries(ERAS)) {
  const flags = era === "legacy" ? ["--legacy"] : [];
  describe(`every verb with a server on the command line only (${version})`, () => {
    test("resources, read (a URI and a template), prompts, prompt, complete and watch name it after its program", async () => {
      const server = "subscriptions-server"; // the program's name, as ad-hoc-servers.ts names it
      const [resources, read, template, prompts, prompt, complete, watch] = await Promise.all([
        mcpwire(["resources", ...adHoc(...flags)]),
        mcpwire(["read", server, "note://a", ...adHoc(...flags)]),
        mcpwire(["read", server, "note", "name=zz", ...adHoc(...flags)]),
        mcpwire(["prompts", "--json", ...adHoc(...flags)]),
        mcpwire(["prompt", server, "greet", "who=you", ...adHoc(...flags)]),
        mcpwire(["complete", server, "--prompt", "greet", "who=m", ...adHoc(...flags)]),
        mcpwire(["watch", server, "note://a", "--count", "1", ...adHoc(...flags)]),
      ]);
      ok(resources, "resources");
      assert.match(resources.stdout, new RegExp(`^${server}\\s+a\\s+note://a\\s+text/plain`, "m"));
      assert.match(resources.stdout, new RegExp(`^${server}\\s+note\\s+note://\\{name\\}`, "m"));
      ok(read, "read");
      assert.equal(read.stdout, "text of note://a\n");
      ok(template, "read TEMPLATE");
      assert.equal(template.stdout, "text of note://zz\n");
      ok(prompts, "prompts");
      const listed = JSON.parse(prompts.stdout) as { prompts: { server: string; name: string }[] };
      assert.deepEqual(listed.prompts.map((prompt) => [prompt.server, prompt.name]), [[server, "greet"]]);
      ok(prompt, "prompt");
      assert.equal(prompt.stdout, "[user]\nHello, you!\n");
      ok(complete, "complete");
      assert.equal(complete.stdout, "moon\n");
      ok(watch, "watch");
      assert.match(watch.stdout, /^\d\d:\d\d:\d\d updated note:\/\/a\n$/);
    });

    test("a missing template variable gets the server's completions; an unknown server lists the one given", async () => {
      const [missing, unknown] = await Promise.all([
        mcpwire(["read", "subscriptions-server", "note", ...adHoc(...flags)]),
        mcpwire(["read", "subscription-server", "note://a", ...adHoc(...flags)]),
      ]);
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /needs name=…/);
      assert.match(missing.stderr, /the server suggests a, b/);
      assert.equal(unknown.code, 2);
      assert.match(unknown.stderr, /no server "subscription-server" is configured; did you mean "subscriptions-server"\?/);
    });
  });
}

describe("a server on the command line beside the config's servers", () => {
  /** The config: a 2025-11-25 server and one that cannot start; the command line adds a 2026-07-28 one. */
  async function mixed(): Promise<string> {
    return await writeConfig(scratch.path, "mixed.yaml", [
      "mcp_servers:",
      "  cfg:",
      "    command: node",
      `    args: [${JSON.stringify(SERVER)}, "--legacy"]`,
      "  broken:",
      "    command: /nonexistent/mcpwire-test-server",
    ]);
  }

  test("resources and prompts list both servers (the broken one said on stderr, exit 3)", async () => {
    const config = await mixed();
    const [resources, prompts] = await Promise.all([
      mcpwire(["resources", "--json", "--config", config, ...adHoc(), "--name", "adhoc"]),
      mcpwire(["prompts", "--config", config, ...adHoc(), "--name", "adhoc"]),
    ]);
    assert.equal(resources.code, 3, resources.stderr);
    const listed = JSON.parse(resources.stdout) as { resources: { server: string; uri: string }[] };
    assert.deepEqual(listed.resources.map((resource) => `${resource.server} ${resource.uri}`), [
      "cfg note://a",
      "cfg note://b",
      "adhoc note://a",
      "adhoc note://b",
    ]);
    assert.match(resources.stderr, /server "broken" could not be reached/);
    assert.equal(prompts.code, 3, prompts.stderr);
    assert.match(prompts.stdout, /^cfg\s+greet\s/m);
    assert.match(prompts.stdout, /^adhoc\s+greet\s/m);
  });

  test("read, prompt, complete and watch start only the server they name, the config's or the command line's", async () => {
    const config = await mixed();
    const cases: [string[], RegExp][] = [
      [["read", "adhoc", "note://a"], /^text of note:\/\/a\n$/],
      [["read", "cfg", "note", "name=q"], /^text of note:\/\/q\n$/],
      [["prompt", "cfg", "greet", "who=cfg"], /^\[user\]\nHello, cfg!\n$/],
      [["complete", "adhoc", "--template", "note://{name}", "name=b"], /^b\n$/],
      [["watch", "adhoc", "note://b", "--count", "1"], /^\d\d:\d\d:\d\d updated note:\/\/b\n$/],
      [["watch", "cfg", "note://b", "--count", "1"], /^\d\d:\d\d:\d\d updated note:\/\/b\n$/],
    ];
    const outcomes = await Promise.all(cases.map(([args]) => mcpwire([...args, "--config", config, ...adHoc(), "--name", "adhoc"])));
    for (const [index, [args, expected]] of cases.entries()) {
      const outcome = outcomes[index]!;
      ok(outcome, args.join(" "));
      assert.match(outcome.stdout, expected, args.join(" "));
      // The broken server was not needed, so it was not started (and not mentioned).
      assert.doesNotMatch(outcome.stderr, /broken/, args.join(" "));
    }
  });

  test("a command-line server named like a config server is a usage error naming both", async () => {
    const config = await mixed();
    const outcome = await mcpwire(["read", "cfg", "note://a", "--config", config, ...adHoc(), "--name", "cfg"]);
    assert.equal(outcome.code, 2);
    assert.match(
      outcome.stderr,
      /server "cfg" of --stdio ".*" clashes with server "cfg" in .*mixed\.yaml; give the command line's one another name with --name/,
    );
  });
});
