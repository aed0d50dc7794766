// MCP Apps on the client — ext-apps specification/2026-01-26/apps.mdx: a tool's `_meta.ui`
// (resourceUri, visibility and its default, the deprecated flat key), the declaration the
// client makes, and reading a tool's ui:// resource against the fixture and the reference
// example server-basic-vanillajs; each bad resource is refused by name and the connection stays usable.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { APP_MIME_TYPE } from "../../src/client/apps/apps.ts";
import { mimeTypeProblem } from "../../src/client/apps/apps.ts";
import { AppResourceError, appsExtension, isAppCallable, isAppOnly, readToolUi, toolUi } from "../../src/client/extensions/mod.ts";
import { Client, EXTENSIONS, StdioTransport, type Tool } from "../../src/mod.ts";
import { fixturePath } from "../support/fixture-process.ts";
import { guardedRejection, hangGuard } from "../support/hang-guard.ts";

const CLIENT_INFO = { name: "mcpwire-apps-tests", version: "1.0.0" };
const tool = (meta?: Record<string, unknown>): Tool => ({ name: "t", inputSchema: { type: "object" }, ...(meta ? { _meta: meta } : {}) });

describe("a tool's UI metadata", () => {
  it("reads resourceUri and visibility from _meta.ui", () => {
    assert.deepEqual(toolUi(tool({ ui: { resourceUri: "ui://x/a.html", visibility: ["app"] } })), { resourceUri: "ui://x/a.html", visibility: ["app"] });
  });

  it("visibility defaults to model and app when omitted", () => {
    assert.deepEqual(toolUi(tool({ ui: { resourceUri: "ui://x/a.html" } }))?.visibility, ["model", "app"]);
    assert.equal(isAppOnly(tool({ ui: { resourceUri: "ui://x/a.html" } })), false);
  });

  it("reads the deprecated flat ui/resourceUri key; _meta.ui.resourceUri wins over it", () => {
    assert.equal(toolUi(tool({ "ui/resourceUri": "ui://x/old.html" }))?.resourceUri, "ui://x/old.html");
    assert.equal(toolUi(tool({ "ui/resourceUri": "ui://x/old.html", ui: { resourceUri: "ui://x/new.html" } }))?.resourceUri, "ui://x/new.html");
  });

  it("a tool without UI metadata is a plain tool, offered to the model", () => {
    assert.equal(toolUi(tool()), undefined);
    assert.equal(toolUi(tool({ other: 1 })), undefined);
    assert.equal(isAppOnly(tool()), false);
    assert.equal(isAppCallable(tool()), true);
  });

  it("app only: visibility without model", () => {
    assert.equal(isAppOnly(tool({ ui: { visibility: ["app"] } })), true);
    assert.equal(isAppCallable(tool({ ui: { visibility: ["app"] } })), true);
    assert.equal(isAppOnly(tool({ ui: { visibility: ["model"] } })), false);
    assert.equal(isAppCallable(tool({ ui: { visibility: ["model"] } })), false);
  });

  it("a malformed visibility fails closed: hidden from the model", () => {
    assert.equal(isAppOnly(tool({ ui: { visibility: "app" } })), true, "one string reads as a list of it");
    assert.equal(isAppOnly(tool({ ui: { visibility: "model" } })), false);
    assert.equal(isAppOnly(tool({ ui: { visibility: 3 } })), true);
    assert.equal(isAppOnly(tool({ ui: { visibility: [] } })), true);
    assert.equal(isAppOnly(tool({ ui: { visibility: ["admin"] } })), true, "unknown entries are ignored");
  });

  it("the MCP App MIME type, with case and spaces tolerated", () => {
    assert.equal(mimeTypeProblem(APP_MIME_TYPE), undefined);
    assert.equal(mimeTypeProblem('Text/HTML; profile="mcp-app"'), undefined);
    assert.match(mimeTypeProblem("text/html") ?? "", /without profile=mcp-app/);
    assert.match(mimeTypeProblem("application/json") ?? "", /not HTML/);
    assert.match(mimeTypeProblem(undefined) ?? "", /no mimeType/);
  });
});

describe("the client declares MCP Apps", () => {
  it("when given appsExtension, with the mimeTypes setting the spec requires; not without it", () => {
    assert.equal(new Client(CLIENT_INFO).capabilities.extensions?.[EXTENSIONS.apps], undefined);
    const client = new Client(CLIENT_INFO, { use: [appsExtension] });
    assert.deepEqual(client.capabilities.extensions?.[EXTENSIONS.apps], { mimeTypes: [APP_MIME_TYPE] });
  });

  it("not when turned off", () => {
    const client = new Client(CLIENT_INFO, { use: [appsExtension], extensions: { [EXTENSIONS.apps]: false } });
    assert.equal(client.capabilities.extensions?.[EXTENSIONS.apps], undefined);
  });
});

for (const era of ["legacy", "modern"] as const) {
  describe(`reading a tool's UI resource (fixture, ${era} era)`, () => {
    let client: Client;
    let tools: Map<string, Tool>;
    before(async () => {
      client = new Client(CLIENT_INFO, { name: "apps", requestTimeoutMs: 10_000, protocol: era, listen: false, use: [appsExtension] });
      await hangGuard(client.connect(new StdioTransport({ command: "node", args: [fixturePath("apps-server.mjs"), "--era", era] })), 15_000, "connect");
      tools = new Map((await client.listTools()).map((each) => [each.name, each]));
    });
    after(() => client.close());

    const refused = async (name: string, code: string, detail: RegExp) => {
      const error = await guardedRejection(readToolUi(client, tools.get(name)!, { server: "apps" }), `readToolUi(${name})`);
      assert.ok(error instanceof AppResourceError, `not an AppResourceError: ${error.message}`);
      assert.equal(error.code, code);
      assert.equal(error.server, "apps");
      assert.equal(error.tool, name);
      assert.match(error.message, new RegExp(`^server "apps": tool "${name}"`));
      assert.match(error.message, detail);
      // the connection stays usable
      const echoed = await hangGuard(client.callTool("plain_echo", { text: "still here" }), 10_000, "callTool after refusal");
      assert.deepEqual(echoed.content, [{ type: "text", text: "still here" }]);
    };

    it("the extension is in force: both sides declared it", () => {
      assert.deepEqual(client.extension(EXTENSIONS.apps), {});
    });

    it("reads the dashboard's HTML and its _meta.ui", async () => {
      const resource = await readToolUi(client, tools.get("show_dashboard")!);
      assert.equal(resource.uri, "ui://apps-fixture/dashboard.html");
      assert.equal(resource.mimeType, APP_MIME_TYPE);
      assert.match(resource.html, /^<!DOCTYPE html>/);
      assert.deepEqual(resource.meta, { csp: { connectDomains: ["https://api.apps-fixture.invalid"] }, prefersBorder: true });
    });

    it("an app-only tool's UI reads the same, and the tool calls like any other", async () => {
      assert.equal(isAppOnly(tools.get("refresh_dashboard")!), true);
      assert.equal((await readToolUi(client, tools.get("refresh_dashboard")!)).uri, "ui://apps-fixture/dashboard.html");
      assert.deepEqual((await client.callTool("refresh_dashboard")).content, [{ type: "text", text: "dashboard refreshed" }]);
    });

    it("the deprecated flat key, a base64 blob and a spaced MIME type read", async () => {
      const resource = await readToolUi(client, tools.get("legacy_widget")!);
      assert.equal(resource.html, "<html><body>legacy ✓</body></html>");
    });

    it("a ui:// resource that is not HTML is refused, naming server, tool and MIME type", async () => {
      await refused("broken_widget", "not-html", /"ui:\/\/apps-fixture\/data\.json" is not an MCP App: its mimeType is "application\/json", not HTML/);
    });

    it("a resourceUri that is not ui:// is refused without a read", async () => {
      await refused("wrong_scheme", "not-ui-uri", /does not use the ui:\/\/ scheme/);
    });

    it("a UI resource the server does not have is refused as not found", async () => {
      await refused("missing_widget", "not-found", /does not exist on the server/);
    });

    it("a tool with no UI resource is refused as such", async () => {
      await refused("plain_echo", "no-ui-resource", /names no UI resource/);
    });
  });
}

describe("reading a UI resource: content the server got wrong", () => {
  const fake = (content: Record<string, unknown> | undefined) => ({
    serverInfo: { name: "fake" },
    readResource: () => Promise.resolve({ contents: content === undefined ? [] : [content] } as never),
  });
  const widget = tool({ ui: { resourceUri: "ui://fake/w.html" } });
  const code = async (content: Record<string, unknown> | undefined) => {
    const error = await guardedRejection(readToolUi(fake(content), widget), "readToolUi");
    assert.ok(error instanceof AppResourceError);
    assert.match(error.message, /^server "fake": tool "t": UI resource "ui:\/\/fake\/w\.html"/);
    return error.code;
  };

  it("no contents", async () => assert.equal(await code(undefined), "no-content"));
  it("HTML without the mcp-app profile", async () => assert.equal(await code({ uri: "ui://fake/w.html", mimeType: "text/html", text: "<p>" }), "not-html"));
  it("no mimeType", async () => assert.equal(await code({ uri: "ui://fake/w.html", text: "<p>" }), "not-html"));
  it("neither text nor blob", async () => assert.equal(await code({ uri: "ui://fake/w.html", mimeType: APP_MIME_TYPE }), "no-content"));
  it("a blob that is not base64", async () => assert.equal(await code({ uri: "ui://fake/w.html", mimeType: APP_MIME_TYPE, blob: "%%%" }), "no-content"));
  it("labelled HTML but not markup", async () => assert.equal(await code({ uri: "ui://fake/w.html", mimeType: APP_MIME_TYPE, text: '{"a":1}' }), "not-html"));
  it("a read that fails otherwise", async () => {
    const failing = { serverInfo: { name: "fake" }, readResource: () => Promise.reject(new Error("boom")) };
    const error = await guardedRejection(readToolUi(failing, widget), "readToolUi");
    assert.ok(error instanceof AppResourceError);
    assert.equal(error.code, "read-failed");
    assert.match(error.message, /could not be read: boom/);
  });
});

describe("the reference example server-basic-vanillajs (ext-apps)", () => {
  it("its get-time tool is an app tool the model sees, and its UI reads as an MCP App", async () => {
    const server = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js", import.meta.url));
    const client = new Client(CLIENT_INFO, { name: "vanillajs", requestTimeoutMs: 20_000, use: [appsExtension] });
    try {
      await hangGuard(client.connect(new StdioTransport({ command: "node", args: [server, "--stdio"], onStderr: () => {} })), 30_000, "connect");
      const getTime = (await client.listTools()).find((each) => each.name === "get-time");
      assert.ok(getTime, "get-time is listed");
      assert.equal(isAppOnly(getTime), false);
      assert.equal(toolUi(getTime)?.resourceUri, "ui://get-time/mcp-app.html");
      const resource = await hangGuard(readToolUi(client, getTime), 20_000, "readToolUi");
      assert.equal(resource.mimeType, APP_MIME_TYPE);
      assert.match(resource.html, /<html/i);
    } finally {
      await client.close();
    }
  });
});
