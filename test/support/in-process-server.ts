// Test helper: a hand-written MCP server in the same process — a Peer on the far end of a
// MemoryTransport pair that answers initialize and whatever handlers a test gives it, and
// records every message it receives.

import type { RequestHandler } from "../../src/jsonrpc/peer.ts";
import { type JsonRpcMessage, MemoryTransport, type Params, Peer } from "../../src/mod.ts";

export interface InProcessServer {
  /** Give this to `client.connect()`. */
  clientEnd: MemoryTransport;
  /** The server's own Peer, to send requests and notifications to the client. */
  peer: Peer;
  /** Every message the server received, in order. */
  received: JsonRpcMessage[];
  /** The params of the client's initialize request, once it came. */
  initializeParams: () => Params | undefined;
}

export function inProcessServer(
  capabilities: Params,
  handlers: Record<string, RequestHandler>,
  protocolVersion = "2025-11-25",
): InProcessServer {
  const [clientEnd, serverEnd] = MemoryTransport.pair();
  const peer = new Peer({ name: "test server", send: (message) => serverEnd.send(message) });
  const received: JsonRpcMessage[] = [];
  serverEnd.onmessage = (message) => {
    received.push(message);
    peer.receive(message);
  };
  serverEnd.onclose = (details) => peer.close(details);
  let initializeParams: Params | undefined;
  peer.setRequestHandler("initialize", (params) => {
    initializeParams = params;
    return { protocolVersion, capabilities, serverInfo: { name: "in-process", version: "0.0.1" } };
  });
  for (const [method, handler] of Object.entries(handlers)) peer.setRequestHandler(method, handler);
  void serverEnd.start();
  return { clientEnd, peer, received, initializeParams: () => initializeParams };
}

/** The params of every request of one method the server received. */
export function requestsFor(server: InProcessServer, method: string): Params[] {
  return server.received
    .filter((message) => "method" in message && "id" in message && message.method === method)
    .map((message) => ("params" in message && message.params ? message.params : {}));
}
