// OpenTelemetry, seen through the few methods mcpwire uses of a Tracer, a Span and a Context, so
// that no public type is OpenTelemetry's — spec 2026-07-28 basic/index ("OpenTelemetry trace
// context"); OpenTelemetry semantic conventions for MCP (gen-ai/mcp.md). docs/telemetry.md.
// Telemetry is code a Client is given: `telemetry: openTelemetry(options)` (telemetry/telemetry-layer.ts,
// the `mcpwire/telemetry` entry) is what makes the spans and imports @opentelemetry/api. The
// client core imports only these types: a bundle of the root entry holds no telemetry code.

import { McpwireError } from "../common/mcpwire-error.ts";
import type { Middleware } from "../jsonrpc/middleware.ts";
import type { Params } from "../jsonrpc/peer.ts";

/** Attribute values as OpenTelemetry takes them; undefined ones are left out. */
export type TelemetryAttributes = Record<string, string | number | boolean | undefined>;

/** What mcpwire reads of an OpenTelemetry SpanContext: the W3C trace context of a span. */
export interface TelemetrySpanContext {
  traceId: string;
  spanId: string;
  traceFlags: number;
  traceState?: { serialize(): string };
}

/** What mcpwire uses of an OpenTelemetry Span. */
export interface TelemetrySpan {
  spanContext(): TelemetrySpanContext;
  setAttribute(key: string, value: string | number | boolean): unknown;
  addEvent(name: string, attributes?: TelemetryAttributes): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
}

/** An OpenTelemetry Context: opaque to mcpwire, which only hands it back to the API and the tracer. */
export interface TelemetryContext {
  getValue(key: symbol): unknown;
}

/** What mcpwire uses of an OpenTelemetry Tracer (`trace.getTracer(…)` of @opentelemetry/api is one). */
export interface TelemetryTracer {
  startSpan(name: string, options?: { kind?: number; attributes?: TelemetryAttributes }, context?: TelemetryContext): TelemetrySpan;
}

/** How a Client, a host or a Runner reports to OpenTelemetry (docs/telemetry.md). */
export interface TelemetryOptions {
  /** The tracer spans are started on. Default: `trace.getTracer("mcpwire")` of @opentelemetry/api (the global provider). */
  tracer?: TelemetryTracer;
  /**
   * Contents put on spans, redacted: tool arguments (`mcp.request.arguments`, `gen_ai.tool.call.arguments`)
   * and results (`gen_ai.tool.call.result`). Off by default: a span carries names, ids and sizes only.
   */
  capture?: { arguments?: boolean; results?: boolean };
  /** Runs over every string attribute and event attribute (a host passes its Redactor's). Default: redactText's shapes. */
  redact?: (text: string) => string;
}

/** `telemetry` of McpManagerOptions and RunnerOptions: true for the global tracer, or the options (a Client takes a TelemetryProvider). */
export type TelemetryOption = boolean | TelemetryOptions;

/** The one code of TelemetryError: telemetry is on and @opentelemetry/api could not be loaded. */
export type TelemetryErrorCode = "telemetry-unavailable";

/** Telemetry was turned on and @opentelemetry/api could not be loaded. */
export class TelemetryError extends McpwireError<TelemetryErrorCode> {
  override readonly name: string = "TelemetryError";
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, "telemetry-unavailable", options);
  }
}

/** OpenTelemetry SpanKind values (api/src/trace/span_kind.ts): stable numbers of the API. */
export const SPAN_KIND = { internal: 0, server: 1, client: 2 } as const;
/** OpenTelemetry SpanStatusCode.ERROR. */
export const STATUS_ERROR = 2;

/** What mcpwire uses of @opentelemetry/api's exports, once loaded. */
export interface OtelApi {
  trace: {
    getTracer(name: string, version?: string): TelemetryTracer;
    setSpan(context: TelemetryContext, span: TelemetrySpan): TelemetryContext;
    getSpan(context: TelemetryContext): TelemetrySpan | undefined;
    wrapSpanContext(spanContext: TelemetrySpanContext & { isRemote?: boolean }): TelemetrySpan;
  };
  context: {
    active(): TelemetryContext;
    with<T>(context: TelemetryContext, fn: () => T): T;
  };
  propagation: {
    getBaggage(context: TelemetryContext): { getAllEntries(): [string, { value: string }][] } | undefined;
  };
  createTraceState?: (text: string) => { serialize(): string };
  ROOT_CONTEXT: TelemetryContext;
}

/**
 * Telemetry turned on (telemetry/telemetry-layer.ts): the API, the tracer, what is captured and the
 * redactor every attribute passes through; one per Client (or host, or Runner).
 */
export interface Telemetry {
  readonly api: OtelApi;
  readonly tracer: TelemetryTracer;
  readonly captureArguments: boolean;
  readonly captureResults: boolean;
  /** The context active now (read once, at a call's start). */
  active(): TelemetryContext;
  /** Starts a span under `parent` (default: the active context), its string attributes redacted. */
  start(name: string, kind: number, attributes: TelemetryAttributes, parent?: TelemetryContext): TelemetrySpan;
  /** `parent` with `span` as its current span: the context of what runs inside the span. */
  within(parent: TelemetryContext | undefined, span: TelemetrySpan): TelemetryContext;
  /** Sets one attribute, redacted. */
  set(span: TelemetrySpan, key: string, value: string | number | boolean | undefined): void;
  /** Adds an event, its attributes redacted. */
  event(span: TelemetrySpan, name: string, attributes?: TelemetryAttributes): void;
  /** Ends the span as failed: `error.type` and the status message, redacted. */
  fail(span: TelemetrySpan, error: unknown): void;
  /** A JSON value as a redacted attribute (captured contents only). */
  json(value: unknown): string;
  /** The text as it may go on a span. */
  redact(text: string): string;
  /** The telemetry link of a connection's chain: every request in a client span with its trace context in `_meta` (telemetry/telemetry-link.ts). */
  link(connection: TracedConnection): Middleware;
  /** An input request (2026-07-28 mrtr, a task's input) handled in a SERVER span (telemetry/telemetry-link.ts). */
  tracedInput<T>(request: { method: string; params?: Params }, version: string | undefined, answer: () => Promise<T>): Promise<T>;
  /** The span of a connect(): the era probe, the handshake and initialize are its children. */
  connectSpan(transport: { description: string }, attributes: TelemetryAttributes, parent: TelemetryContext | undefined): PhaseSpan;
  /** The lifetime span of a task polled to its result: its polls are its children. */
  taskSpan(taskId: string, tool: string | undefined, parent: TelemetryContext | undefined): PhaseSpan;
}

/** A span around a phase (a connect, a task's life): its context for what runs inside, events, its end. */
export interface PhaseSpan {
  readonly context: TelemetryContext;
  event(name: string, attributes?: TelemetryAttributes): void;
  /** Ends it, with these attributes set first. */
  end(attributes?: TelemetryAttributes): void;
  /** Ends it as failed. */
  fail(error: unknown): void;
  /** `outcome`, the span ended when it settles (failed when it rejects). */
  ends<T>(outcome: Promise<T>): Promise<T>;
}

/** What the spans of a connection read of it (the ClientConnection), when a span starts or ends. */
export interface TracedConnection {
  /** network.transport (`pipe`, `tcp`) and the server's address are read from it; `sessionId` (Streamable HTTP), once assigned. */
  readonly transport: { description: string; sessionId?: string } | undefined;
  /** The negotiated protocol version, once known. */
  readonly version: string | undefined;
  /** The parent of requests that name none while the connection has its own span (connect); else undefined. */
  readonly connectContext: TelemetryContext | undefined;
}

/**
 * Telemetry given to a Client (`ClientOptions.telemetry`): what `openTelemetry(options)` of
 * `mcpwire/telemetry` makes. connect() starts it once, before anything is sent.
 */
export interface TelemetryProvider {
  /**
   * The Telemetry, its API loaded (a TelemetryError when it cannot be). `who` names the caller
   * in that error; `redact` is a host's redactor (redactText's shapes otherwise).
   */
  start(who: string, redact?: (text: string) => string): Promise<Telemetry>;
}
