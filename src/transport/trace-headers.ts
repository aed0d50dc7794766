// The W3C trace context of a request as HTTP headers: a request whose `_meta` carries a
// traceparent (the Client's telemetry puts it there) is sent with the same values as headers —
// spec 2026-07-28 basic/index ("OpenTelemetry trace context"), W3C Trace Context.

import { isObject } from "../common/json.ts";
import type { JsonRpcMessage } from "../jsonrpc/messages.ts";

/**
 * `headers` plus the W3C trace context headers (`traceparent`, `tracestate`, `baggage`) of a
 * request whose `_meta` carries a traceparent (the telemetry layer puts them there): HTTP tracing
 * sees the POST as part of the request's trace — spec 2026-07-28 basic/index ("OpenTelemetry trace
 * context"), W3C Trace Context ("traceparent Header"). Only header-safe values, at most 8192
 * characters (W3C Baggage's limit); without a traceparent, `headers` as given.
 */
export function withTraceHeaders(
  message: JsonRpcMessage,
  headers: Readonly<Record<string, string>> | undefined,
): Readonly<Record<string, string>> | undefined {
  const meta = "method" in message && "id" in message ? message.params?._meta : undefined;
  if (!isObject(meta) || typeof meta.traceparent !== "string") return headers;
  const traced: Record<string, string> = { ...headers };
  for (const key of ["traceparent", "tracestate", "baggage"]) {
    const value = meta[key];
    if (typeof value === "string" && /^[\x20-\x7e]{1,8192}$/.test(value)) traced[key] = value;
  }
  return traced;
}
