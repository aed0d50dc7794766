// What `mcpwire inspect --stdio "<command>" --json` lists, through an official SDK instead:
// connect over stdio, list tools, resources, resource templates and prompts, print one JSON
// document, close. The start-up benchmark times this process against mcpwire's compiled CLI.
//   node bench/sdk-inspect.mjs v1|v2 <command> [args…]

const [version, command, ...args] = process.argv.slice(2);
const info = { name: "sdk-inspect", version: "1.0.0" };
let client;
let transport;
if (version === "v1") {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  client = new Client(info);
  transport = new StdioClientTransport({ command, args, stderr: "ignore" });
} else if (version === "v2") {
  const { Client } = await import("@modelcontextprotocol/client");
  const { StdioClientTransport } = await import("@modelcontextprotocol/client/stdio");
  client = new Client(info);
  transport = new StdioClientTransport({ command, args, stderr: "ignore" });
} else {
  console.error("usage: node bench/sdk-inspect.mjs v1|v2 <command> [args…]");
  process.exit(2);
}

await client.connect(transport);
const capabilities = client.getServerCapabilities() ?? {};
const report = { serverInfo: client.getServerVersion(), capabilities };
if (capabilities.tools) report.tools = (await client.listTools()).tools;
if (capabilities.resources) {
  report.resources = (await client.listResources()).resources;
  report.resourceTemplates = (await client.listResourceTemplates()).resourceTemplates;
}
if (capabilities.prompts) report.prompts = (await client.listPrompts()).prompts;
process.stdout.write(JSON.stringify(report, null, 2) + "\n");
await client.close();
