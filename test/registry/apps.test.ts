// MCP Apps in the tool registry — ext-apps specification/2026-01-26/apps.mdx ("Visibility"):
// an app-only tool is registered and callable by name but never reaches registry.list() (what
// a model sees), whether or not the Apps extension was negotiated; a model that names it anyway
// is refused by the Runner.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Runner } from "../../src/agent/runner.ts";
import { appsExtension } from "../../src/client/extensions/mod.ts";
import { Client, EXTENSIONS, StdioTransport } from "../../src/mod.ts";
import { isAppOnlyTool, registerMcpServer, ToolCallError, ToolRegistry } from "../../src/registry/mod.ts";
import { fixturePath } from "../support/fixture-process.ts";
import { hangGuard } from "../support/hang-guard.ts";
import { inProcessServer, requestsFor } from "../support/in-process-server.ts";
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
        use: [appsExtension],
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

    it("dispatch and call refuse it for a model (the default caller), naming the tool and why", async () => {
      const error = JSON.parse(await registry.dispatch("mcp_apps_refresh_dashboard", {})).error as string;
      assert.match(
        error,
        /^server "apps", tool "refresh_dashboard": the tool is for its server's app only \(MCP Apps visibility \["app"\]\), so it is not called for a model/,
      );
      await assert.rejects(
        registry.call("mcp_apps_refresh_dashboard", {}),
        (rejection: unknown) =>
          rejection instanceof ToolCallError && rejection.code === "not-visible" && rejection.tool === "mcp_apps_refresh_dashboard" &&
          /app only/.test(rejection.message),
      );
      await assert.rejects(registry.call("mcp_apps_refresh_dashboard", {}, { caller: "model" }), ToolCallError);
    });

    it('with caller "app" it runs (the host calls it for the server\'s app); a person naming it (caller "user") runs it too', async () => {
      assert.equal(await registry.dispatch("mcp_apps_refresh_dashboard", {}, { caller: "app" }), JSON.stringify({ result: "dashboard refreshed" }));
      assert.equal(
        await registry.dispatch("mcp_apps_refresh_dashboard", {}, { caller: "app", appServer: "apps" }),
        JSON.stringify({ result: "dashboard refreshed" }),
      );
      assert.match(textOf(await registry.call("mcp_apps_refresh_dashboard", {}, { caller: "app" })), /dashboard refreshed/);
      assert.match(textOf(await registry.call("mcp_apps_refresh_dashboard", {}, { caller: "user" })), /dashboard refreshed/);
    });

    it("the app of another server may not call it", async () => {
      const error = JSON.parse(await registry.dispatch("mcp_apps_refresh_dashboard", {}, { caller: "app", appServer: "other" })).error as string;
      assert.match(error, /the app of server "other" may call only its own server's tools/);
    });

    it('a tool for model and app (visibility ["model","app"]) runs for either; a tool without UI metadata too', async () => {
      for (const caller of [undefined, "model", "app"] as const) {
        const context = caller === undefined ? {} : { caller };
        assert.doesNotMatch(await registry.dispatch("mcp_apps_show_dashboard", {}, context), /"error"/, String(caller));
        assert.doesNotMatch(await registry.dispatch("mcp_apps_plain_echo", { text: "hi" }, context), /"error"/, String(caller));
      }
    });

    it("a copy from tools() cannot change the registry's entry", () => {
      registry.get("mcp_apps_refresh_dashboard")!.ui!.visibility.push("model");
      assert.ok(!registry.list().some((tool) => tool.name === "mcp_apps_refresh_dashboard"));
    });
  });
}

/** The text of a CallToolResult's content. */
function textOf(output: unknown): string {
  const content = (output as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.map((block) => block.text ?? "").join("");
}

describe("a tool for the model only, called for an app", () => {
  it('is refused (apps.mdx: a host MUST reject an app\'s tools/call of a tool whose visibility leaves out "app")', async () => {
    // An in-process server listing one tool with visibility ["model"] (the apps fixture has none).
    const server = inProcessServer({ tools: {} }, {
      "tools/list": () => ({ tools: [{ name: "report", inputSchema: { type: "object" }, _meta: { ui: { visibility: ["model"] } } }] }),
      "tools/call": () => ({ content: [{ type: "text", text: "report made" }] }),
    });
    const client = new Client(CLIENT_INFO, { name: "models", protocol: "legacy", requestTimeoutMs: 10_000, use: [appsExtension] });
    await hangGuard(client.connect(server.clientEnd), 15_000, "connect");
    try {
      const registry = new ToolRegistry();
      await registerMcpServer(registry, "models", client);
      assert.match(textOf(await registry.call("mcp_models_report", {})), /report made/);
      const error = JSON.parse(await registry.dispatch("mcp_models_report", {}, { caller: "app" })).error as string;
      assert.match(error, /^server "models", tool "report": the tool is not callable by an app \(MCP Apps visibility \["model"\] leaves out "app"\)/);
      await assert.rejects(
        registry.call("mcp_models_report", {}, { caller: "app" }),
        (rejection: unknown) => rejection instanceof ToolCallError && rejection.code === "not-visible",
      );
      assert.equal(requestsFor(server, "tools/call").length, 1);
    } finally {
      await client.close();
    }
  });
});

describe("a model that names an app-only tool anyway", () => {
  const registry = new ToolRegistry();
  let client: Client;
  before(async () => {
    client = new Client(CLIENT_INFO, { name: "apps", requestTimeoutMs: 10_000, use: [appsExtension] });
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
