// Test helper: a small server on the server half's handlers — tools that echo, fail, wait for
// cancellation with progress, log at each level, and ask the host (sampling, elicitation,
// roots); one resource; one prompt — and ways to talk to it over a memory pair: our own Client,
// or a raw Peer that sends exactly the messages a test writes.

import { Client } from "../../src/client/client.ts";
import type { ClientOptions } from "../../src/client/client-options.ts";
import type { ServerCapabilities } from "../../src/client/types.ts";
import type { CloseDetails } from "../../src/jsonrpc/errors.ts";
import { ErrorCode, RpcError } from "../../src/jsonrpc/errors.ts";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.ts";
import type { Params } from "../../src/jsonrpc/peer.ts";
import { Peer } from "../../src/jsonrpc/peer.ts";
import { Server, type ServerOptions } from "../../src/server/server.ts";
import type { HostSession, ServerHandlers, ServerRequestContext } from "../../src/server/server-handlers.ts";
import { MemoryTransport } from "../../src/transport/memory.ts";

export const SERVER_INFO = { name: "demo", version: "1.0.0" };

export const DEMO_CAPABILITIES: ServerCapabilities = {
  tools: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  prompts: {},
  logging: {},
};

/** What the demo server saw: each request's context, each notification, the sessions. */
export interface DemoLog {
  contexts: ServerRequestContext[];
  notifications: { method: string; params: Params | undefined; session: HostSession }[];
  opened: HostSession[];
  closed: HostSession[];
  /** Set by the "wait" tool: resolves when its signal aborts, with the reason. */
  aborted: Promise<unknown>[];
}

/** The demo server's handlers, recording into `log`. */
export function demoHandlers(log: DemoLog, extra: Partial<ServerHandlers> = {}): ServerHandlers {
  return {
    serverInfo: SERVER_INFO,
    instructions: "Use echo to echo.",
    capabilities: () => DEMO_CAPABILITIES,
    async request(method, params, context) {
      log.contexts.push(context);
      switch (method) {
        case "tools/list":
          return {
            tools: ["echo", "fail", "wait", "log", "ask"].map((name) => ({ name, inputSchema: { type: "object" } })),
          };
        case "tools/call":
          return await callTool(params, context, log);
        case "resources/list":
          return { resources: [{ uri: "demo://a", name: "a" }] };
        case "resources/read":
          return { contents: [{ uri: String(params?.uri), text: "A" }], ttlMs: 5000, cacheScope: "public" };
        case "prompts/list":
          return { prompts: [{ name: "greet" }] };
        case "resources/subscribe":
        case "resources/unsubscribe":
          return {};
        default:
          throw new RpcError(`Method not found: ${method}`, ErrorCode.MethodNotFound);
      }
    },
    notification(method, params, session) {
      log.notifications.push({ method, params, session });
    },
    sessionOpened: (session) => log.opened.push(session),
    sessionClosed: (session) => log.closed.push(session),
    ...extra,
  };
}

async function callTool(params: Params | undefined, context: ServerRequestContext, log: DemoLog): Promise<Params> {
  const args = (params?.arguments ?? {}) as Record<string, unknown>;
  const text = (value: unknown) => ({ content: [{ type: "text", text: typeof value === "string" ? value : JSON.stringify(value) }] });
  switch (params?.name) {
    case "echo":
      return text(args.text ?? "");
    case "fail":
      throw new Error("the demo tool failed on purpose");
    case "wait": {
      await context.progress(1, 2, "waiting");
      const signal = context.signal;
      const aborted = new Promise<unknown>((resolve) => signal.addEventListener("abort", () => resolve(signal.reason), { once: true }));
      log.aborted.push(aborted);
      await aborted;
      return text("aborted");
    }
    case "log": {
      for (const level of ["debug", "info", "warning", "error"]) {
        await context.notify("notifications/message", { level, logger: "demo", data: `at ${level}` });
      }
      return text("logged");
    }
    case "ask": {
      const answer = await context.request(String(args.method), (args.params ?? {}) as Params, { timeoutMs: 5000 });
      return text(answer);
    }
    default:
      throw new RpcError(`Unknown tool: ${String(params?.name)}`, ErrorCode.InvalidParams);
  }
}

export function emptyLog(): DemoLog {
  return { contexts: [], notifications: [], opened: [], closed: [], aborted: [] };
}

/** A demo server and a Client connected to it over a memory pair. */
export async function demoWithClient(
  clientOptions: ClientOptions,
  serverOptions: ServerOptions = {},
  extra: Partial<ServerHandlers> = {},
): Promise<{ server: Server; client: Client; log: DemoLog; problems: string[] }> {
  const log = emptyLog();
  const problems: string[] = [];
  const server = new Server(demoHandlers(log, extra), { onProblem: (message) => problems.push(message), ...serverOptions });
  const [clientEnd, serverEnd] = MemoryTransport.pair();
  await server.connect(serverEnd);
  const client = new Client({ name: "test-host", version: "0.0.1" }, { listen: false, ...clientOptions });
  await client.connect(clientEnd);
  return { server, client, log, problems };
}

/** A raw host: a Peer on one end of a pair, with every message the server sends it recorded. */
export interface RawHost {
  peer: Peer;
  /** Every message from the server, in order. */
  received: JsonRpcMessage[];
  /** Sends a message exactly as written. */
  sendRaw(message: Record<string, unknown>): Promise<void>;
  closed: Promise<CloseDetails>;
}

/** A demo server and a raw host connected to it over a memory pair. */
export async function demoWithRawHost(
  serverOptions: ServerOptions = {},
  extra: Partial<ServerHandlers> = {},
): Promise<{ server: Server; host: RawHost; log: DemoLog; problems: string[] }> {
  const log = emptyLog();
  const problems: string[] = [];
  const server = new Server(demoHandlers(log, extra), { onProblem: (message) => problems.push(message), ...serverOptions });
  const [hostEnd, serverEnd] = MemoryTransport.pair();
  await server.connect(serverEnd);
  const received: JsonRpcMessage[] = [];
  const peer = new Peer({ name: "raw host", send: (message) => hostEnd.send(message) });
  let resolveClosed!: (details: CloseDetails) => void;
  const closed = new Promise<CloseDetails>((resolve) => (resolveClosed = resolve));
  hostEnd.onmessage = (message) => {
    received.push(message);
    peer.receive(message);
  };
  hostEnd.onclose = (details) => {
    peer.close(details);
    resolveClosed(details);
  };
  await hostEnd.start();
  return {
    server,
    host: { peer, received, sendRaw: (message) => hostEnd.send(message as unknown as JsonRpcMessage), closed },
    log,
    problems,
  };
}

/** The `_meta` protocol fields of a 2026-07-28 request. */
export function modernMeta(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
    ...extra,
  };
}

/** Waits until `check` holds, polling; a bounded wait, not a timing assertion. */
export async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`never: ${what}`);
}
