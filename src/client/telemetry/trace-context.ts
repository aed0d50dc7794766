// W3C trace context in a request's `_meta` — spec 2026-07-28 basic/index ("OpenTelemetry trace
// context": the keys traceparent, tracestate and baggage are reserved there, in the W3C Trace
// Context and W3C Baggage formats); OpenTelemetry semantic conventions for MCP ("Context
// propagation": instrumentations SHOULD propagate trace context inside params._meta).

import type { OtelApi, TelemetryContext, TelemetrySpan } from "../telemetry.ts";
import type { JsonObject } from "../types.ts";

/** W3C Trace Context: version 00, trace id, parent id, flags (all lowercase hex). */
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
/** Longest tracestate taken from a server (W3C Trace Context: 512 characters are enough to keep). */
const MAX_TRACESTATE = 512;

/** The `_meta` trace fields for a request sent inside `span` (its context `context`, for the baggage). */
export function traceFields(api: OtelApi, span: TelemetrySpan, context: TelemetryContext): JsonObject {
  const { traceId, spanId, traceFlags, traceState } = span.spanContext();
  const fields: JsonObject = { traceparent: `00-${traceId}-${spanId}-${(traceFlags & 0xff).toString(16).padStart(2, "0")}` };
  const state = traceState?.serialize();
  if (state !== undefined && state !== "") fields.tracestate = state;
  const baggage = api.propagation.getBaggage(context)?.getAllEntries();
  if (baggage !== undefined && baggage.length > 0) {
    // W3C Baggage: key=value pairs, comma-separated, values percent-encoded.
    fields.baggage = baggage.map(([key, entry]) => `${encodeURIComponent(key)}=${encodeURIComponent(entry.value)}`).join(",");
  }
  return fields;
}

/**
 * The context a server's request asks to be handled in: the remote span of its `_meta`
 * traceparent (and tracestate) under `base`, or undefined when it carries none (or a malformed one).
 */
export function remoteParent(api: OtelApi, meta: unknown, base: TelemetryContext): TelemetryContext | undefined {
  if (typeof meta !== "object" || meta === null) return undefined;
  const { traceparent, tracestate } = meta as Record<string, unknown>;
  const match = typeof traceparent === "string" ? TRACEPARENT.exec(traceparent) : null;
  if (match === null || /^0+$/.test(match[1]!) || /^0+$/.test(match[2]!)) return undefined;
  const state = typeof tracestate === "string" && tracestate.length <= MAX_TRACESTATE && api.createTraceState !== undefined
    ? api.createTraceState(tracestate)
    : undefined;
  const span = api.trace.wrapSpanContext({
    traceId: match[1]!,
    spanId: match[2]!,
    traceFlags: parseInt(match[3]!, 16),
    isRemote: true,
    ...(state !== undefined ? { traceState: state } : {}),
  });
  return api.trace.setSpan(base, span);
}
