// The list verbs (servers, tools, resources, prompts, skills) and a server they cannot reach
// (issue 37, item 3): with none reached they list nothing and exit 3 saying why; with some
// reached they list what those have, name the others on stderr and in --json's `unreached`,
// and exit 3 (docs/cli.md "Exit codes"). A listing tries each server once: no back-off.
// The unreachable server is a loopback port nothing listens on; the reachable one is
// server-everything over stdio.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import process from "node:process";
import { before, describe, test } from "node:test";
import { everythingYaml, mcpwire as runMcpwire, type Outcome, scratchDir, writeConfig } from "../support/cli-runner.ts";

const scratch = scratchDir("mcpwire-unreached-");
const LIST_VERBS = ["tools", "resources", "prompts", "skills"] as const;
/** How Node (ECONNREFUSED) and Deno (Connection refused) word a refused connection. */
const REFUSED = "(?:ECONNREFUSED|Connection refused)";

/** A loopback URL that refuses connections: a port that was free a moment ago. */
function refusedUrl(): Promise<string> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(`http://127.0.0.1:${port}/mcp`));
    });
  });
}

/** `mcpwire <args>` with the given extra environment; MCPWIRE_CONNECT_RETRIES unset unless given. */
function mcpwire(args: string[], env: Record<string, string> = {}): Promise<Outcome> {
  const base = { ...process.env };
  delete base.MCPWIRE_CONNECT_RETRIES;
  return runMcpwire(args, { env: { ...base, ...env }, cwd: scratch.path });
}

let goneOnly = "";
let both = "";

before(async () => {
  const url = await refusedUrl();
  goneOnly = await writeConfig(scratch.path, "gone.yaml", ["mcp_servers:", "  gone:", `    url: ${url}`]);
  both = await writeConfig(scratch.path, "both.yaml", ["mcp_servers:", ...everythingYaml(), "  gone:", `    url: ${url}`]);
});

describe("a list verb none of whose servers could be reached", () => {
  for (const verb of LIST_VERBS) {
    test(`${verb}: no listing, exit 3, and why on stderr`, async () => {
      const { code, stdout, stderr } = await mcpwire([verb, "--config", goneOnly]);
      assert.equal(code, 3, stderr);
      assert.equal(stdout, "", "no empty listing");
      assert.match(stderr, new RegExp(`^mcpwire ${verb}: server "gone" could not be reached \\(parked\\): .*${REFUSED}`, "m"));
      assert.match(stderr, new RegExp(`^mcpwire ${verb}: nothing is listed: its server could not be reached`, "m"));
    });
  }

  test("--json prints no document either, and exits 3", async () => {
    for (const verb of LIST_VERBS) {
      const { code, stdout, stderr } = await mcpwire([verb, "--json", "--config", goneOnly]);
      assert.equal(code, 3, `${verb}: ${stderr}`);
      assert.equal(stdout, "", verb);
    }
  });

  test("the server named (resources gone, prompts gone, tools gone, skills gone): exit 3, nothing listed", async () => {
    for (const verb of LIST_VERBS) {
      const { code, stdout, stderr } = await mcpwire([verb, "gone", "--config", goneOnly]);
      assert.equal(code, 3, `${verb}: ${stderr}`);
      assert.equal(stdout, "", verb);
      assert.match(stderr, /server "gone" could not be reached/, verb);
    }
  });

  test("a server given with --http alone, as the README's example when it is not running", async () => {
    const url = await refusedUrl();
    const { code, stdout, stderr } = await mcpwire(["resources", "--http", url]);
    assert.equal(code, 3, stderr);
    assert.equal(stdout, "");
    assert.match(stderr, new RegExp(`could not be reached \\(parked\\): .*${REFUSED}`));
  });

  test("servers: the table says why in each row; exit 3 and the unreached named on stderr", async () => {
    const { code, stdout, stderr } = await mcpwire(["servers", "--config", goneOnly]);
    assert.equal(code, 3, stderr);
    assert.match(stdout, /^gone\s+parked\s+\w+\s.*http "http:\/\/127\.0\.0\.1:\d+\/mcp": POST /m);
    assert.match(stderr, /^mcpwire servers: not reached: server "gone" \(parked\)$/m);
  });
});

describe("a list verb some of whose servers could be reached", () => {
  test("tools lists the reached server's tools, names the other, exits 3", async () => {
    const { code, stdout, stderr } = await mcpwire(["tools", "--config", both]);
    assert.equal(code, 3, stderr);
    assert.match(stdout, /^mcp_everything_echo\s/m);
    assert.match(stderr, /^mcpwire tools: server "gone" could not be reached \(parked\): /m);
    assert.doesNotMatch(stderr, /nothing is listed/);
  });

  test("resources and prompts list what everything has, and name gone", async () => {
    const resources = await mcpwire(["resources", "--config", both]);
    assert.equal(resources.code, 3, resources.stderr);
    assert.match(resources.stdout, /^everything\s/m);
    assert.match(resources.stderr, /server "gone" could not be reached/);
    const prompts = await mcpwire(["prompts", "--config", both]);
    assert.equal(prompts.code, 3, prompts.stderr);
    assert.match(prompts.stdout, /^everything\s+simple-prompt\b/m);
    assert.match(prompts.stderr, /server "gone" could not be reached/);
    // Named alone, the reached server is all there is: exit 0, the other not started.
    const named = await mcpwire(["prompts", "everything", "--config", both]);
    assert.equal(named.code, 0, named.stderr);
    assert.match(named.stdout, /^everything\s+simple-prompt\b/m);
    assert.doesNotMatch(named.stderr, /gone/);
  });

  test("--json carries the unreached servers as a field beside the listing", async () => {
    const expectUnreached = (stdout: string, verb: string, key: string) => {
      const document = JSON.parse(stdout) as Record<string, unknown> & { unreached: { server: string; state: string; error: string }[] };
      assert.ok(Array.isArray(document[key]), `${verb}: ${key}`);
      assert.deepEqual(document.unreached.map((each) => [each.server, each.state]), [["gone", "parked"]], verb);
      assert.match(document.unreached[0]!.error, new RegExp(REFUSED), verb);
      return document;
    };
    const tools = await mcpwire(["tools", "--json", "--config", both]);
    assert.equal(tools.code, 3, tools.stderr);
    const listed = expectUnreached(tools.stdout, "tools", "tools").tools as { name: string }[];
    assert.ok(listed.some((tool) => tool.name === "mcp_everything_echo"));
    for (const [verb, key] of [["resources", "resources"], ["prompts", "prompts"], ["skills", "skills"]] as const) {
      const outcome = await mcpwire([verb, "--json", "--config", both]);
      assert.equal(outcome.code, 3, `${verb}: ${outcome.stderr}`);
      expectUnreached(outcome.stdout, verb, key);
    }
  });

  test("servers --json: each status's state says which were not reached; exit 3", async () => {
    const { code, stdout, stderr } = await mcpwire(["servers", "--json", "--config", both]);
    assert.equal(code, 3, stderr);
    const states = (JSON.parse(stdout) as { name: string; state: string }[]).map((status) => [status.name, status.state]);
    assert.deepEqual(states.sort(), [["everything", "ready"], ["gone", "parked"]]);
  });
});

describe("a listing tries a server that fails to start once", () => {
  /**
   * A config whose one stdio server adds a line to `starts` each time it is started, then exits 3
   * with a stderr line of its own at each start (a start failing the same way twice is not retried:
   * host/servers/start-failure.ts; letters, since that comparison ignores numbers).
   */
  async function dying(name: string): Promise<{ config: string; starts: () => number }> {
    const starts = join(scratch.path, `${name}.starts`);
    const script = "const fs = require('fs'); fs.appendFileSync(process.argv[1], 'start\\n'); " +
      "console.error('attempt ' + 'abcdefghij'[fs.readFileSync(process.argv[1], 'utf8').length % 10]); process.exit(3)";
    const config = await writeConfig(scratch.path, `${name}.yaml`, [
      "mcp_servers:",
      "  dying:",
      "    command: node",
      `    args: ["-e", ${JSON.stringify(script)}, ${JSON.stringify(starts)}]`,
    ]);
    return { config, starts: () => readFileSync(starts, "utf8").split("\n").filter(Boolean).length };
  }

  test("no back-off by default; MCPWIRE_CONNECT_RETRIES=2 tries it three times", async () => {
    const once = await dying("once");
    const first = await mcpwire(["tools", "--config", once.config], { MCPWIRE_RECONNECT_DELAY_MS: "0" });
    assert.equal(first.code, 3, first.stderr);
    assert.match(first.stderr, /server "dying" could not be reached/);
    const thrice = await dying("thrice");
    const retried = await mcpwire(["tools", "--config", thrice.config], { MCPWIRE_RECONNECT_DELAY_MS: "0", MCPWIRE_CONNECT_RETRIES: "2" });
    assert.equal(retried.code, 3, retried.stderr);
    assert.equal(thrice.starts(), 3 * once.starts(), "each connect attempt starts it the same number of times");
  });

  test("MCPWIRE_CONNECT_RETRIES that is not a whole number is a usage error naming it", async () => {
    const { config } = await dying("bad");
    const { code, stdout, stderr } = await mcpwire(["servers", "--config", config], { MCPWIRE_CONNECT_RETRIES: "lots" });
    assert.equal(code, 2, stderr);
    assert.equal(stdout, "");
    assert.match(stderr, /^mcpwire: MCPWIRE_CONNECT_RETRIES must be a whole number of retries/);
  });
});
