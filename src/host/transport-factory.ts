// The transport for a server description — stdio, Streamable HTTP, legacy HTTP+SSE, or `auto`
// (spec 2025-11-25 basic/transports, "Backwards Compatibility": Streamable HTTP first, the
// legacy SSE transport when the server refuses it). Shared by the manager and `mcpwire inspect`.

import type { Redactor } from "../common/redact.ts";
import { AutoHttpTransport } from "../transport/auto-http.ts";
import { SseLegacyTransport } from "../transport/sse-legacy.ts";
import { StdioTransport } from "../transport/stdio.ts";
import { StreamableHttpTransport } from "../transport/streamable-http/mod.ts";
import type { Transport } from "../transport/transport.ts";
import type { ServerConfig, TransportKind } from "./config/types.ts";
import { childEnvironment } from "./env.ts";

/**
 * How to reach a server: a ServerConfig will do. A stdio server needs `command`, the others a
 * `url` (an http:// or https:// URL); the keys of the other kind are ignored.
 */
export type TransportDescription =
  & Pick<ServerConfig, "transport">
  & Partial<Pick<ServerConfig, "command" | "args" | "env" | "cwd" | "url" | "headers">>;

export interface TransportFactoryOptions {
  /** Each line a stdio server writes to stderr. Default: the transport's own (kept in its stderr tail only). */
  onStderr?: (line: string) => void;
  /** The fetch of an HTTP transport, e.g. one that adds OAuth (auth/). Default: the global fetch. */
  fetch?: typeof fetch;
  /** Secrets an HTTP transport's messages must not show, beyond its own headers. */
  redactor?: Redactor;
  /**
   * A stdio server's whole environment from its configured `env`. Default: childEnvironment
   * (env.ts) — a safe baseline of ours plus `env`, nothing else.
   */
  childEnvironment?: (env: Readonly<Record<string, string>>) => Record<string, string>;
}

/** The HTTP transport of each kind: Streamable HTTP, the legacy HTTP+SSE, or the one that tries both. */
const HTTP_TRANSPORTS = {
  http: StreamableHttpTransport,
  sse: SseLegacyTransport,
  auto: AutoHttpTransport,
} as const satisfies Record<Exclude<TransportKind, "stdio">, unknown>;

/** The transport for `server`, not yet started. Throws when it lacks its command or url. */
export function createTransport(server: TransportDescription, options: TransportFactoryOptions = {}): Transport {
  if (server.transport === "stdio") {
    if (server.command === undefined || server.command === "") throw new TypeError("a stdio server needs a command");
    const environment = options.childEnvironment ?? childEnvironment;
    return new StdioTransport({
      command: server.command,
      args: [...(server.args ?? [])],
      // The factory's childEnvironment made the whole environment: the transport adds nothing.
      env: environment(server.env ?? {}),
      envMode: "exact",
      cwd: server.cwd,
      ...(options.onStderr === undefined ? {} : { onStderr: options.onStderr }),
    });
  }
  if (server.url === undefined) throw new TypeError(`an ${server.transport} server needs a url`);
  // The headers (already interpolated) go with every request.
  const http = {
    url: server.url,
    headers: server.headers ?? {},
    ...(options.redactor === undefined ? {} : { redactor: options.redactor }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  };
  return new HTTP_TRANSPORTS[server.transport](http);
}

/** What an `auto` transport found the server to speak, once it has connected; undefined for any other transport. */
export function detectedTransport(transport: Transport | undefined): Exclude<TransportKind, "stdio" | "auto"> | undefined {
  if (!(transport instanceof AutoHttpTransport) || transport.kind === undefined) return undefined;
  return transport.kind === "sse" ? "sse" : "http";
}
