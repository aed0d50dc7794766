// Telemetry made of @opentelemetry/api: what telemetry.ts loads when telemetry is turned on (and
// only then: a bundle of the root entry leaves it out) — OpenTelemetry semantic conventions for
// MCP (gen-ai/mcp.md), "Recording errors"; spec 2026-07-28 basic/index ("OpenTelemetry trace context").

import { messageOf } from "../common/error-text.ts";
import { redactedJson, redactText } from "../common/redact.ts";
import type { Params, Peer } from "../jsonrpc/peer.ts";
import { networkOf, tracedInput, tracePeer } from "./client-telemetry.ts";
import {
  type OtelApi,
  type PhaseSpan,
  SPAN_KIND,
  STATUS_ERROR,
  type Telemetry,
  type TelemetryAttributes,
  type TelemetryContext,
  TelemetryError,
  type TelemetryOptions,
  type TelemetrySpan,
  type TelemetryTracer,
  type TracedConnection,
} from "./telemetry.ts";

/** Most characters of captured arguments or results on a span; the rest is cut, marked. */
const CAPTURED_CHARS = 100_000;

/** Telemetry (telemetry.ts) made of @opentelemetry/api: spans started on the tracer, every attribute redacted. */
class OtelTelemetry implements Telemetry {
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

  /**
   * A JSON value as a redacted attribute (captured contents only), redacted as a terminal shows
   * it (a JSON document inside a tool's text included: common/redact.ts redactedJson) and at
   * most CAPTURED_CHARS characters.
   */
  json(value: unknown): string {
    return redactedJson(value === undefined ? null : value, this.#redact, { maxChars: CAPTURED_CHARS }).text;
  }

  /** The text as it may go on a span. */
  redact(text: string): string {
    return this.#redact(text);
  }

  tracePeer(peer: Peer, connection: TracedConnection): void {
    tracePeer(peer, this, connection);
  }

  tracedInput<T>(request: { method: string; params?: Params }, version: string | undefined, answer: () => Promise<T>): Promise<T> {
    return tracedInput(this, request, version, answer);
  }

  connectSpan(transport: { description: string }, attributes: TelemetryAttributes, parent: TelemetryContext | undefined): PhaseSpan {
    return this.#phase("mcp connect", SPAN_KIND.client, { ...attributes, ...networkOf(transport) }, parent);
  }

  taskSpan(taskId: string, tool: string | undefined, parent: TelemetryContext | undefined): PhaseSpan {
    return this.#phase(`mcp task ${tool ?? taskId}`, SPAN_KIND.internal, { "mcp.task.id": taskId, "gen_ai.tool.name": tool }, parent);
  }

  #phase(name: string, kind: number, attributes: TelemetryAttributes, given: TelemetryContext | undefined): PhaseSpan {
    const parent = given ?? this.active();
    const span = this.start(name, kind, attributes, parent);
    return {
      context: this.within(parent, span),
      event: (event, eventAttributes) => this.event(span, event, eventAttributes),
      end: (ending = {}) => {
        for (const [key, value] of Object.entries(ending)) this.set(span, key, value);
        span.end();
      },
      fail: (error) => this.fail(span, error),
      ends: (outcome) =>
        outcome.then(
          (result) => {
            span.end();
            return result;
          },
          (error: unknown) => {
            this.fail(span, error);
            throw error;
          },
        ),
    };
  }

  #clean(attributes: TelemetryAttributes): TelemetryAttributes {
    const clean: TelemetryAttributes = {};
    for (const [key, value] of Object.entries(attributes)) {
      if (value !== undefined) clean[key] = typeof value === "string" ? this.#redact(value) : value;
    }
    return clean;
  }
}

/** The package name, in a variable: bundlers and type checkers do not follow it, so it stays optional. */
const OTEL_API = "@opentelemetry/api";
let loading: Promise<OtelApi> | undefined;

/**
 * @opentelemetry/api, imported on first use (telemetry on) and kept; a TelemetryError naming
 * the package when it is not installed. `who` says what turned telemetry on.
 */
function loadOtelApi(who: string): Promise<OtelApi> {
  // The namespace (its named exports: ROOT_CONTEXT, createTraceState); a CommonJS build's under `default`.
  // From JSR no package.json resolves the bare name: the npm: specifier is tried next (where it
  // means nothing, as on Node, the first failure is the one reported).
  loading ??= import(OTEL_API)
    .catch((error: unknown) => import(`npm:${OTEL_API}`).catch(() => Promise.reject(error)))
    .then((module: Record<string, unknown>) => ("trace" in module ? module : module.default) as OtelApi);
  return loading.catch((error: unknown) => {
    loading = undefined;
    throw new TelemetryError(
      `${who}: telemetry is on, but @opentelemetry/api could not be loaded (${messageOf(error)}); ` +
        `install it beside mcpwire (npm install @opentelemetry/api) or turn telemetry off`,
      { cause: error },
    );
  });
}

/** The Telemetry of the options, @opentelemetry/api loaded; `redact` (a host's) or redactText's shapes. */
export async function loadTelemetry(options: TelemetryOptions, who: string, redact: ((text: string) => string) | undefined): Promise<Telemetry> {
  return new OtelTelemetry(await loadOtelApi(who), options, redact ?? redactText);
}
