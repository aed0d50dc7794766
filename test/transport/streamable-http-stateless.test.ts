// Streamable HTTP on the 2026-07-28 wire, against a small hand-written stateless server in
// this process: the request metadata headers on every POST, no session and no GET stream, a
// lost response stream re-issued only when that is safe, cancellation by closing the stream —
// spec 2026-07-28 basic/transports/streamable-http.

import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, test } from "node:test";
import { Client, OutcomeUnknownError, StreamableHttpTransport } from "../../src/mod.ts";

interface Seen {
  httpMethod: string;
  headers: Record<string, string | string[] | undefined>;
  body: { id?: number | string; method?: string; params?: Record<string, unknown> } | undefined;
}

const TOOLS = [
  { name: "safe", inputSchema: { type: "object" }, annotations: { idempotentHint: true } },
  { name: "unsafe", inputSchema: { type: "object" } },
  { name: "region", inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } } },
  { name: "hang", inputSchema: { type: "object" } },
];

/** A stateless 2026-07-28 server whose tools/call streams of "safe" and "unsafe" break the first time. */
async function startServer(): Promise<{ url: string; seen: Seen[]; close: () => Promise<void> }> {
  const seen: Seen[] = [];
  const calls = new Map<string, number>();
  const open = new Set<ServerResponse>();
  const json = (res: ServerResponse, status: number, value: unknown) => {
    res.writeHead(status, { "Content-Type": "application/json" });
    res.end(JSON.stringify(value));
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (text += chunk));
    req.on("end", () => {
      const body = text === "" ? undefined : JSON.parse(text);
      seen.push({ httpMethod: req.method ?? "", headers: req.headers, body });
      if (req.method !== "POST") return json(res, 405, { error: "POST only" });
      const id = body?.id ?? null;
      if (req.headers["mcp-protocol-version"] !== "2026-07-28") {
        return json(res, 400, { jsonrpc: "2.0", id, error: { code: -32020, message: "Missing MCP-Protocol-Version header" } });
      }
      if (id === null) return void res.writeHead(202).end();
      const result = (value: Record<string, unknown>) => json(res, 200, { jsonrpc: "2.0", id, result: { resultType: "complete", ...value } });
      switch (body.method) {
        case "server/discover":
          return result({
            supportedVersions: ["2026-07-28"],
            capabilities: { tools: {} },
            ttlMs: 0,
            cacheScope: "public",
            _meta: { "io.modelcontextprotocol/serverInfo": { name: "stateless-fixture", version: "1.0.0" } },
          });
        case "tools/list":
          return result({ tools: TOOLS, ttlMs: 0, cacheScope: "public" });
        case "tools/call": {
          const name = String(body.params?.name);
          const count = (calls.get(name) ?? 0) + 1;
          calls.set(name, count);
          if (name === "region") return result({ content: [{ type: "text", text: `header=${String(req.headers["mcp-param-region"])}` }] });
          if (name === "hang") {
            res.writeHead(200, { "Content-Type": "text/event-stream" });
            res.write(": working\n\n");
            open.add(res);
            res.on("close", () => open.delete(res));
            return;
          }
          if (count === 1) {
            // The stream starts, carries one notification, then the connection drops.
            res.writeHead(200, { "Content-Type": "text/event-stream" });
            res.write(
              `event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "started" } })}\n\n`,
            );
            setTimeout(() => res.destroy(), 20);
            return;
          }
          return result({ content: [{ type: "text", text: `${name} done on call ${count}` }] });
        }
        default:
          return json(res, 404, { jsonrpc: "2.0", id, error: { code: -32601, message: `Method not found: ${body.method}` } });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function withClient(body: (client: Client, seen: Seen[], problems: string[]) => Promise<void>): Promise<void> {
  const server = await startServer();
  const client = new Client({ name: "stateless-test", version: "1.0.0" }, { listen: false, requestTimeoutMs: 20_000 });
  const problems: string[] = [];
  client.on("problem", ({ message }) => problems.push(message));
  try {
    await client.connect(new StreamableHttpTransport({ url: server.url }));
    await client.listTools();
    await body(client, server.seen, problems);
  } finally {
    await client.close();
    await server.close();
  }
}

function textOf(result: { content: { type: string; text?: string }[] }): string {
  return result.content.map((block) => block.text ?? "").join("");
}

describe("Streamable HTTP, 2026-07-28 (stateless)", { timeout: 60_000 }, () => {
  test("every POST carries MCP-Protocol-Version and Mcp-Method; tools/call Mcp-Name and Mcp-Param-*; no session, no GET", async () => {
    await withClient(async (client, seen) => {
      assert.equal(client.era, "modern");
      assert.equal(textOf(await client.callTool("region", { region: "eu-north1" })), "header=eu-north1");
      for (const request of seen) {
        assert.equal(request.httpMethod, "POST");
        assert.equal(request.headers["mcp-protocol-version"], "2026-07-28");
        assert.equal(request.headers["mcp-method"], request.body?.method);
        assert.equal(request.headers["mcp-session-id"], undefined);
      }
      const call = seen.find((request) => request.body?.method === "tools/call")!;
      assert.equal(call.headers["mcp-name"], "region");
      const meta = call.body?.params?._meta as Record<string, unknown>;
      assert.equal(meta["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
      assert.deepEqual(meta["io.modelcontextprotocol/clientInfo"], { name: "stateless-test", version: "1.0.0" });
      assert.ok("io.modelcontextprotocol/clientCapabilities" in meta);
    });
  });

  test("the transport sends the headers each send is given and makes none itself: it knows no MCP method", async () => {
    const server = await startServer();
    const transport = new StreamableHttpTransport({ url: server.url });
    const answers: unknown[] = [];
    transport.onmessage = (message) => answers.push(message);
    try {
      await transport.start();
      transport.setProtocolVersion("2026-07-28");
      await transport.send({ jsonrpc: "2.0", id: 1, method: "tools/list" });
      await transport.send({ jsonrpc: "2.0", id: 2, method: "tools/list" }, { headers: { "Mcp-Method": "tools/list", "X-Tag": "second" } });
      assert.equal(answers.length, 2);
      const [first, second] = server.seen;
      assert.equal(first?.headers["mcp-method"], undefined, "no header the send was not given");
      assert.equal(first?.headers["mcp-protocol-version"], "2026-07-28");
      assert.equal(second?.headers["mcp-method"], "tools/list");
      assert.equal(second?.headers["x-tag"], "second");
    } finally {
      await transport.close();
      await server.close();
    }
  });

  test("a lost response stream of an idempotent tool is sent again as a new request, and the user is told", async () => {
    await withClient(async (client, seen, problems) => {
      assert.equal(textOf(await client.callTool("safe")), "safe done on call 2");
      const ids = seen.filter((request) => request.body?.params?.name === "safe").map((request) => request.body?.id);
      assert.equal(ids.length, 2);
      assert.notEqual(ids[0], ids[1], "the re-issued request has a new id");
      assert.ok(problems.some((problem) => /response stream was lost; sending the request again/.test(problem)), problems.join(" | "));
    });
  });

  test("a lost response stream of any other tool fails with OutcomeUnknownError and is not sent again", async () => {
    await withClient(async (client, seen) => {
      const error = await client.callTool("unsafe").then(() => undefined, (e: unknown) => e);
      assert.ok(error instanceof OutcomeUnknownError, String(error));
      assert.match(error.message, /the outcome is unknown/);
      assert.equal(seen.filter((request) => request.body?.params?.name === "unsafe").length, 1);
    });
  });

  test("cancelling closes the request's stream; no notifications/cancelled is POSTed", async () => {
    await withClient(async (client, seen) => {
      const controller = new AbortController();
      const call = client.callTool("hang", {}, { signal: controller.signal }).then(() => undefined, (e: unknown) => e);
      for (let i = 0; i < 200 && !seen.some((request) => request.body?.params?.name === "hang"); i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      controller.abort(new Error("the user pressed stop"));
      assert.match(String(await call), /the user pressed stop/);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.ok(!seen.some((request) => request.body?.method === "notifications/cancelled"));
    });
  });
});
