// The client as its parts see it: one narrow view of a Client's connection (its name, state,
// era, the server's capabilities, its options) and the few acts they need (request, problem,
// events). The typed methods (resources.ts, prompts.ts) and the extensions (extension.ts) receive
// it instead of the Client, so none of them re-enters client.ts.

import type { Params, RequestOptions } from "../jsonrpc/peer.ts";
import type { EmitClientEvent } from "./client-events.ts";
import type { ClientOptions } from "./client-options.ts";
import type { ClientState } from "./client-state.ts";
import { CapabilityError } from "./errors.ts";
import type { InputRequest } from "./input-requests.ts";
import type { ProtocolEra, ProtocolVersion } from "./protocol-version.ts";
import type { ResultCache } from "./result-cache.ts";
import type { Subscriptions } from "./subscriptions.ts";
import type { Telemetry } from "./telemetry.ts";
import type { CallToolResult, ClientCapabilities, JsonObject, ServerCapabilities, Tool } from "./types.ts";

/** A Client's connection as its parts read it; each field reads the client's state when read. */
export interface ClientContext {
  /** Names the server in messages (`server "x"`, or the transport's description). */
  readonly name: string;
  readonly state: ClientState;
  /** The wire, once connected. */
  readonly era: ProtocolEra | undefined;
  /** ClientOptions.telemetry once connect() loaded it; undefined when off. */
  readonly telemetry: Telemetry | undefined;
  /** The negotiated protocol version, once connected. */
  readonly version: ProtocolVersion | undefined;
  /** What the server declared (initialize or server/discover), once connected. */
  readonly serverCapabilities: ServerCapabilities | undefined;
  readonly options: ClientOptions;
  /** What this client declares (client-capabilities.ts). */
  readonly capabilities: ClientCapabilities;
  /** Results kept while their ttlMs says they are fresh (spec 2026-07-28 caching). */
  readonly cache: ResultCache;
  /** The 2026-07-28 listen stream and what it asks for. */
  readonly subscriptions: Subscriptions;
  /** Client.request: any request, refused unless the client is ready. */
  request(method: string, params?: Params, options?: RequestOptions): Promise<Params>;
  /** Sends a notification to the server on the current connection. */
  notify(method: string, params?: Params): Promise<void>;
  /** Why a request cannot go out now (the client is not ready), as the error to reject with. */
  refused(method: string): Error;
  /** 2026-07-28: answers one input request with the client's handlers. */
  fulfil(who: string, request: InputRequest, key: string, signal: AbortSignal | undefined): Promise<JsonObject>;
  /** The tool as the last tools/list gave it. */
  tool(name: string): Tool | undefined;
  /** Lists the tools afresh (Client.listTools). */
  listTools(): Promise<unknown>;
  /** A tools/call answer checked (shape, and structuredContent against the tool's outputSchema). */
  toolResult(result: Params, tool: string | undefined): CallToolResult | Promise<CallToolResult>;
  /** Emits a client event. */
  emit: EmitClientEvent;
  /** Reports a problem event naming nothing more than `message`. */
  problem(message: string): void;
}

/**
 * Throws a CapabilityError when the client is ready and the server did not declare
 * `capability`, which `method` needs (before `ready` the request is refused anyway).
 */
export function requireCapability(context: ClientContext, capability: keyof ServerCapabilities & string, method: string): void {
  if (context.state === "ready" && context.serverCapabilities?.[capability] === undefined) {
    throw new CapabilityError(
      `${context.name} did not declare the "${capability}" capability, so it does not accept ${method}`,
      { capability },
    );
  }
}

/** Whether the client is ready and the server did not declare `capability` (a list is then []). */
export function lacksCapability(context: ClientContext, capability: keyof ServerCapabilities & string): boolean {
  return context.state === "ready" && context.serverCapabilities?.[capability] === undefined;
}
