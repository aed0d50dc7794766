// What an extension is to the core client — spec 2026-07-28 basic/versioning ("Extension
// Negotiation"). Each extension (tasks/, skills/, apps/) lives in its folder and meets the client
// through this one interface: what it adds to the capabilities, which methods it sends, which
// notifications and results it claims, and, when it acts on the connection, an install() that
// receives the client's context (client-context.ts). The client knows this interface, not the
// extensions; the list of those mcpwire implements is in extensions.ts.

import type { Peer, RequestHandler, RequestOptions } from "../jsonrpc/peer.ts";
import type { ClientContext } from "./client-context.ts";
import type { CallOptions } from "./client-options.ts";
import type { CallToolResult, JsonObject, ServerCapabilities, Tool } from "./types.ts";

/** One extension as the client sees it; `Api` is what install() gives the client. */
export interface ClientExtension<Api extends ExtensionHooks = ExtensionHooks> {
  /** Its identifier, the key in `capabilities.extensions`. */
  readonly id: string;
  /** What the client declares for it unless the `extensions` option says otherwise ({} = no settings). */
  readonly settings: JsonObject;
  /** The requests it sends (a user reads them in a trace; the server must accept them). */
  readonly methods: readonly string[];
  /** The server notifications it claims: their handler is its hooks' notification(). */
  readonly notifications?: readonly string[];
  /** The `resultType` values of a tools/call answer it claims (2026-07-28): its hooks' result(). */
  readonly results?: readonly string[];
  /** Wires it to a client, once, at construction. Without it the extension works over the public Client. */
  install?(context: ClientContext): Api;
}

/**
 * What an installed extension does for the client. Each hook runs only for what the extension
 * claimed, never on a plain tool call: the client looks its claims up (a map, a flag) inline.
 */
export interface ExtensionHooks {
  /** A claimed notification arrived. */
  notification?(method: string, params: JsonObject | undefined): void;
  /** A plain tools/call was answered with a claimed `resultType`: the final result, from there. */
  result?(tool: string, result: JsonObject, options: CallOptions, started: number): Promise<CallToolResult>;
  /** Handshake era: whether every tools/call goes through callTool() below, given the server's capabilities. */
  claimsEveryToolCall?(server: ServerCapabilities): boolean;
  /** Whether calls of this tool (as tools/list gave it) go through callTool() below. */
  claimsTool?(tool: Tool): boolean;
  /** A claimed tools/call, sent with the RequestOptions the client built for it. */
  callTool?(name: string, args: JsonObject, options: CallOptions, requestOptions: RequestOptions): Promise<CallToolResult>;
  /** A failed tools/call's error, explained when the extension is the reason (else returned as is). */
  explainError?(who: string, error: unknown): unknown;
  /** Installs the requests it answers for the server on a new Peer (2025-11-25: the server's tasks). */
  serve?(peer: Peer): void;
  /** A handler of the client's (sampling, elicitation) as the extension runs it (as a task), or as it is. */
  wrapHandler?(method: string, handler: RequestHandler): RequestHandler;
  /** The connection ended or is closing: what it runs for the server stops. */
  close?(reason: string): void;
}
