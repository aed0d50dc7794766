// The host layer's errors are McpwireErrors with a named code (issue 25 "One error model"):
// reached through real paths (a config file, an unset variable), ServerUnavailableError as the
// manager builds it (test/host/manager.test.ts reaches it through a real reconnect).

import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { interpolate, InterpolationError } from "../../src/host/config/interpolate.ts";
import { ConfigError, loadConfig, ServerUnavailableError } from "../../src/host/mod.ts";
import { ClientStateError } from "../../src/mod.ts";
import { coded } from "../support/coded-error.ts";

const dir = mkdtempSync(join(tmpdir(), "mcpwire-host-error-codes-"));
after(() => rmSync(dir, { recursive: true, force: true }));
/** An environment that keeps the user's config and trust files out of it. */
const env = { HOME: dir, XDG_CONFIG_HOME: join(dir, "config"), XDG_CACHE_HOME: join(dir, "cache") };

async function loadError(options: Parameters<typeof loadConfig>[0]): Promise<unknown> {
  try {
    await loadConfig({ env, ...options });
  } catch (error) {
    return error;
  }
  assert.fail("loadConfig resolved");
}

describe("host errors: McpwireError with a named code", () => {
  test("ConfigError: config-not-found for a --config file that does not exist", async () => {
    const error = coded(await loadError({ path: join(dir, "absent.yaml"), cwd: dir }), ConfigError, "config-not-found");
    assert.equal(error.file, join(dir, "absent.yaml"));
    assert.ok(error.cause instanceof Error);
  });

  test("ConfigError: invalid-config for a file that is not YAML, and for a server of the wrong shape", async () => {
    const file = join(dir, "bad.yaml");
    writeFileSync(file, "mcp_servers: [\n");
    const error = coded(await loadError({ path: file, cwd: dir }), ConfigError, "invalid-config");
    assert.equal(error.file, file);
    const shape = join(dir, "shape.yaml");
    writeFileSync(shape, "mcp_servers:\n  one:\n    command: 42\n");
    const config = await loadConfig({ path: shape, cwd: dir, env });
    const disabled = coded(config.servers[0]?.error, ConfigError, "invalid-config");
    assert.equal(disabled.server, "one");
    assert.equal(disabled.line, 3);
  });

  test("ConfigError: an unset variable disables the server with invalid-config naming the variable", async () => {
    const file = join(dir, "unset.yaml");
    writeFileSync(file, "mcp_servers:\n  one:\n    command: node\n    env:\n      KEY: ${MCPWIRE_ERROR_CODES_UNSET}\n");
    const config = await loadConfig({ path: file, cwd: dir, env });
    const error = coded(config.servers[0]?.error, ConfigError, "invalid-config");
    assert.equal(error.variable, "MCPWIRE_ERROR_CODES_UNSET");
  });

  test("ConfigError: untrusted-project for a project's config not approved", async () => {
    const project = mkdtempSync(join(dir, "project-"));
    writeFileSync(join(project, "mcpwire.yaml"), "mcp_servers:\n  one:\n    command: node\n");
    const error = coded(await loadError({ cwd: project }), ConfigError, "untrusted-project");
    assert.equal(error.project?.file, join(project, "mcpwire.yaml"));
  });

  test("InterpolationError: unset-variable (every one named) and bad-interpolation", () => {
    const unset = (() => {
      try {
        return interpolate("${A}-${B}", {});
      } catch (error) {
        return error;
      }
    })();
    const error = coded(unset, InterpolationError, "unset-variable");
    assert.deepEqual(error.variables, ["A", "B"]);
    assert.equal(error.variable, "A");
    assert.throws(() => interpolate("${A", {}), (thrown: unknown) => coded(thrown, InterpolationError, "bad-interpolation") !== undefined);
  });

  test("ServerUnavailableError: a ClientStateError with a host code, the server and both states", () => {
    const cause = new Error("underneath");
    const error = coded(
      new ServerUnavailableError('server "s": parked', "server-parked", { server: "s", serverState: "parked", state: "failed", cause }),
      ServerUnavailableError,
      "server-parked",
    );
    assert.ok(error instanceof ClientStateError);
    assert.deepEqual([error.server, error.serverState, error.state, error.cause], ["s", "parked", "failed", cause]);
  });
});
