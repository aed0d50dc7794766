// An in-memory OpenTelemetry tracer for the telemetry tests (@opentelemetry/sdk-trace-base's
// InMemorySpanExporter), and helpers to read the span tree it recorded.

import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import type { TelemetryTracer } from "../../src/client/telemetry.ts";

export type { ReadableSpan };

export interface SpanRecorder {
  tracer: TelemetryTracer;
  /** Every span ended so far. */
  spans(): ReadableSpan[];
  /** The span with this id. */
  byId(spanId: string): ReadableSpan | undefined;
  /** The parent span id of a span, or undefined for a root. */
  parentOf(span: ReadableSpan): string | undefined;
  /** Every attribute value (and event attribute value, and status message) of every span, as text. */
  allText(): string[];
}

export function spanRecorder(): SpanRecorder {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const spans = () => exporter.getFinishedSpans();
  return {
    tracer: provider.getTracer("mcpwire-tests"),
    spans,
    byId: (spanId) => spans().find((span) => span.spanContext().spanId === spanId),
    parentOf: (span) => (span as { parentSpanContext?: { spanId: string } }).parentSpanContext?.spanId,
    allText: () =>
      spans().flatMap((span) => [
        span.name,
        span.status.message ?? "",
        ...Object.values(span.attributes).map(String),
        ...span.events.flatMap((event) => [event.name, ...Object.values(event.attributes ?? {}).map(String)]),
      ]),
  };
}

/** The span id of a W3C traceparent (its parent-id field). */
export function spanIdOf(traceparent: string): string {
  const match = /^00-[0-9a-f]{32}-([0-9a-f]{16})-[0-9a-f]{2}$/.exec(traceparent);
  if (match === null) throw new Error(`not a W3C traceparent: ${traceparent}`);
  return match[1]!;
}
