// MCP Apps in the tool registry — ext-apps specification/2026-01-26/apps.mdx ("Visibility"):
// an app-only tool is registered and callable by name but never reaches registry.list() (what
// a model sees), whether or not the Apps extension was negotiated; a model that names it anyway
// is refused by the Runner.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Client, EXTENSIONS, StdioTransport } from "../../src/mod.ts";
import { Runner } from "../../src/agent/runner.ts";
import { isAppOnlyTool, registerMcpServer, ToolRegistry } from "../../src/registry/mod.ts";
import { fixturePath } from "../support/fixture-process.ts";
import { hangGuard } from "../support/hang-guard.ts";
import { answer, callTools, ScriptedProvider, toolResults } from "../support/scripted-provider.ts";

const CLIENT_INFO = { name: "mcpwire-apps-registry-tests", version: "1.0.0" };

for (const setting of ["on", "off"] as const) {
  describe(`app-only tools in the registry (Apps extension ${setting})`, () => {
    const registry = new ToolRegistry();
    let client: Client;
    before(async () => {
      client = new Client(CLIENT_INFO, {
        name: "apps",
        requestTimeoutMs: 10_000,
        ...(setting === "off" ? { extensions: { [EXTENSIONS.apps]: false } } : {}),
      });
      await hangGuard(client.connect(new StdioTransport({ command: "node", args: [fixturePath("apps-server.mjs")] })), 15_000, "connect");
      await registerMcpServer(registry, "apps", client);
    });
    after(() => client.close());

    it(setting === "on" ? "the extension is negotiated" : "the extension is not in force", () => {
      assert.equal(client.extension(EXTENSIONS.apps) !== undefined, setting === "on");
    });

    it("the app-only tool never reaches list(); the model-visible app tool does", () => {
      const offered = registry.list().map((tool) => tool.name);
      assert.ok(!offered.includes("mcp_apps_refresh_dashboard"), `offered: ${offered.join(", ")}`);
      assert.ok(offered.includes("mcp_apps_show_dashboard"));
      assert.ok(offered.includes("mcp_apps_plain_echo"));
    });

    it("tools() lists it, marked app-only with its UI resource", () => {
      const refresh = registry.tools().find((tool) => tool.name === "mcp_apps_refresh_dashboard");
      assert.ok(refresh);
      assert.equal(isAppOnlyTool(refresh), true);
      assert.deepEqual(refresh.ui, { resourceUri: "ui://apps-fixture/dashboard.html", visibility: ["app"] });
      const show = registry.get("mcp_apps_show_dashboard")!;
      assert.equal(isAppOnlyTool(show), false);
      assert.equal(show.ui?.resourceUri, "ui://apps-fixture/dashboard.html");
      assert.equal(registry.get("mcp_apps_plain_echo")?.ui, undefined);
      assert.equal(registry.get("mcp_apps_legacy_widget")?.ui?.resourceUri, "ui://apps-fixture/legacy.html");
    });

    it("it dispatches by name (the host calls it for the app)", async () => {
      assert.equal(await registry.dispatch("mcp_apps_refresh_dashboard", {}), JSON.stringify({ result: "dashboard refreshed" }));
    });

    it("a copy from tools() cannot change the registry's entry", () => {
      registry.get("mcp_apps_refresh_dashboard")!.ui!.visibility.push("model");
      assert.ok(!registry.list().some((tool) => tool.name === "mcp_apps_refresh_dashboard"));
    });
  });
}

describe("a model that names an app-only tool anyway", () => {
  const registry = new ToolRegistry();
  let client: Client;
  before(async () => {
    client = new Client(CLIENT_INFO, { name: "apps", requestTimeoutMs: 10_000 });
    await hangGuard(client.connect(new StdioTransport({ command: "node", args: [fixturePath("apps-server.mjs")] })), 15_000, "connect");
    await registerMcpServer(registry, "apps", client);
  });
  after(() => client.close());

  it("is never offered it and is refused when it calls it", async () => {
    const provider = new ScriptedProvider([
      callTools({ name: "mcp_apps_refresh_dashboard", arguments: {} }),
      answer((request) => toolResults(request).at(-1)!),
    ]);
    const text = await hangGuard(new Runner({ provider, registry }).run("refresh the dashboard"), 20_000, "run");
    assert.ok(!provider.requests[0]!.tools.some((tool) => tool.name === "mcp_apps_refresh_dashboard"));
    assert.match(text, /unknown tool \\?"mcp_apps_refresh_dashboard\\?": no tool of that name is offered/);
  });
});
