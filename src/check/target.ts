// The server a check judges, as the check can reach it again: a probe of the lifecycle starts a
// connection of its own, a probe of a transport speaks that transport's wire by hand (raw lines
// to a process, raw HTTP requests). A bare transport (`checkServer(transport)`) allows only what
// one connection shows: the families that need to reach the server again are skipped, saying so.

import type { StdioTransportOptions } from "../transport/stdio.ts";
import type { ClientTransport } from "../transport/transport.ts";

/** How to reach an HTTP server (Streamable HTTP or the legacy HTTP+SSE transport). */
export interface HttpTarget {
  url: string;
  /** Headers every request carries (a configured `Authorization`): secrets, never printed. */
  headers?: Record<string, string>;
  /** The fetch to use (an OAuth-wrapped one); default globalThis.fetch. */
  fetch?: typeof fetch;
}

/** A server the check can connect to as often as it needs. */
export type CheckTarget =
  | { kind: "stdio"; stdio: StdioTransportOptions }
  /**
   * Streamable HTTP; with `fallback` (a configured `transport: auto`), the legacy HTTP+SSE
   * transport when Streamable HTTP is refused (spec 2025-11-25 basic/transports, "Backwards Compatibility").
   */
  | { kind: "http"; http: HttpTarget; fallback?: boolean }
  | { kind: "sse"; http: HttpTarget }
  /** A transport made anew for each connection (a configured server through the host's factory); no raw probes. */
  | { kind: "transport"; make: () => ClientTransport; description: string };
