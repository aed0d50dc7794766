// What an extension is to the core client — spec 2026-07-28 basic/versioning ("Extension
// Negotiation"). An extension is a value the client is given (ClientOptions.use); each lives in
// its folder (tasks/, skills/, apps/) and meets the client through this one interface: what it
// declares, what it adds to the capabilities, which `resultType` values it takes, and, when it
// acts on the connection, an install() that receives the client's context (client-context.ts)
// and gives back its links in the connection's chain (docs/architecture.md, "The chain"). The
// core client imports none of them (test/architecture.test.ts).

import type { Middleware } from "../jsonrpc/middleware.ts";
import type { ClientContext } from "./client-context.ts";
import type { ClientOptions } from "./client-options.ts";
import type { ClientCapabilities, JsonObject } from "./types.ts";

/** One extension as the client sees it; `Api` is what install() gives the client (Client.installed()). */
export interface ClientExtension<Api extends ExtensionParts = ExtensionParts> {
  /** Its identifier, the key in `capabilities.extensions`. */
  readonly id: string;
  /** What the client declares for it unless the `extensions` option says otherwise ({} = no settings). */
  readonly settings: JsonObject;
  /** The requests it sends (a user reads them in a trace; the server must accept them). */
  readonly methods: readonly string[];
  /**
   * The `resultType` values of a tools/call answer it takes (2026-07-28): the era link lets them
   * through (else such an answer is a protocol error) and its own link follows them.
   */
  readonly results?: readonly string[];
  /**
   * What it adds to the client's capabilities beside its `extensions` entry (the tasks extension:
   * the 2025-11-25 `tasks` capability), given what the client declares so far and its options.
   */
  capabilities?(declared: ClientCapabilities, options: ClientOptions): ClientCapabilities;
  /** Wires it to a client, once, at construction. Without it the extension works over the public Client. */
  install?(context: ClientContext): Api;
}

/** What an installed extension gives the client; `Api` adds what its own helpers use (tasksOf()). */
export interface ExtensionParts {
  /**
   * Its links in the connection's chain, made at each connect (jsonrpc/middleware.ts). They run
   * outside the core's answers link: what they send on goes through it, typed and checked.
   */
  middleware?(): Middleware;
  /** The connection ended or is closing: what it runs for the server stops. */
  close?(reason: string): void;
}
