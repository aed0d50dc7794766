// A server's `sandbox:` key as the config parser reads it (issue 29): the named profiles, the
// mapping with paths resolved like the config's other paths, what is refused or warned about.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseConfig } from "../../src/host/config/parse.ts";
import type { McpwireConfig, ServerConfig } from "../../src/host/config/types.ts";

function yaml(lines: string[], env: Record<string, string> = {}): McpwireConfig {
  return parseConfig(lines.join("\n") + "\n", { file: "/srv/project/mcpwire.yaml", displayName: "mcpwire.yaml", env });
}

function only(config: McpwireConfig): ServerConfig {
  const [server] = config.servers;
  assert.ok(server);
  return server;
}

const probe = ["mcp_servers:", "  probe:", "    command: node", "    args: [server.mjs]"];

describe("the sandbox: key", () => {
  test("default, true and prefer name the default profile; prefer runs unsandboxed where none can be had; false and absent: none", () => {
    for (const [value, profile, prefer] of [["default", "default", false], ["true", "default", false], ["prefer", "prefer", true]] as const) {
      const server = only(yaml([...probe, `    sandbox: ${value}`]));
      assert.deepEqual(server.sandbox, { profile, write: [], network: false, env: [], prefer }, value);
      assert.equal(server.error, undefined);
    }
    assert.equal(only(yaml([...probe, "    sandbox: false"])).sandbox, undefined);
    assert.equal(only(yaml(probe)).sandbox, undefined);
  });

  test("a mapping: paths relative to the config file's directory, ~ and ${VAR} expanded; network and env as written", () => {
    const server = only(yaml(
      [
        ...probe,
        "    sandbox:",
        '      read: [data, "~/notes", "${SHARED}/docs"]',
        "      write: [out]",
        "      network: true",
        "      env: [GITHUB_TOKEN]",
        "      prefer: true",
      ],
      { HOME: "/home/u", SHARED: "/opt/shared" },
    ));
    assert.deepEqual(server.sandbox, {
      profile: "custom",
      read: ["/srv/project/data", "/home/u/notes", "/opt/shared/docs"],
      write: ["/srv/project/out"],
      network: true,
      env: ["GITHUB_TOKEN"],
      prefer: true,
    });
  });

  test("a mapping without read keeps the default's reads (read absent), writes nothing, no network", () => {
    assert.deepEqual(only(yaml([...probe, "    sandbox: { write: [/tmp/x] }"])).sandbox, {
      profile: "custom",
      write: ["/tmp/x"],
      network: false,
      env: [],
      prefer: false,
    });
  });

  test("an unknown profile disables the server, saying what the key takes", () => {
    const server = only(yaml([...probe, "    sandbox: strict"]));
    assert.match(server.error?.message ?? "", /"sandbox" must be "default", "prefer", false, or a mapping with read, write, network, env and\/or prefer/);
    assert.equal(server.enabled, false);
  });

  test("network: a list of hosts disables the server: bubblewrap cannot enforce it", () => {
    const server = only(yaml([...probe, "    sandbox:", "      network: [api.example.com]"]));
    assert.match(server.error?.message ?? "", /"sandbox.network" lists hosts, which the sandbox cannot enforce/);
    assert.equal(server.error?.key, "sandbox.network");
  });

  test("on an http server the key does not apply: a warning, and no sandbox", () => {
    const config = yaml(["mcp_servers:", "  remote:", "    url: https://example.com/mcp", "    sandbox: default"]);
    assert.equal(only(config).sandbox, undefined);
    assert.ok(config.warnings.some((warning) => /"sandbox" does not apply to a http\/sse server/.test(warning.message)), String(config.warnings));
  });
});
