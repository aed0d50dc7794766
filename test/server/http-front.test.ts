// The HTTP front of a Server (httpFront) behind a real listener on 127.0.0.1: our own Client over
// Streamable HTTP in both eras, and raw fetch for each rule — the era of a POST, the 2026-07-28
// header rules and statuses, the handshake's MCP-Protocol-Version, sessions (404 after DELETE,
// Last-Event-ID), stateless hosts whose ids collide, and the guard (Host, Origin, token) — spec
// 2025-11-25 basic/transports, spec 2026-07-28 basic/transports/streamable-http.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Client } from "../../src/client/client.ts";
import { runtime } from "../../src/runtime/mod.ts";
import { httpFront, type HttpFrontOptions } from "../../src/server/http-front.ts";
import { Server } from "../../src/server/server.ts";
import { StreamableHttpTransport } from "../../src/transport/streamable-http/streamable-http.ts";
import { demoHandlers, emptyLog, modernMeta, until } from "./demo-server.ts";

const ACCEPT = "application/json, text/event-stream";
const TOKEN = "s3cret-token-for-the-test";

/** A demo Server behind httpFront on 127.0.0.1, port 0. */
async function front(options: HttpFrontOptions = {}) {
  const log = emptyLog();
  const server = new Server(demoHandlers(log));
  const handler = httpFront(server, options);
  const listener = await runtime.listenHttp({ port: 0 }, handler);
  const url = `http://127.0.0.1:${listener.port}/mcp`;
  const post = (body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) =>
    fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: ACCEPT, ...headers },
      body: JSON.stringify(body),
      ...(signal ? { signal } : {}),
    });
  return {
    log,
    server,
    url,
    post,
    close: async () => {
      await handler.close();
      await server.close();
      await listener.close();
    },
  };
}

type Front = Awaited<ReturnType<typeof front>>;

/** The headers a 2026-07-28 client sends with a request (streamable-http, "Standard Request Headers"). */
function modernHeaders(method: string, name?: string): Record<string, string> {
  return { "mcp-protocol-version": "2026-07-28", "mcp-method": method, ...(name === undefined ? {} : { "mcp-name": name }) };
}

async function initialize(target: Front, headers: Record<string, string> = {}): Promise<string> {
  const response = await target.post(
    { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } },
    headers,
  );
  assert.equal(response.status, 200);
  await response.body?.cancel();
  const id = response.headers.get("mcp-session-id");
  assert.ok(id);
  const initialized = await target.post({ jsonrpc: "2.0", method: "notifications/initialized" }, {
    "mcp-session-id": id,
    "mcp-protocol-version": "2025-11-25",
  });
  assert.equal(initialized.status, 202);
  return id;
}

/** Reads SSE events from a response body, one at a time (each wait bounded by the test's own). */
function sseReader(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  return {
    async next(): Promise<{ id?: string; data: string } | undefined> {
      for (;;) {
        const end = buffer.indexOf("\n\n");
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith(":")) continue;
          const event: { id?: string; data: string } = { data: "" };
          for (const line of block.split("\n")) {
            if (line.startsWith("id: ")) event.id = line.slice(4);
            if (line.startsWith("data: ")) event.data += line.slice(6);
          }
          return event;
        }
        const { done, value } = await reader.read();
        if (done) return undefined;
        buffer += decoder.decode(value, { stream: true });
      }
    },
    cancel: () => reader.cancel().catch(() => {}),
  };
}

describe("httpFront: our own Client in each era", () => {
  for (const protocol of ["legacy", "modern"] as const) {
    test(`a Client under protocol ${protocol} lists and calls tools, and its log reaches it on the call's stream`, async () => {
      const target = await front();
      const client = new Client({ name: "front-test", version: "1" });
      try {
        await client.connect(new StreamableHttpTransport({ url: target.url }), { protocol });
        assert.equal(client.era, protocol);
        const tools = await client.listTools();
        assert.ok(tools.some((tool) => tool.name === "echo"));
        const result = await client.callTool("echo", { text: `hello ${protocol}` });
        assert.deepEqual(result.content, [{ type: "text", text: `hello ${protocol}` }]);
        await client.setLoggingLevel("info");
        const logs: string[] = [];
        client.on("log", (message) => logs.push(String(message.data)));
        const logged = await client.callTool("log");
        assert.deepEqual(logged.content, [{ type: "text", text: "logged" }]);
        await until(() => logs.length >= 3, "the log messages to arrive");
        assert.deepEqual(logs, ["at info", "at warning", "at error"]);
        const context = target.log.contexts.at(-1)!;
        assert.equal(context.host.era, protocol);
      } finally {
        await client.close();
        await target.close();
      }
    });
  }

  test("a legacy Client answers the server's roots/list, sent on the stream of the tools/call that asked", async () => {
    const target = await front();
    const client = new Client({ name: "front-test", version: "1" }, { roots: [{ uri: "file:///work/project", name: "project" }] });
    try {
      await client.connect(new StreamableHttpTransport({ url: target.url, listen: false }), { protocol: "legacy" });
      const result = await client.callTool("ask", { method: "roots/list" });
      const text = (result.content[0] as { text: string }).text;
      assert.deepEqual(JSON.parse(text).roots, [{ uri: "file:///work/project", name: "project" }]);
    } finally {
      await client.close();
      await target.close();
    }
  });

  test("a legacy Client's session is the Server's session under its Mcp-Session-Id, and ends with its DELETE", async () => {
    const target = await front();
    const client = new Client({ name: "front-test", version: "1" });
    try {
      await client.connect(new StreamableHttpTransport({ url: target.url }), { protocol: "legacy" });
      await until(() => target.server.sessions.size === 1, "the session to open");
      const [id] = [...target.server.sessions.keys()];
      await client.close();
      await until(() => target.server.sessions.size === 0, "the session to end");
      const after = await target.post({ jsonrpc: "2.0", id: 1, method: "tools/list" }, { "mcp-session-id": id!, "mcp-protocol-version": "2025-11-25" });
      assert.equal(after.status, 404);
      assert.equal((await after.json()).id, 1);
    } finally {
      await client.close();
      await target.close();
    }
  });
});

describe("httpFront: which era a POST is", () => {
  test("an initialize is a handshake whatever its MCP-Protocol-Version header says: it gets a session", async () => {
    const target = await front();
    try {
      const response = await target.post(
        { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } },
        { "mcp-protocol-version": "2026-07-28" },
      );
      assert.equal(response.status, 200);
      assert.match(response.headers.get("mcp-session-id") ?? "", /^[\x21-\x7e]+$/);
      assert.equal((await response.json()).result.protocolVersion, "2025-06-18");
    } finally {
      await target.close();
    }
  });

  test("a request with neither a session nor a 2026-07-28 version is 400 (the handshake asks for a session id)", async () => {
    const target = await front();
    try {
      const response = await target.post({ jsonrpc: "2.0", id: 5, method: "tools/list" });
      assert.equal(response.status, 400);
      assert.equal((await response.json()).id, 5);
    } finally {
      await target.close();
    }
  });

  test("2026-07-28 requests get no session id; GET and DELETE without a session are 405", async () => {
    const target = await front();
    try {
      const response = await target.post({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: modernMeta() } }, modernHeaders("tools/list"));
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("mcp-session-id"), null);
      assert.equal((await response.json()).result.resultType, "complete");
      for (const method of ["GET", "DELETE"]) {
        const refused = await fetch(target.url, { method, headers: { accept: "text/event-stream" } });
        assert.equal(refused.status, 405, method);
        await refused.body?.cancel();
      }
    } finally {
      await target.close();
    }
  });
});

describe("httpFront: the 2026-07-28 HTTP rules", () => {
  test("headers that differ from the body are 400 -32020 keeping the request id; equal ones (Base64 too) pass", async () => {
    const target = await front();
    try {
      const call = (headers: Record<string, string>, name = "echo", metaVersion = "2026-07-28") =>
        target.post({
          jsonrpc: "2.0",
          id: "call-1",
          method: "tools/call",
          params: { name, arguments: { text: "x" }, _meta: modernMeta({ "io.modelcontextprotocol/protocolVersion": metaVersion }) },
        }, headers);
      const cases: [string, Record<string, string>, string?, string?][] = [
        ["header version vs _meta version", modernHeaders("tools/call", "echo"), "echo", "2025-11-25"],
        ["Mcp-Method vs method", modernHeaders("tools/list", "echo")],
        ["Mcp-Name vs name", modernHeaders("tools/call", "other")],
        ["Mcp-Name missing", modernHeaders("tools/call")],
        ["Mcp-Method missing", { "mcp-protocol-version": "2026-07-28", "mcp-name": "echo" }],
      ];
      for (const [what, headers, name, version] of cases) {
        const response = await call(headers, name, version);
        assert.equal(response.status, 400, what);
        const body = await response.json();
        assert.equal(body.error.code, -32020, what);
        assert.equal(body.id, "call-1", what);
      }
      const encoded = await call(modernHeaders("tools/call", `=?base64?${btoa("echo")}?=`));
      assert.equal(encoded.status, 200);
      assert.deepEqual((await encoded.json()).result.content, [{ type: "text", text: "x" }]);
    } finally {
      await target.close();
    }
  });

  test("a missing required _meta field is 400 -32602; an unsupported version 400 -32022 naming both; ids kept", async () => {
    const target = await front();
    try {
      const missing = await target.post(
        { jsonrpc: "2.0", id: 11, method: "tools/list", params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } } },
        modernHeaders("tools/list"),
      );
      assert.equal(missing.status, 400);
      const missingBody = await missing.json();
      assert.deepEqual([missingBody.id, missingBody.error.code], [11, -32602]);
      const unsupported = await target.post(
        { jsonrpc: "2.0", id: 12, method: "tools/list", params: { _meta: modernMeta({ "io.modelcontextprotocol/protocolVersion": "2099-01-01" }) } },
        { ...modernHeaders("tools/list"), "mcp-protocol-version": "2099-01-01" },
      );
      assert.equal(unsupported.status, 400);
      const body = await unsupported.json();
      assert.deepEqual([body.id, body.error.code, body.error.data.requested], [12, -32022, "2099-01-01"]);
      assert.ok(body.error.data.supported.includes("2026-07-28"));
    } finally {
      await target.close();
    }
  });

  test("removed and unknown methods are 404 -32601 keeping the id; a tool's own -32602 stays 200", async () => {
    const target = await front();
    try {
      for (const [id, method] of [[21, "ping"], [22, "resources/subscribe"], [23, "no/such/method"]] as const) {
        const response = await target.post({ jsonrpc: "2.0", id, method, params: { _meta: modernMeta() } }, modernHeaders(method));
        assert.equal(response.status, 404, method);
        const body = await response.json();
        assert.deepEqual([body.id, body.error.code], [id, -32601], method);
      }
      const unknownTool = await target.post(
        { jsonrpc: "2.0", id: 24, method: "tools/call", params: { name: "nope", arguments: {}, _meta: modernMeta() } },
        modernHeaders("tools/call", "nope"),
      );
      assert.equal(unknownTool.status, 200);
      assert.equal((await unknownTool.json()).error.code, -32602);
    } finally {
      await target.close();
    }
  });

  test("a subscriptions/listen stream stays open and carries the changes it asked for; an unknown Mcp-Session-Id is ignored", async () => {
    const target = await front();
    try {
      const aborter = new AbortController();
      const response = await target.post(
        { jsonrpc: "2.0", id: "listen-1", method: "subscriptions/listen", params: { notifications: { toolsListChanged: true }, _meta: modernMeta() } },
        { ...modernHeaders("subscriptions/listen"), "mcp-session-id": "a-stale-session-of-another-era" },
        aborter.signal,
      );
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("content-type"), "text/event-stream");
      assert.equal(response.headers.get("mcp-session-id"), null);
      const events = sseReader(response);
      const ack = JSON.parse((await events.next())!.data);
      assert.equal(ack.method, "notifications/subscriptions/acknowledged");
      assert.equal(ack.params._meta["io.modelcontextprotocol/subscriptionId"], "listen-1");
      await target.server.broadcast("notifications/tools/list_changed");
      const change = JSON.parse((await events.next())!.data);
      assert.equal(change.method, "notifications/tools/list_changed");
      assert.equal(change.params._meta["io.modelcontextprotocol/subscriptionId"], "listen-1", "the host's own id, not the internal one");
      await target.server.broadcast("notifications/prompts/list_changed"); // not asked for
      await target.server.broadcast("notifications/tools/list_changed");
      assert.equal(JSON.parse((await events.next())!.data).method, "notifications/tools/list_changed");
      aborter.abort();
      await events.cancel();
    } finally {
      await target.close();
    }
  });

  test("two stateless hosts using the same id at once each get their own answer; closing a stream cancels only its call", async () => {
    const target = await front();
    try {
      const aborter = new AbortController();
      const waiting = await target.post(
        { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "wait", arguments: {}, _meta: modernMeta({ progressToken: "p" }) } },
        modernHeaders("tools/call", "wait"),
        aborter.signal,
      );
      // Its progress came first, so its answer is a stream, still open.
      assert.equal(waiting.headers.get("content-type"), "text/event-stream");
      const events = sseReader(waiting);
      assert.equal(JSON.parse((await events.next())!.data).method, "notifications/progress");
      const other = await target.post(
        { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "second host" }, _meta: modernMeta() } },
        modernHeaders("tools/call", "echo"),
      );
      const body = await other.json();
      assert.equal(body.id, 1);
      assert.deepEqual(body.result.content, [{ type: "text", text: "second host" }]);
      assert.equal(target.log.aborted.length, 1);
      aborter.abort();
      await events.cancel();
      const reason = await target.log.aborted[0];
      assert.ok(reason !== undefined, "the waiting call was cancelled when its host closed its stream");
    } finally {
      await target.close();
    }
  });
});

describe("httpFront: handshake sessions over HTTP", () => {
  test("after initialize an unsupported MCP-Protocol-Version is 400; a supported one, or none, passes", async () => {
    const target = await front();
    try {
      const id = await initialize(target);
      const bad = await target.post({ jsonrpc: "2.0", id: 3, method: "tools/list" }, { "mcp-session-id": id, "mcp-protocol-version": "1999-01-01" });
      assert.equal(bad.status, 400);
      assert.equal((await bad.json()).id, 3);
      const modern = await target.post({ jsonrpc: "2.0", id: 4, method: "tools/list" }, { "mcp-session-id": id, "mcp-protocol-version": "2026-07-28" });
      assert.equal(modern.status, 400);
      await modern.body?.cancel();
      for (const headers of [{ "mcp-protocol-version": "2025-11-25" }, {}] as Record<string, string>[]) {
        const good = await target.post({ jsonrpc: "2.0", id: 5, method: "tools/list" }, { "mcp-session-id": id, ...headers });
        assert.equal(good.status, 200);
        assert.ok(Array.isArray((await good.json()).result.tools));
      }
    } finally {
      await target.close();
    }
  });

  test("the GET stream carries a broadcast; after a drop, Last-Event-ID replays what was missed; DELETE then 404", async () => {
    const target = await front();
    try {
      const id = await initialize(target);
      const headers = { accept: "text/event-stream", "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" };
      const get = await fetch(target.url, { headers });
      assert.equal(get.status, 200);
      const events = sseReader(get);
      await events.next(); // priming
      await target.server.broadcast("notifications/tools/list_changed");
      const first = await events.next();
      assert.equal(JSON.parse(first!.data).method, "notifications/tools/list_changed");
      await events.cancel();
      await new Promise((resolve) => setTimeout(resolve, 50));
      await target.server.broadcast("notifications/resources/list_changed");
      await target.server.broadcast("notifications/prompts/list_changed");
      const resumed = await fetch(target.url, { headers: { ...headers, "last-event-id": first!.id! } });
      const replay = sseReader(resumed);
      assert.equal(JSON.parse((await replay.next())!.data).method, "notifications/resources/list_changed");
      assert.equal(JSON.parse((await replay.next())!.data).method, "notifications/prompts/list_changed");
      await replay.cancel();
      const deleted = await fetch(target.url, { method: "DELETE", headers });
      assert.equal(deleted.status, 200);
      const after = await target.post({ jsonrpc: "2.0", id: 9, method: "tools/list" }, { "mcp-session-id": id });
      assert.equal(after.status, 404);
      await after.body?.cancel();
    } finally {
      await target.close();
    }
  });

  test("a body over maxBodyBytes is 413; another path is 404", async () => {
    const target = await front({ maxBodyBytes: 2048 });
    try {
      const large = await target.post(
        { jsonrpc: "2.0", id: 1, method: "tools/list", params: { pad: "x".repeat(4096), _meta: modernMeta() } },
        modernHeaders("tools/list"),
      );
      assert.equal(large.status, 413);
      await large.body?.cancel();
      const elsewhere = await fetch(target.url.replace("/mcp", "/other"));
      assert.equal(elsewhere.status, 404);
      await elsewhere.body?.cancel();
    } finally {
      await target.close();
    }
  });
});

describe("httpFront: the guard", () => {
  test("a foreign Origin or Host is 403 even with no token asked for; a loopback Origin passes", async () => {
    const target = await front();
    try {
      const body = { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: modernMeta() } };
      const evil = await target.post(body, { ...modernHeaders("tools/list"), origin: "https://evil.example" });
      assert.equal(evil.status, 403);
      assert.equal((await evil.json()).id, null);
      const nullOrigin = await target.post(body, { ...modernHeaders("tools/list"), origin: "null" });
      assert.equal(nullOrigin.status, 403);
      await nullOrigin.body?.cancel();
      const local = await target.post(body, { ...modernHeaders("tools/list"), origin: "http://localhost:5173" });
      assert.equal(local.status, 200);
      await local.body?.cancel();
    } finally {
      await target.close();
    }
    // fetch sets Host itself: a raw request names another (a page whose name was rebound to 127.0.0.1).
    const { request } = await import("node:http");
    const guarded = await front();
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const url = new URL(guarded.url);
        const req = request(
          { host: "127.0.0.1", port: url.port, path: "/mcp", method: "GET", headers: { host: `rebound.evil.example:${url.port}` } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on("error", reject);
        req.end();
      });
      assert.equal(status, 403);
    } finally {
      await guarded.close();
    }
  });

  test("with a token, a request without it or with a wrong one is 401 with WWW-Authenticate, and no token is echoed", async () => {
    const target = await front({ token: TOKEN, allowedOrigins: ["https://app.example"] });
    try {
      const body = { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: modernMeta() } };
      const none = await target.post(body, modernHeaders("tools/list"));
      assert.equal(none.status, 401);
      assert.match(none.headers.get("www-authenticate") ?? "", /^Bearer realm=/);
      await none.body?.cancel();
      const wrong = await target.post(body, { ...modernHeaders("tools/list"), authorization: "Bearer not-the-token" });
      assert.equal(wrong.status, 401);
      assert.match(wrong.headers.get("www-authenticate") ?? "", /error="invalid_token"/);
      const text = await wrong.text();
      assert.ok(!text.includes("not-the-token") && !text.includes(TOKEN), text);
      const right = await target.post(body, { ...modernHeaders("tools/list"), authorization: `Bearer ${TOKEN}`, origin: "https://app.example" });
      assert.equal(right.status, 200);
      await right.body?.cancel();
      const client = new Client({ name: "front-test", version: "1" });
      try {
        await client.connect(new StreamableHttpTransport({ url: target.url, headers: { authorization: `Bearer ${TOKEN}` } }), { protocol: "legacy" });
        assert.equal((await client.callTool("echo", { text: "authorized" })).content[0]?.type, "text");
      } finally {
        await client.close();
      }
    } finally {
      await target.close();
    }
  });
});
