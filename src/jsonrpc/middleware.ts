// One connection's chain (docs/architecture.md, "The chain"): every request a side sends, and
// every request and notification it receives, passes one ordered list of middleware, composed
// once when the connection is made. The shape is the Go SDK's (mcp/shared.go: `Middleware
// func(MethodHandler) MethodHandler`, one list per direction), made ours: a middleware is one
// value with up to three links, one per direction and kind, each given the next link and
// returning its own. The last link is the Peer's request (sending) or the side's own handlers
// (receiving). A middleware with nothing to do for a direction leaves that link out, so it
// costs nothing there; a plain call runs only the links that are always on.

import type { IncomingRequestContext, Params, RequestOptions } from "./peer.ts";

/** Sends one request and resolves with its result: the Peer at the end of the chain, or a link before it. */
export type Send = (method: string, params: Params | undefined, options: RequestOptions) => Promise<Params>;

/** Answers one request the other side sent: the side's handlers at the end of the chain, or a link before them. */
export type Receive = (method: string, params: Params | undefined, context: IncomingRequestContext) => Params | Promise<Params>;

/** Takes one notification the other side sent. */
export type Hear = (method: string, params: Params | undefined) => void;

/**
 * One concern on a connection (the era's wire form, tasks, telemetry, result checks): the links
 * it adds to the chain, each made from the link after it. Listed first is outermost: it sees a
 * request first on the way out and its answer last.
 */
export interface Middleware {
  /** Names it in docs/architecture.md's table of the chain and in a problem it reports. */
  readonly name: string;
  /** Its link for the requests this side sends (each MRTR retry and task poll included). */
  send?(next: Send): Send;
  /** Its link for the requests the other side sends. */
  receive?(next: Receive): Receive;
  /** Its link for the notifications the other side sends. */
  hear?(next: Hear): Hear;
}

/** The composed chain: where a request goes out, and where what comes in goes. */
export interface Chain {
  readonly send: Send;
  readonly receive: Receive;
  readonly hear: Hear;
}

/**
 * The chain of `middleware` in front of `ends` (the Peer's request and the side's handlers),
 * the first entry outermost. Composed once per connection, never per message.
 */
export function composeChain(middleware: readonly Middleware[], ends: Chain): Chain {
  let { send, receive, hear } = ends;
  for (let i = middleware.length - 1; i >= 0; i--) {
    const layer = middleware[i]!;
    if (layer.send !== undefined) send = layer.send(send);
    if (layer.receive !== undefined) receive = layer.receive(receive);
    if (layer.hear !== undefined) hear = layer.hear(hear);
  }
  return { send, receive, hear };
}
