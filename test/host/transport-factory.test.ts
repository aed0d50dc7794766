// The transport factory (src/host/servers/transport-factory.ts) the manager and `inspect` share: each
// kind of server description reaches a real server, the child-environment policy applies to a
// stdio server, and an `auto` url reports what it found the server to speak.

import assert from "node:assert/strict";
import process from "node:process";
import { after, test } from "node:test";
import { Client } from "../../src/client/client.ts";
import { createTransport, detectedTransport } from "../../src/host/servers/transport-factory.ts";
import { startEverything } from "../fixtures/sse-servers.ts";
import { EVERYTHING } from "../support/everything-path.ts";

const CLIENT = { name: "transport-factory-test", version: "0.0.0" };

/** The environment server-everything's get-env tool reports for a stdio server built with `options`. */
async function childEnv(
  env: Record<string, string>,
  options: Parameters<typeof createTransport>[1] = {},
): Promise<Record<string, string>> {
  const client = new Client(CLIENT);
  try {
    await client.connect(createTransport({ transport: "stdio", command: "node", args: [EVERYTHING, "stdio"], env }, options));
    const result = await client.callTool("get-env", {});
    const text = result.content.find((part) => part.type === "text");
    assert.ok(text !== undefined && text.type === "text", "get-env answers with text");
    return JSON.parse(text.text) as Record<string, string>;
  } finally {
    await client.close();
  }
}

process.env.MCPWIRE_FACTORY_TEST_SECRET = "not-for-children";
after(() => {
  delete process.env.MCPWIRE_FACTORY_TEST_SECRET;
});

test("a stdio server gets the configured env on the baseline, and none of our other variables", async () => {
  const env = await childEnv({ FACTORY_CONFIGURED: "yes" });
  assert.equal(env.FACTORY_CONFIGURED, "yes");
  assert.equal(env.MCPWIRE_FACTORY_TEST_SECRET, undefined);
  assert.ok(env.PATH !== undefined || env.Path !== undefined, "PATH is in the baseline");
});

test("a childEnvironment option decides a stdio server's whole environment", async () => {
  const env = await childEnv({ FACTORY_CONFIGURED: "yes" }, {
    childEnvironment: (configured) => ({ ...configured, PATH: process.env.PATH ?? "", FACTORY_EXTRA: "added" }),
  });
  assert.equal(env.FACTORY_CONFIGURED, "yes");
  assert.equal(env.FACTORY_EXTRA, "added");
  assert.equal(env.HOME, undefined);
});

test("an auto url falls back to the legacy SSE transport and says so once connected", async () => {
  const server = await startEverything("sse");
  const transport = createTransport({ transport: "auto", url: `${server.origin}/sse`, headers: {} });
  const client = new Client(CLIENT);
  try {
    assert.equal(detectedTransport(transport), undefined, "nothing is detected before connecting");
    await client.connect(transport);
    assert.equal(detectedTransport(transport), "sse");
    assert.ok((await client.listTools()).some((tool) => tool.name === "echo"));
  } finally {
    await client.close();
    await server.stop();
  }
});

test("a description without its command or url is refused before anything starts", () => {
  assert.throws(() => createTransport({ transport: "stdio" }), /a stdio server needs a command/);
  assert.throws(() => createTransport({ transport: "http" }), /an http server needs a url/);
  // A transport names its kind (no instanceof outside src/transport/): a configured one its own.
  assert.equal(detectedTransport(createTransport({ transport: "http", url: "http://127.0.0.1:9/mcp" })), "http");
});
