// The transport for a server description — stdio, Streamable HTTP, legacy HTTP+SSE, or `auto`
// (spec 2025-11-25 basic/transports, "Backwards Compatibility": Streamable HTTP first, the
// legacy SSE transport when the server refuses it). Shared by the manager and `mcpwire inspect`.

import { eraCacheKey } from "../../client/era-cache.ts";
import type { Redactor } from "../../common/redact.ts";
import { AutoHttpTransport } from "../../transport/auto-http.ts";
import { SseLegacyTransport } from "../../transport/sse-legacy.ts";
import { StdioTransport, type StdioTransportOptions } from "../../transport/stdio.ts";
import { StreamableHttpTransport } from "../../transport/streamable-http/mod.ts";
import { emitTrace, type HttpObserver, type ProcessObserver, type ProcessTraceDetail, type TraceOrigin, type TraceSink } from "../../transport/trace-event.ts";
import { traceTransportName, TracingTransport } from "../../transport/tracing.ts";
import type { Transport } from "../../transport/transport.ts";
import type { ServerConfig, TransportKind } from "../config/types.ts";
import { childEnvironment } from "../env.ts";
import { sandboxedSpawn, type SandboxOutcome } from "../sandbox/sandboxed-spawn.ts";

/**
 * How to reach a server: a ServerConfig will do. A stdio server needs `command`, the others a
 * `url` (an http:// or https:// URL); the keys of the other kind are ignored.
 */
export type TransportDescription =
  & Pick<ServerConfig, "transport">
  & Partial<Pick<ServerConfig, "name" | "command" | "args" | "env" | "cwd" | "url" | "headers" | "sandbox" | "roots">>;

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
  /**
   * Trace this server (trace-event.ts): its messages, HTTP exchanges or process events go to
   * `sink`, stamped from `startedAt` (`performance.now()` when the session began) and named
   * `server`; `redactor`'s secrets are kept out of them. Default: no trace, nothing observed.
   */
  trace?: TransportTrace;
  /** A stdio server with `sandbox`: told at each start whether it got its sandbox (sandboxed-spawn.ts). */
  onSandbox?: (outcome: SandboxOutcome) => void;
}

/** What a traced transport needs: where events go, the server's name, when the session started. */
export interface TransportTrace {
  sink: TraceSink;
  server: string;
  startedAt: number;
}

/** Every text of a process event passed through the host's redactor (the config's env values may be among the arguments). */
function redactedProcess(detail: ProcessTraceDetail, redactor: Redactor | undefined): ProcessTraceDetail {
  if (redactor === undefined) return detail;
  switch (detail.phase) {
    case "spawn":
      return { ...detail, command: redactor.redact(detail.command) };
    case "spawn-failed":
      return { ...detail, command: redactor.redact(detail.command), error: redactor.redact(detail.error) };
    case "stderr":
      return { ...detail, line: redactor.redact(detail.line) };
    default:
      return detail;
  }
}

/** The transport for `server`, traced as `trace` says: a TracingTransport around it, observing its HTTP or its process. */
function tracedTransport(server: TransportDescription, options: TransportFactoryOptions, trace: TransportTrace): Transport {
  const origin: TraceOrigin = {
    sink: trace.sink,
    startedAt: trace.startedAt,
    server: trace.server,
    // Called only once the transport runs (its observers report), after `inner` is made below.
    transport: () => traceTransportName(inner),
  };
  const redactor = options.redactor;
  const inner = bareTransport(server, options, {
    process: (detail) => emitTrace(origin, redactedProcess(detail, redactor)),
    http: (detail) => emitTrace(origin, detail),
  });
  return new TracingTransport(inner, undefined, {
    sink: trace.sink,
    server: trace.server,
    startedAt: trace.startedAt,
    ...(redactor === undefined ? {} : { redactor }),
  });
}

/** The HTTP transport of each kind: Streamable HTTP, the legacy HTTP+SSE, or the one that tries both. */
const HTTP_TRANSPORTS = {
  http: StreamableHttpTransport,
  sse: SseLegacyTransport,
  auto: AutoHttpTransport,
} as const satisfies Record<Exclude<TransportKind, "stdio">, unknown>;

/**
 * The transport for `server`, not yet started (with `options.trace`: traced, see
 * TransportFactoryOptions.trace). Throws when it lacks its command or url.
 */
export function createTransport(server: TransportDescription, options: TransportFactoryOptions = {}): Transport {
  return options.trace === undefined ? bareTransport(server, options, undefined) : tracedTransport(server, options, options.trace);
}

/** The observers a traced transport reports to. */
interface Observers {
  process: ProcessObserver;
  http: HttpObserver;
}

/**
 * What StdioTransport is given for a stdio `server`: its command and arguments, the whole
 * environment the factory's policy makes from its `env`, its directory, its sandbox (wrapSpawn).
 * `mcpwire check` starts the same process by hand with it (check/stdio-probes.ts).
 */
export function stdioTransportOptions(server: TransportDescription, options: TransportFactoryOptions = {}): StdioTransportOptions {
  if (server.command === undefined || server.command === "") throw new TypeError("a stdio server needs a command");
  const environment = options.childEnvironment ?? childEnvironment;
  return {
    command: server.command,
    args: [...(server.args ?? [])],
    // The factory's childEnvironment made the whole environment: the transport adds nothing.
    env: environment(server.env ?? {}),
    envMode: "exact",
    cwd: server.cwd,
    ...(options.onStderr === undefined ? {} : { onStderr: options.onStderr }),
    // The host's secrets (a `${…TOKEN}` in an argument) stay out of the description and the process events.
    ...(options.redactor === undefined ? {} : { redactor: options.redactor }),
    // issue 29: the server runs in its sandbox (bubblewrap), or does not start.
    ...(server.sandbox === undefined
      ? {}
      : { wrapSpawn: sandboxedSpawn(server.name ?? server.command, server.sandbox, server.roots ?? [], options.onSandbox) }),
  };
}

function bareTransport(server: TransportDescription, options: TransportFactoryOptions, observers: Observers | undefined): Transport {
  if (server.transport === "stdio") {
    const stdio = stdioTransportOptions(server, options);
    return new StdioTransport(observers === undefined ? stdio : { ...stdio, observer: observers.process });
  }
  if (server.url === undefined) throw new TypeError(`an ${server.transport} server needs a url`);
  // The headers (already interpolated) go with every request.
  const http = {
    url: server.url,
    headers: server.headers ?? {},
    ...(options.redactor === undefined ? {} : { redactor: options.redactor }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    ...(observers === undefined ? {} : { observer: observers.http }),
  };
  return new HTTP_TRANSPORTS[server.transport](http);
}

/**
 * Which HTTP transport the server speaks, by the kind the transport names itself (an `auto`
 * one names the kind it chose, a tracing one its inner one's): no instanceof of a transport
 * class outside src/transport/. Undefined for stdio, memory, or an `auto` not yet decided.
 */
export function detectedTransport(transport: Transport | undefined): Exclude<TransportKind, "stdio" | "auto"> | undefined {
  const name = transport === undefined ? undefined : traceTransportName(transport);
  return name === "sse" ? "sse" : name === "streamable-http" ? "http" : undefined;
}

/**
 * The server's key in the era cache (ClientOptions.eraCache, Client.connect's serverKey): its
 * command line and directory, or its URL's origin and path (eraCacheKey).
 */
export function serverKeyOf(server: TransportDescription): string {
  return server.transport === "stdio"
    ? eraCacheKey({ command: server.command ?? "", args: server.args ?? [], ...(server.cwd === undefined ? {} : { cwd: server.cwd }) })
    : eraCacheKey({ url: server.url ?? "" });
}
