// The HTTP front's check of a 2026-07-28 tools/call's Mcp-Param-* headers against the called
// tool's x-mcp-header parameters (ServerHandlers.toolInputSchema), with raw fetch for each
// failure condition and our own Client for the real path — spec 2026-07-28
// basic/transports/streamable-http ("Server Behavior for Custom Headers", "Value Encoding",
// "Server Validation"): 400 with -32020 HeaderMismatch, the request id kept.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Client } from "../../src/client/client.ts";
import type { JsonObject } from "../../src/client/types.ts";
import type { Params } from "../../src/jsonrpc/peer.ts";
import { runtime } from "../../src/runtime/mod.ts";
import { httpFront } from "../../src/server/http-front.ts";
import { Server } from "../../src/server/server.ts";
import type { ServerHandlers } from "../../src/server/server-handlers.ts";
import { StreamableHttpTransport } from "../../src/transport/streamable-http/streamable-http.ts";
import { demoHandlers, emptyLog, modernMeta } from "./demo-server.ts";

const ACCEPT = "application/json, text/event-stream";

/** A tool whose region (string), shard (integer, nested) and dry (boolean) are mirrored into headers. */
const REGION_SCHEMA: JsonObject = {
  type: "object",
  properties: {
    region: { type: "string", "x-mcp-header": "Region" },
    placement: { type: "object", properties: { shard: { type: "integer", "x-mcp-header": "Shard" } } },
    dry: { type: "boolean", "x-mcp-header": "Dry-Run" },
    query: { type: "string" },
  },
};

/** The demo server with one more tool, `region_echo`, and its schema given to the front. */
function handlers(lookup: boolean): ServerHandlers {
  const base = demoHandlers(emptyLog());
  const tool = { name: "region_echo", inputSchema: REGION_SCHEMA };
  return {
    ...base,
    request: async (method, params, context) => {
      if (method === "tools/list") return { tools: [tool] };
      if (method === "tools/call" && params?.name === "region_echo") {
        return { content: [{ type: "text", text: JSON.stringify(params.arguments ?? {}) }] };
      }
      return await base.request(method, params, context);
    },
    ...(lookup ? { toolInputSchema: (name: string) => name === "region_echo" ? REGION_SCHEMA : undefined } : {}),
  };
}

async function front(lookup = true) {
  const server = new Server(handlers(lookup));
  const handler = httpFront(server);
  const listener = await runtime.listenHttp({ port: 0 }, handler);
  const url = `http://127.0.0.1:${listener.port}/mcp`;
  let id = 100;
  /** A 2026-07-28 tools/call of region_echo with `args`, its standard headers right, and `headers` besides. */
  const call = async (args: Params, headers: Record<string, string> = {}, tool = "region_echo") => {
    const requestId = id++;
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: ACCEPT,
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": tool,
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: requestId, method: "tools/call", params: { name: tool, arguments: args, _meta: modernMeta() } }),
    });
    const body = await response.json() as { id: unknown; result?: Params; error?: { code: number; message: string } };
    assert.equal(body.id, requestId, "the request id is kept");
    return { status: response.status, body };
  };
  const close = async () => {
    await handler.close();
    await server.close();
    await listener.close();
  };
  return { url, call, close };
}

async function rejected(
  pending: Promise<{ status: number; body: { error?: { code: number; message: string } } }>,
  why: RegExp,
): Promise<void> {
  const { status, body } = await pending;
  assert.equal(status, 400, JSON.stringify(body));
  assert.equal(body.error?.code, -32020);
  assert.match(body.error!.message, why);
}

async function accepted(pending: Promise<{ status: number; body: { result?: Params; error?: unknown } }>): Promise<void> {
  const { status, body } = await pending;
  assert.equal(status, 200, JSON.stringify(body));
  assert.equal(body.error, undefined, JSON.stringify(body.error));
  assert.ok(body.result);
}

describe("httpFront: Mcp-Param-* headers against the tool's x-mcp-header parameters", () => {
  let target: Awaited<ReturnType<typeof front>>;
  before(async () => (target = await front()));
  after(() => target.close());

  test("a matching header passes, plain or Base64 (non-ASCII too); header names without case", async () => {
    await accepted(target.call({ region: "us-west1", query: "q" }, { "Mcp-Param-Region": "us-west1" }));
    await accepted(target.call({ region: "us-west1" }, { "mcp-param-region": "us-west1" }));
    await accepted(target.call({ region: "Hello" }, { "Mcp-Param-Region": "=?base64?SGVsbG8=?=" }));
    await accepted(target.call({ region: "Hello, 世界" }, { "Mcp-Param-Region": "=?base64?SGVsbG8sIOS4lueVjA==?=" }));
  });

  test("a value that only starts or only ends like the sentinel is plain", async () => {
    await accepted(target.call({ region: "SGVsbG8=" }, { "Mcp-Param-Region": "SGVsbG8=" }));
    await accepted(target.call({ region: "=?base64?SGVsbG8=" }, { "Mcp-Param-Region": "=?base64?SGVsbG8=" }));
  });

  test("a header missing while the body carries the value is 400 -32020; a null or absent value needs none", async () => {
    await rejected(target.call({ region: "us-west1" }), /Mcp-Param-Region header is missing/);
    await rejected(target.call({ region: "eu", placement: { shard: 3 } }, { "Mcp-Param-Region": "eu" }), /Mcp-Param-Shard header is missing/);
    await accepted(target.call({ region: null, query: "q" }));
    await accepted(target.call({ query: "q" }));
  });

  test("a header that differs from the body is 400 -32020, after Base64 decoding too", async () => {
    await rejected(target.call({ region: "us-west1" }, { "Mcp-Param-Region": "eu-west1" }), /does not match body value region/);
    await rejected(target.call({ region: "Hello" }, { "Mcp-Param-Region": "=?base64?SGVsbG9v?=" }), /does not match/);
    await rejected(target.call({ region: "eu", dry: true }, { "Mcp-Param-Region": "eu", "Mcp-Param-Dry-Run": "false" }), /Dry-Run/);
    await rejected(target.call({ query: "q" }, { "Mcp-Param-Region": "eu" }), /body carries no region value/);
  });

  test("an integer is compared as a number: 3 and 3.0 match, 4 does not", async () => {
    await accepted(target.call({ placement: { shard: 3 } }, { "Mcp-Param-Shard": "3.0" }));
    await accepted(target.call({ placement: { shard: -7 } }, { "Mcp-Param-Shard": "-7" }));
    await rejected(target.call({ placement: { shard: 3 } }, { "Mcp-Param-Shard": "4" }), /Shard/);
  });

  test("invalid characters or a Base64 sentinel that is not canonical Base64 of UTF-8 are 400 -32020", async () => {
    const invalid = /invalid characters or a Base64 value/;
    await rejected(target.call({ region: "Hello" }, { "Mcp-Param-Region": "=?base64?SGVsbG8?=" }), invalid); // padding missing
    await rejected(target.call({ region: "Hello" }, { "Mcp-Param-Region": "=?base64?SGVs!!!bG8=?=" }), invalid);
    await rejected(target.call({ region: "\u00ff" }, { "Mcp-Param-Region": "=?base64?/w==?=" }), invalid); // byte 0xFF is not UTF-8
    await rejected(target.call({ region: "caf\u00e9" }, { "Mcp-Param-Region": "caf\u00e9" }), invalid); // obs-text, not visible ASCII
  });

  test("our own Client over HTTP sends the headers the front checks, and its call passes", async () => {
    const client = new Client({ name: "params-host", version: "1.0.0" }, { listen: false });
    try {
      await client.connect(new StreamableHttpTransport({ url: target.url }), { protocol: "modern" });
      await client.listTools();
      const result = await client.callTool("region_echo", { region: "Hello, 世界", placement: { shard: 9 }, dry: false });
      assert.deepEqual(JSON.parse((result.content[0] as { text: string }).text), { region: "Hello, 世界", placement: { shard: 9 }, dry: false });
    } finally {
      await client.close();
    }
  });
});

describe("httpFront: Mcp-Param-* without ServerHandlers.toolInputSchema", () => {
  test("a server that gives no schema has its calls taken as they come (nothing to check against)", async () => {
    const target = await front(false);
    try {
      await accepted(target.call({ region: "us-west1" }, { "Mcp-Param-Region": "eu-west1" }));
    } finally {
      await target.close();
    }
  });
});
