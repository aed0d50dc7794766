// MCP Apps in the CLI — ext-apps specification/2026-01-26/apps.mdx: `mcpwire tools` marks
// app-only tools (callable, never offered to a model); `mcpwire inspect` shows each tool's
// ui:// resource, refuses one that is not HTML by name, and carries on with the connection.

import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { mcpwire as runMcpwire, scratchDir, writeConfig } from "../support/cli-runner.ts";
import { fixturePath } from "../support/fixture-process.ts";

const mcpwire = (...args: string[]) => runMcpwire(args, { timeoutMs: 60_000 });
const FIXTURE = fixturePath("apps-server.mjs");

describe("mcpwire inspect: tools' UI resources", () => {
  for (const era of ["legacy", "modern"] as const) {
    test(`${era}: the app-only tool is marked, each UI resource shown or refused by name, the rest of the report follows`, async () => {
      const { code, stdout, stderr } = await mcpwire("inspect", "--stdio", `node ${FIXTURE} --era ${era}`);
      assert.equal(code, 0, stderr);
      assert.match(stdout, /^ {2}refresh_dashboard\(\) \[app only\] — Refreshes/m);
      assert.match(stdout, /^ {2}show_dashboard\(\) — Shows the dashboard$/m);
      assert.match(stdout, /^apps \(6 tools with a UI; io\.modelcontextprotocol\/ui negotiated\)$/m);
      assert.match(
        stdout,
        /^ {2}show_dashboard → ui:\/\/apps-fixture\/dashboard\.html: text\/html;profile=mcp-app, 96 characters of HTML, _meta\.ui \{"csp":/m,
      );
      assert.match(stdout, /^ {2}refresh_dashboard \[app only\] → ui:\/\/apps-fixture\/dashboard\.html: text\/html;profile=mcp-app/m);
      assert.match(stdout, /^ {2}legacy_widget → ui:\/\/apps-fixture\/legacy\.html: text\/html; profile=mcp-app, 34 characters of HTML$/m);
      // a ui:// resource that is not HTML: refused, naming server, tool and what was wrong
      assert.match(
        stdout,
        /^ {2}broken_widget → ui:\/\/apps-fixture\/data\.json: refused \(not-html\): server "apps-fixture": tool "broken_widget": UI resource "ui:\/\/apps-fixture\/data\.json" is not an MCP App: its mimeType is "application\/json", not HTML/m,
      );
      assert.match(stdout, /^ {2}wrong_scheme → https:\/\/apps-fixture\.invalid\/page\.html: refused \(not-ui-uri\)/m);
      assert.match(stdout, /^ {2}missing_widget → ui:\/\/apps-fixture\/missing\.html: refused \(not-found\)/m);
      // the connection stayed usable: the lists after the refusals were still read
      assert.match(stdout, /^resources \(3\)$/m);
      assert.match(stdout, /^resource templates \(0\)$/m);
    });
  }

  test("--json carries the apps findings", async () => {
    const { code, stdout, stderr } = await mcpwire("inspect", "--json", "--stdio", `node ${FIXTURE}`);
    assert.equal(code, 0, stderr);
    const report = JSON.parse(stdout) as { appsNegotiated: boolean; apps: Array<Record<string, unknown>> };
    assert.equal(report.appsNegotiated, true);
    const byTool = new Map(report.apps.map((app) => [app.tool, app]));
    assert.deepEqual(byTool.get("refresh_dashboard"), {
      tool: "refresh_dashboard",
      appOnly: true,
      uri: "ui://apps-fixture/dashboard.html",
      mimeType: "text/html;profile=mcp-app",
      chars: 96,
      meta: { csp: { connectDomains: ["https://api.apps-fixture.invalid"] }, prefersBorder: true },
    });
    assert.equal((byTool.get("broken_widget")?.error as { reason: string }).reason, "not-html");
    assert.equal(byTool.has("plain_echo"), false, "a tool without UI metadata is not an app");
  });

  test("--ui TOOL prints the HTML of the tool's UI resource", async () => {
    const { code, stdout, stderr } = await mcpwire("inspect", "--ui", "refresh_dashboard", "--stdio", `node ${FIXTURE}`);
    assert.equal(code, 0, stderr);
    assert.equal(stdout, "<!DOCTYPE html><html><head><title>Dashboard</title></head><body><h1>Dashboard</h1></body></html>\n");
    const asJson = await mcpwire("inspect", "--json", "--ui", "legacy_widget", "--stdio", `node ${FIXTURE}`);
    assert.equal(asJson.code, 0, asJson.stderr);
    assert.deepEqual(JSON.parse(asJson.stdout), {
      tool: "legacy_widget",
      uri: "ui://apps-fixture/legacy.html",
      mimeType: "text/html; profile=mcp-app",
      meta: null,
      html: "<html><body>legacy ✓</body></html>",
    });
  });

  test("--ui of a resource that is not HTML, or of an unknown tool, exits 1 saying why", async () => {
    const refused = await mcpwire("inspect", "--ui", "broken_widget", "--stdio", `node ${FIXTURE}`);
    assert.equal(refused.code, 1);
    assert.equal(refused.stdout, "");
    assert.match(
      refused.stderr,
      /^mcpwire inspect: server "apps-fixture": tool "broken_widget": UI resource "ui:\/\/apps-fixture\/data\.json" is not an MCP App: its mimeType is "application\/json", not HTML/m,
    );
    const unknown = await mcpwire("inspect", "--ui", "nope", "--stdio", `node ${FIXTURE}`);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /the server lists no tool "nope"; tools with a UI: show_dashboard, refresh_dashboard, legacy_widget/);
  });

  test("a server without Apps tools prints no apps section", async () => {
    const { code, stdout, stderr } = await mcpwire("inspect", "--stdio", `node ${fixturePath("echo-server.mjs")}`);
    assert.equal(code, 0, stderr);
    assert.doesNotMatch(stdout, /^apps /m);
  });
});

describe("mcpwire tools: the app-only marker", () => {
  const scratch = scratchDir("mcpwire-apps-cli-");
  let config = "";
  before(async () => {
    // apps turned off for this server: its tools are plain tools, the app-only one still never offered to a model
    config = await writeConfig(scratch.path, "mcpwire.yaml", [
      "mcp_servers:",
      "  apps:",
      "    command: node",
      `    args: [${JSON.stringify(FIXTURE)}]`,
      "  appsoff:",
      "    command: node",
      `    args: [${JSON.stringify(FIXTURE)}]`,
      "    extensions: { apps: false }",
    ]);
  });

  test("the table marks the app-only tool, and only it", async () => {
    const { code, stdout, stderr } = await mcpwire("tools", "--config", config);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^mcp_apps_refresh_dashboard \[app only\] +mcp-apps /m);
    assert.match(stdout, /^mcp_appsoff_refresh_dashboard \[app only\] +mcp-appsoff /m);
    assert.match(stdout, /^mcp_apps_show_dashboard +mcp-apps /m);
    assert.equal(stdout.match(/\[app only\]/g)?.length, 2);
  });

  test("--json says appOnly per tool", async () => {
    const { code, stdout, stderr } = await mcpwire("tools", "--json", "--config", config);
    assert.equal(code, 0, stderr);
    const { tools } = JSON.parse(stdout) as { tools: Array<{ name: string; appOnly: boolean }> };
    assert.equal(tools.find((tool) => tool.name === "mcp_apps_refresh_dashboard")?.appOnly, true);
    assert.equal(tools.find((tool) => tool.name === "mcp_apps_show_dashboard")?.appOnly, false);
  });

  test("an app-only tool is callable by name with mcpwire call", async () => {
    const { code, stdout, stderr } = await mcpwire("call", "mcp_apps_refresh_dashboard", "{}", "--config", config);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /dashboard refreshed/);
  });
});
