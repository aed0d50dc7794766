// The trace of one server's connections (trace-event.ts): its transports are traced through
// the factory (messages, HTTP, process), and its `lifecycle` events are made here, from the
// Client's state changes — spec 2025-11-25 basic/lifecycle (connecting, ready, close) and
// 2026-07-28 basic/versioning (the era: server/discover answered, or the fallback to initialize).

import type { Client } from "../../client/client.ts";
import { messageOf } from "../../common/error-text.ts";
import { clipLine } from "../../common/preview.ts";
import type { Redactor } from "../../common/redact.ts";
import {
  emitTrace,
  type LifecycleTraceDetail,
  type TraceEvent,
  type TraceOrigin,
  type TraceSink,
  type TraceTransportName,
} from "../../transport/trace-event.ts";
import type { TransportTrace } from "./transport-factory.ts";

/** What the server/discover probe of the connection being made got, as seen on the wire. */
interface Probe {
  sent: boolean;
  /** `answered`, or the JSON-RPC error it got. */
  answer?: string;
}

/** The trace of one server: the sink its transports report to, and its lifecycle events. */
export class ServerTrace {
  readonly #trace: TransportTrace;
  readonly #redactor: Redactor | undefined;
  /** The transport the last event went over (lifecycle events name it too). */
  #transport: TraceTransportName;
  #probe: Probe = { sent: false };
  readonly #origin: TraceOrigin;

  /** `transport`: the server's transport as configured, until an event names the one in use. */
  constructor(trace: TransportTrace, transport: TraceTransportName, redactor?: Redactor) {
    this.#redactor = redactor;
    this.#transport = transport === "http" ? "streamable-http" : transport;
    const sink: TraceSink = (event) => {
      this.#transport = event.transport;
      if (event.kind === "message") this.#watchProbe(event);
      else if (event.kind === "http") this.#watchRefusal(event);
      trace.sink(event);
    };
    this.#trace = { ...trace, sink };
    this.#origin = { sink: trace.sink, startedAt: trace.startedAt, server: trace.server, transport: () => this.#transport };
  }

  /** What to give the transport factory (`trace`): events pass through here on their way to the sink. */
  get transportTrace(): TransportTrace {
    return this.#trace;
  }

  #watchProbe(event: Extract<TraceEvent, { kind: "message" }>): void {
    if (event.method !== "server/discover") return;
    if (event.dir === "send" && event.answers === undefined) {
      this.#probe = { sent: true };
      return;
    }
    if (event.dir !== "receive" || event.answers === undefined) return;
    const message = event.message as { error?: { code?: unknown; message?: unknown } };
    this.#probe.answer = message.error === undefined
      ? "answered"
      : `answered error ${String(message.error.code)} ${JSON.stringify(String(message.error.message ?? ""))}`;
  }

  /** Over HTTP the probe may be refused by status, without a JSON-RPC answer: the status and body say why. */
  #watchRefusal(event: Extract<TraceEvent, { kind: "http" }>): void {
    const probe = this.#probe;
    if (!probe.sent || probe.answer !== undefined && !probe.answer.startsWith("was refused with HTTP")) return;
    if (event.phase === "response" && event.status >= 400) probe.answer = `was refused with HTTP ${event.status}`;
    else if (event.phase === "body" && probe.answer === `was refused with HTTP ${event.status}`) probe.answer += `: ${clipLine(event.body, 200)}`;
  }

  #emit(detail: LifecycleTraceDetail): void {
    if (detail.reason !== undefined && this.#redactor !== undefined) detail.reason = this.#redactor.redact(detail.reason);
    emitTrace(this.#origin, detail);
  }

  /**
   * Follows one connect of `client`: `connecting` now, then `era` and `ready`, or `failed`,
   * and `close`. `eraSource` says where a pinned or remembered era came from (no probe then).
   */
  watch(client: Client, attempt: number, eraSource: string | undefined): void {
    this.#probe = { sent: false };
    this.#emit({ kind: "lifecycle", phase: "connecting", attempt });
    const stop = client.on("statechange", ({ to, cause }) => {
      if (to === "ready") {
        const era = client.era;
        const detail: LifecycleTraceDetail = { kind: "lifecycle", phase: "era", reason: this.#eraReason(era, eraSource) };
        if (era !== undefined) detail.era = era;
        if (client.protocolVersion !== undefined) detail.protocolVersion = client.protocolVersion;
        this.#emit(detail);
        this.#emit({ kind: "lifecycle", phase: "ready" });
      } else if (to === "failed") {
        this.#emit({ kind: "lifecycle", phase: "failed", reason: cause === undefined ? "the connection failed" : messageOf(cause) });
        stop();
      } else if (to === "closed") {
        this.#emit({ kind: "lifecycle", phase: "close", reason: "closed by the client" });
        stop();
      }
    });
  }

  /** Why the connection speaks `era`: what server/discover got, or where the era came from without a probe. */
  #eraReason(era: "modern" | "legacy" | undefined, eraSource: string | undefined): string {
    const probe = this.#probe;
    if (era === "modern") {
      return probe.sent ? "server/discover answered: the 2026-07-28 stateless wire" : `no probe: ${eraSource ?? "the era cache remembered it"}`;
    }
    if (probe.sent) {
      const answer = probe.answer ?? "got no JSON-RPC answer (see the http events)";
      return `server/discover ${answer}; fell back to the initialize handshake (spec 2026-07-28 basic/versioning)`;
    }
    if (this.#transport === "sse") return "the legacy HTTP+SSE transport (2024-11-05) speaks only the initialize handshake";
    return `no probe: ${eraSource ?? "the era cache remembered the initialize handshake for this server"}`;
  }

  /** The connection was lost; a new one is being made. */
  reconnect(reason: string): void {
    this.#emit({ kind: "lifecycle", phase: "reconnect", reason });
  }
}
