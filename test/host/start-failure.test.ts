// A server's start that cannot succeed is not retried (host/servers/start-failure.ts, issue 37): a
// command not found or not executable, the shell's "not found" (exit 127, as from npx), npm's
// 404, the same exit twice before the server said a word — each parks the server at once and
// says why; a failure that may pass (a different exit each time, a timeout) keeps its retries.

import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after } from "node:test";
import type { ServerConfig } from "../../src/host/config/types.ts";
import { type ManagerEvents, McpManager, type McpManagerOptions } from "../../src/host/servers/manager.ts";
import { behaviour } from "../support/behaviour.ts";
import { fixturePath as fixture } from "../support/fixture-process.ts";
import { hangGuard } from "../support/hang-guard.ts";
import { configOf, stdioServerConfig } from "../support/server-config.ts";

const dir = mkdtempSync(join(tmpdir(), "mcpwire-start-failure-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Three retries 20 ms apart: a failure that is retried shows four attempts. */
const RETRIES: McpManagerOptions = {
  reconnectDelay: { initialMs: 20, maxMs: 20, jitter: 0 },
  connectRetries: 3,
  probeIntervalMs: 600_000,
};

/** A server running `node -e script`. */
function scripted(name: string, script: string, overrides: Partial<ServerConfig> = {}): ServerConfig {
  return stdioServerConfig(name, ["-e", script], overrides);
}

/** Starts the servers; what their failed connects reported, and their status after. */
async function started(...servers: ServerConfig[]): Promise<{ failed: ManagerEvents["connectfailed"][]; manager: McpManager }> {
  const manager = new McpManager(configOf(...servers), RETRIES);
  const failed: ManagerEvents["connectfailed"][] = [];
  manager.on("connectfailed", (event) => failed.push(event));
  await hangGuard(manager.start(), 30_000, "start()");
  return { failed, manager };
}

function statusOf(manager: McpManager, name: string) {
  const status = manager.status().find((each) => each.name === name);
  assert.ok(status, `no server ${name}`);
  return status;
}

/** The one failed attempt of `server`: final, no retry, the server parked saying why. */
function assertNotRetried(manager: McpManager, failed: ManagerEvents["connectfailed"][], server: string, why: RegExp): void {
  const mine = failed.filter((event) => event.server === server);
  assert.equal(mine.length, 1, `attempts of ${server}: ${JSON.stringify(mine)}`);
  assert.equal(mine[0]?.attempt, 1);
  assert.equal(mine[0]?.retryInMs, undefined);
  assert.match(mine[0]?.final ?? "", why);
  const status = statusOf(manager, server);
  assert.equal(status.state, "parked");
  assert.match(status.reason ?? "", new RegExp(`^could not start: ${why.source}.*, which no retry can change; probing every`));
}

behaviour("a command that is not found, or not executable, is tried once; the server beside it starts", async () => {
  const notExecutable = join(dir, "not-executable-server");
  writeFileSync(notExecutable, "#!/bin/sh\nexit 0\n");
  chmodSync(notExecutable, 0o644);
  const { failed, manager } = await started(
    stdioServerConfig("good", [fixture("manager-server.mjs")], { env: { MANAGER_SERVER_NAME: "good" } }),
    stdioServerConfig("missing", [], { command: "mcpwire-test-no-such-command" }),
    stdioServerConfig("locked", [], { command: notExecutable }),
  );
  try {
    assertNotRetried(manager, failed, "missing", /its command was not found/);
    assert.match(statusOf(manager, "missing").lastError ?? "", /command "mcpwire-test-no-such-command" not found \(ENOENT/);
    assertNotRetried(manager, failed, "locked", /its command is not executable/);
    assert.equal(statusOf(manager, "good").state, "ready");
  } finally {
    await manager.close();
  }
});

behaviour("the shell's command not found (exit 127) and npm's 404 on stderr are not retried", async () => {
  const { failed, manager } = await started(
    stdioServerConfig("shell", ["-c", "mcpwire-test-no-such-command --stdio"], { command: "sh" }),
    scripted(
      "npm404",
      "process.stderr.write('npm error code E404\\nnpm error 404 Not Found - GET https://registry.npmjs.org/@scope%2fserver-everythin - Not found\\n'," +
        " () => process.exit(1))",
    ),
  );
  try {
    assertNotRetried(manager, failed, "shell", /a command it runs was not found/);
    assertNotRetried(manager, failed, "npm404", /npm has no such package \(404\)/);
  } finally {
    await manager.close();
  }
});

behaviour("a server that exits the same way twice before it answers is parked after its second attempt", async () => {
  const { failed, manager } = await started(stdioServerConfig("fatal", [fixture("exit-at-start-server.mjs")]));
  try {
    const mine = failed.filter((event) => event.server === "fatal");
    assert.deepEqual(mine.map((event) => [event.attempt, event.retryInMs !== undefined]), [[1, true], [2, false]]);
    assert.equal(mine[1]?.final, "it exited the same way twice before it answered");
    assert.match(statusOf(manager, "fatal").lastError ?? "", /fatal: no API key set/);
  } finally {
    await manager.close();
  }
});

behaviour("a failure that may pass keeps its retries: a different exit each time, a connect that times out", async () => {
  // Its stderr names its process in letters (numbers are not compared): no two starts alike.
  const varying = "process.stderr.write('busy: ' + String(process.pid).replace(/\\d/g, (d) => 'abcdefghij'[d]) + '\\n', () => process.exit(2))";
  const { failed, manager } = await started(
    scripted("flaky", varying),
    stdioServerConfig("mute", [fixture("manager-mute-server.mjs")], { connectTimeoutMs: 300 }),
  );
  try {
    for (const server of ["flaky", "mute"]) {
      const mine = failed.filter((event) => event.server === server);
      assert.deepEqual(mine.map((event) => event.attempt), [1, 2, 3, 4], server);
      assert.deepEqual(mine.map((event) => event.retryInMs !== undefined), [true, true, true, false], server);
      assert.ok(mine.every((event) => event.final === undefined), server);
      assert.match(statusOf(manager, server).reason ?? "", /^could not start: 4 connect attempts failed; probing every/);
    }
  } finally {
    await manager.close();
  }
});
