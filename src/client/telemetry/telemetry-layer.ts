// Telemetry made of @opentelemetry/api: `openTelemetry(options)`, the value a Client is given
// (`new Client(info, { telemetry: openTelemetry() })`, exported by `mcpwire/telemetry`), and
// startTelemetry for the host and the Runner, which import it — OpenTelemetry semantic
// conventions for MCP (gen-ai/mcp.md), "Recording errors"; spec 2026-07-28 basic/index
// ("OpenTelemetry trace context"). Nothing of this is in a bundle that does not import it: the
// client core imports only telemetry.ts's types.

import { messageOf } from "../../common/error-text.ts";
import { redactedJson, redactText } from "../../common/redact.ts";
import type { Middleware } from "../../jsonrpc/middleware.ts";
import type { Params } from "../../jsonrpc/peer.ts";
import {
  type OtelApi,
  type PhaseSpan,
  SPAN_KIND,
  STATUS_ERROR,
  type Telemetry,
  type TelemetryAttributes,
  type TelemetryContext,
  TelemetryError,
  type TelemetryOption,
  type TelemetryOptions,
  type TelemetryProvider,
  type TelemetrySpan,
  type TelemetryTracer,
  type TracedConnection,
} from "../telemetry.ts";
import { networkOf, telemetryLink, tracedInput } from "./telemetry-link.ts";

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

  link(connection: TracedConnection): Middleware {
    return telemetryLink(this, connection);
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

let loading: Promise<OtelApi> | undefined;

/**
 * @opentelemetry/api (an optional peer dependency), imported on first use and kept; a
 * TelemetryError naming the package when it is not installed. `who` says what turned telemetry
 * on. The specifier is a literal, so a bundler of a page that imports openTelemetry finds and
 * bundles the API (and leaves the import as it is when the package is not installed); deno
 * publish rewrites it to the npm: specifier of package.json.
 */
function loadOtelApi(who: string): Promise<OtelApi> {
  // The namespace (its named exports: ROOT_CONTEXT, createTraceState); a CommonJS build's under `default`.
  loading ??= import("@opentelemetry/api").then((module: Record<string, unknown>) => ("trace" in module ? module : module.default) as OtelApi);
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
 * OpenTelemetry for a Client: `new Client(info, { telemetry: openTelemetry() })` reports to the
 * global tracer of @opentelemetry/api (loaded by connect(); a TelemetryError when it is not
 * installed), `openTelemetry({ tracer, capture, redact })` to the tracer given (docs/telemetry.md).
 */
export function openTelemetry(options: TelemetryOptions = {}): TelemetryProvider {
  return {
    start: async (who, redact) => new OtelTelemetry(await loadOtelApi(who), options, redact ?? redactText),
  };
}

/**
 * The Telemetry of a host's or a Runner's option, @opentelemetry/api loaded: undefined when
 * telemetry is off (nothing is imported then). `redact` is the caller's redactor (a host's);
 * redactText's shapes otherwise.
 */
export async function startTelemetry(option: TelemetryOption | undefined, who: string, redact?: (text: string) => string): Promise<Telemetry | undefined> {
  if (option === undefined || option === false) return undefined;
  return await openTelemetry(option === true ? {} : option).start(who, redact);
}
