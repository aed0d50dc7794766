// OpenTelemetry, seen through the few methods mcpwire uses of a Tracer, a Span and a Context, so
// that no public type is OpenTelemetry's and nothing imports @opentelemetry/api until telemetry
// is turned on (then once, with a dynamic import) — spec 2026-07-28 basic/index ("OpenTelemetry
// trace context"); OpenTelemetry semantic conventions for MCP (gen-ai/mcp.md). docs/telemetry.md.

import { McpwireError } from "../common/mcpwire-error.ts";
import { messageOf } from "../common/error-text.ts";
import { redactText } from "../common/redact.ts";

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

/** `telemetry` of ClientOptions, the host config and RunnerOptions: true for the global tracer, or the options. */
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

/** The package name, in a variable: bundlers and type checkers do not follow it, so it stays optional. */
const OTEL_API = "@opentelemetry/api";
let loading: Promise<OtelApi> | undefined;

/**
 * @opentelemetry/api, imported on first use (telemetry on) and kept; a TelemetryError naming
 * the package when it is not installed. `who` says what turned telemetry on.
 */
export function loadOtelApi(who: string): Promise<OtelApi> {
  // The namespace (its named exports: ROOT_CONTEXT, createTraceState); a CommonJS build's under `default`.
  loading ??= import(OTEL_API).then((module: Record<string, unknown>) => ("trace" in module ? module : module.default) as OtelApi);
  return loading.catch((error: unknown) => {
    loading = undefined;
    throw new TelemetryError(
      `${who}: telemetry is on, but @opentelemetry/api could not be loaded (${messageOf(error)}); ` +
        `install it beside mcpwire (npm install @opentelemetry/api) or turn telemetry off`,
      { cause: error },
    );
  });
}

/**
 * Telemetry turned on: the API, the tracer, what is captured and the redactor every attribute
 * passes through. One per Client (or Runner); made by `startTelemetry` after the API loaded.
 */
export class Telemetry {
  readonly api: OtelApi;
  readonly tracer: TelemetryTracer;
  readonly captureArguments: boolean;
  readonly captureResults: boolean;
  readonly #redact: (text: string) => string;

  constructor(api: OtelApi, options: TelemetryOptions, redact: (text: string) => string) {
    this.api = api;
    this.tracer = options.tracer ?? api.trace.getTracer("mcpwire");
    this.captureArguments = options.capture?.arguments === true;
    this.captureResults = options.capture?.results === true;
    const given = options.redact;
    this.#redact = given === undefined ? redact : (text) => redact(given(text));
  }

  /** The context active now (read once, at a call's start). */
  active(): TelemetryContext {
    return this.api.context.active();
  }

  /** Starts a span under `parent` (default: the active context), its string attributes redacted. */
  start(name: string, kind: number, attributes: TelemetryAttributes, parent?: TelemetryContext): TelemetrySpan {
    return this.tracer.startSpan(this.#redact(name), { kind, attributes: this.#clean(attributes) }, parent ?? this.active());
  }

  /** `parent` with `span` as its current span: the context of what runs inside the span. */
  within(parent: TelemetryContext | undefined, span: TelemetrySpan): TelemetryContext {
    return this.api.trace.setSpan(parent ?? this.active(), span);
  }

  /** Sets one attribute, redacted. */
  set(span: TelemetrySpan, key: string, value: string | number | boolean | undefined): void {
    if (value !== undefined) span.setAttribute(key, typeof value === "string" ? this.#redact(value) : value);
  }

  /** Adds an event, its attributes redacted. */
  event(span: TelemetrySpan, name: string, attributes: TelemetryAttributes = {}): void {
    span.addEvent(name, this.#clean(attributes));
  }

  /**
   * Ends the span as failed: `error.type` (an error's `code`, else its class name) and the
   * status message, redacted — OpenTelemetry "Recording errors".
   */
  fail(span: TelemetrySpan, error: unknown): void {
    const code = (error as { code?: unknown } | null)?.code;
    const type = typeof code === "string" ? code : error instanceof Error ? error.name : "_OTHER";
    span.setAttribute("error.type", this.#redact(type));
    span.setStatus({ code: STATUS_ERROR, message: this.#redact(messageOf(error)) });
    span.end();
  }

  /** A JSON value as a redacted attribute (captured contents only). */
  json(value: unknown): string {
    let text: string;
    try {
      text = JSON.stringify(value) ?? "null";
    } catch {
      text = "[not JSON]";
    }
    return this.#redact(text);
  }

  /** The text as it may go on a span. */
  redact(text: string): string {
    return this.#redact(text);
  }

  #clean(attributes: TelemetryAttributes): TelemetryAttributes {
    const clean: TelemetryAttributes = {};
    for (const [key, value] of Object.entries(attributes)) {
      if (value !== undefined) clean[key] = typeof value === "string" ? this.#redact(value) : value;
    }
    return clean;
  }
}

/**
 * The Telemetry of an option, the API loaded: undefined when telemetry is off (nothing is
 * imported then). `redact` is the caller's redactor (a host's); redactText's shapes otherwise.
 */
export async function startTelemetry(
  option: TelemetryOption | undefined,
  who: string,
  redact: (text: string) => string = redactText,
): Promise<Telemetry | undefined> {
  if (option === undefined || option === false) return undefined;
  const api = await loadOtelApi(who);
  return new Telemetry(api, option === true ? {} : option, redact);
}
