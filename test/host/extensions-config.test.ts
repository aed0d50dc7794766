// The config's `extensions` key — spec 2026-07-28 basic/versioning ("Extension Negotiation"):
// extensions are on by default, turned off per server or for every server (a server's entry
// wins), by short name or full identifier; each bad value is a positioned ConfigError; and
// a server whose extension is off sees no declaration of it, in initialize (2025-11-25) and
// in a 2026-07-28 request's _meta.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { EXTENSIONS } from "../../src/client/extension-negotiation.ts";
import { clientExtensions } from "../../src/host/config/extensions-key.ts";
import { parseConfig } from "../../src/host/config/parse.ts";
import { ConfigError, type McpwireConfig, type ServerConfig } from "../../src/host/config/types.ts";
import { McpManager } from "../../src/host/servers/manager.ts";
import { fixturePath } from "../support/fixture-process.ts";
import { hangGuard } from "../support/hang-guard.ts";

const UI = EXTENSIONS.apps;

function yaml(text: string): McpwireConfig {
  return parseConfig(text, { file: "/etc/mcpwire/mcpwire.yaml", displayName: "mcpwire.yaml", env: {} });
}

function json(text: string): McpwireConfig {
  return parseConfig(text, { file: "/etc/mcpwire/.mcp.json", displayName: ".mcp.json", env: {} });
}

function server(config: McpwireConfig, name: string): ServerConfig {
  const found = config.servers.find((candidate) => candidate.name === name);
  assert.ok(found, `no server "${name}"`);
  return found;
}

function fatal(parse: () => unknown): ConfigError {
  try {
    parse();
  } catch (error) {
    assert.ok(error instanceof ConfigError, `not a ConfigError: ${String(error)}`);
    return error;
  }
  assert.fail("parsed without an error");
}

describe("config: extensions", () => {
  it("on by default: no setting, nothing turned off", () => {
    const config = yaml("mcp_servers:\n  s:\n    command: node\n");
    assert.equal(server(config, "s").extensions, undefined);
    assert.equal(clientExtensions(server(config, "s")), undefined);
  });

  it("a server turns one off by short name or by identifier", () => {
    const config = yaml(
      `mcp_servers:\n  a:\n    command: node\n    extensions: { apps: false }\n  b:\n    command: node\n    extensions:\n      "${UI}": false\n`,
    );
    assert.deepEqual(server(config, "a").extensions, { [UI]: false });
    assert.deepEqual(server(config, "b").extensions, { [UI]: false });
    assert.deepEqual(clientExtensions(server(config, "a")), { [UI]: false });
    assert.deepEqual(config.errors, []);
  });

  it("the top level turns one off for every server; a server's entry wins", () => {
    const config = yaml("extensions:\n  apps: false\nmcp_servers:\n  off:\n    command: node\n  on:\n    command: node\n    extensions: { apps: true }\n");
    assert.deepEqual(config.extensions, { [UI]: false });
    assert.deepEqual(clientExtensions(server(config, "off")), { [UI]: false });
    assert.deepEqual(server(config, "on").extensions, { [UI]: true });
    assert.equal(clientExtensions(server(config, "on")), undefined, "on needs no option: it is the default");
  });

  it("JSON (.mcp.json) takes the same key", () => {
    const config = json(`{ "extensions": { "tasks": false }, "mcpServers": { "s": { "command": "node", "extensions": { "apps": false } } } }`);
    assert.deepEqual(server(config, "s").extensions, { [EXTENSIONS.tasks]: false, [UI]: false });
  });

  it("a server value that is not true or false disables the server, positioned", () => {
    const config = yaml("mcp_servers:\n  s:\n    command: node\n    extensions:\n      apps: no thanks\n");
    const s = server(config, "s");
    assert.equal(s.enabled, false);
    assert.match(
      s.error?.message ?? "",
      /^mcpwire\.yaml:5:13: server "s": "extensions" must be a mapping of extensions \(tasks, skills, apps, or an identifier such as "io\.modelcontextprotocol\/ui"\) to true or false; "extensions\.apps" is the string "no thanks"$/,
    );
  });

  it("a server's extensions that is not a mapping disables the server, positioned", () => {
    const config = yaml("mcp_servers:\n  s:\n    command: node\n    extensions: false\n");
    assert.match(server(config, "s").error?.message ?? "", /^mcpwire\.yaml:4:17: server "s": "extensions" must be a mapping of extensions .* it is false$/);
  });

  it("a name that is neither a short name nor an identifier disables the server, positioned at the name", () => {
    const config = yaml("mcp_servers:\n  s:\n    command: node\n    extensions:\n      ui: false\n");
    const s = server(config, "s");
    assert.equal(s.enabled, false);
    assert.equal(
      s.error?.message,
      'mcpwire.yaml:5:7: server "s": "extensions.ui" is not an extension; use tasks, skills, apps or a full identifier such as "io.modelcontextprotocol/ui"',
    );
    assert.equal(s.error?.key, "extensions.ui");
  });

  it("an identifier mcpwire does not implement is a warning, and ignored", () => {
    const config = yaml('mcp_servers:\n  s:\n    command: node\n    extensions:\n      "com.example/thing": false\n');
    assert.equal(server(config, "s").enabled, true);
    assert.deepEqual(server(config, "s").extensions, {});
    assert.match(
      config.warnings.map((warning) => warning.message).join("\n"),
      /mcpwire\.yaml:5:7: server "s": "extensions\.com\.example\/thing": "com\.example\/thing" is not an extension mcpwire implements/,
    );
  });

  it("a top-level value that is not true or false is an error for the file, positioned", () => {
    const error = fatal(() => yaml("extensions:\n  apps: 0\nmcp_servers:\n  s:\n    command: node\n"));
    assert.equal(error.message, 'mcpwire.yaml:2:9: "extensions.apps" must be true or false; it is the number 0');
    assert.deepEqual([error.line, error.column], [2, 9]);
  });

  it("a top-level extensions that is not a mapping is an error for the file, positioned", () => {
    const error = fatal(() => json('{ "extensions": ["apps"], "mcpServers": { "s": { "command": "node" } } }'));
    assert.match(error.message, /^\.mcp\.json:1:17: "extensions" must be a mapping of extensions .* it is an array$/);
  });

  it("a top-level unknown name is an error for the file, positioned", () => {
    const error = fatal(() => yaml("extensions:\n  aps: false\nmcp_servers:\n  s:\n    command: node\n"));
    assert.match(error.message, /^mcpwire\.yaml:2:\d+: "extensions\.aps" is not an extension/);
  });
});

/** What the fixture saw the client declare for the Apps extension, through the registry. */
async function seenUi(manager: McpManager, name: string): Promise<{ initialize: unknown; request: unknown }> {
  const text = await manager.registry.dispatch(`mcp_${name}_seen_capabilities`, {});
  const { result } = JSON.parse(text) as { result?: string };
  assert.ok(result !== undefined, text);
  const seen = JSON.parse(result) as { initialize: { extensions?: Record<string, unknown> } | null; request: { extensions?: Record<string, unknown> } | null };
  return {
    initialize: seen.initialize === null ? null : seen.initialize.extensions?.[UI],
    request: seen.request === null ? null : seen.request.extensions?.[UI],
  };
}

describe("the config switch reaches the server", () => {
  it("a server with apps off sees no declaration (initialize and a 2026-07-28 request's _meta); the others see it", async () => {
    const fixture = JSON.stringify(fixturePath("apps-server.mjs"));
    const config = yaml(
      "extensions:\n  apps: false\n" +
        "mcp_servers:\n" +
        `  legacyoff:\n    command: node\n    args: [${fixture}]\n    protocol: legacy\n` +
        `  modernoff:\n    command: node\n    args: [${fixture}, --era, modern]\n    protocol: modern\n` +
        `  legacyon:\n    command: node\n    args: [${fixture}]\n    protocol: legacy\n    extensions: { apps: true }\n` +
        `  modernon:\n    command: node\n    args: [${fixture}, --era, modern]\n    protocol: modern\n    extensions: { apps: true }\n`,
    );
    assert.deepEqual(config.errors, []);
    const manager = new McpManager(config, { connectRetries: 0, probeIntervalMs: 600_000 });
    try {
      await hangGuard(manager.start(), 30_000, "start()");
      const declared = { mimeTypes: ["text/html;profile=mcp-app"] };
      assert.deepEqual(await seenUi(manager, "legacyoff"), { initialize: undefined, request: null });
      assert.deepEqual(await seenUi(manager, "modernoff"), { initialize: null, request: undefined });
      assert.deepEqual(await seenUi(manager, "legacyon"), { initialize: declared, request: null });
      assert.deepEqual(await seenUi(manager, "modernon"), { initialize: null, request: declared });
      // with apps off, its app-only tool is still kept from the model
      assert.ok(manager.registry.has("mcp_legacyoff_refresh_dashboard"));
      assert.ok(!manager.registry.list().some((tool) => tool.name.endsWith("_refresh_dashboard")));
    } finally {
      await hangGuard(manager.close(), 15_000, "close()");
    }
  });
});
