// A Client's own trace (ClientOptions.trace): connect() wraps its transport once in a
// TracingTransport whose `message` events go to the sink, and the client's state changes
// become `lifecycle` events — spec 2025-11-25 basic/lifecycle (connecting, ready, close) and
// 2026-07-28 basic/versioning (the era: server/discover answered, or the fallback to
// initialize). Nothing of this runs when the option is unset: the plain path stays as it was.

import { emitTrace, type LifecycleTraceDetail, type TraceEvent, type TraceOrigin, type TraceSink } from "../transport/trace-event.ts";
import { traceTransportName, TracingTransport } from "../transport/tracing.ts";
import type { ClientTransport } from "../transport/transport.ts";
import type { ClientState } from "./client-state.ts";
import type { ProtocolChoice, ProtocolEra } from "./protocol-version.ts";

/** ClientOptions.trace: a sink, or a sink with the server's name its events carry (default: the client's `name`, else ""). */
export type ClientTraceOption = TraceSink | { sink: TraceSink; server?: string };

/** What the server/discover probe got, as seen on the wire. */
interface Probe {
  sent: boolean;
  answer?: string;
}

/** One client's trace: its traced transport and the lifecycle events of its state changes. */
export class ClientTrace {
  readonly #origin: TraceOrigin;
  readonly #sink: TraceSink;
  readonly #startedAt = performance.now();
  readonly #server: string;
  #transport: TracingTransport | undefined;
  #probe: Probe = { sent: false };

  constructor(option: ClientTraceOption, name: string | undefined) {
    const sink = typeof option === "function" ? option : option.sink;
    this.#server = (typeof option === "function" ? undefined : option.server) ?? name ?? "";
    this.#sink = (event) => {
      if (event.kind === "message") this.#watchProbe(event);
      sink(event);
    };
    this.#origin = {
      sink,
      startedAt: this.#startedAt,
      server: this.#server,
      transport: () => this.#transport === undefined ? "memory" : traceTransportName(this.#transport),
    };
  }

  /** `transport` traced: its messages become `message` events (once, at connect). */
  wrap(transport: ClientTransport): ClientTransport {
    const traced = new TracingTransport(transport, undefined, { sink: this.#sink, server: this.#server, startedAt: this.#startedAt });
    this.#transport = traced;
    return traced;
  }

  #watchProbe(event: Extract<TraceEvent, { kind: "message" }>): void {
    if (event.method !== "server/discover") return;
    if (event.dir === "send" && event.answers === undefined) this.#probe = { sent: true };
    else if (event.dir === "receive" && event.answers !== undefined) {
      const error = (event.message as { error?: { code?: unknown; message?: unknown } }).error;
      this.#probe.answer = error === undefined ? "answered" : `answered error ${String(error.code)} ${JSON.stringify(String(error.message ?? ""))}`;
    }
  }

  /** The lifecycle event of a move to `to` (with the era and protocol version once ready). */
  moved(to: ClientState, cause: Error | undefined, era: ProtocolEra | undefined, protocolVersion: string | undefined, choice: ProtocolChoice): void {
    if (to === "connecting") this.#emit({ kind: "lifecycle", phase: "connecting", attempt: 1 });
    else if (to === "ready") {
      const detail: LifecycleTraceDetail = { kind: "lifecycle", phase: "era", reason: this.#eraReason(era, choice) };
      if (era !== undefined) detail.era = era;
      if (protocolVersion !== undefined) detail.protocolVersion = protocolVersion;
      this.#emit(detail);
      this.#emit({ kind: "lifecycle", phase: "ready" });
    } else if (to === "failed") this.#emit({ kind: "lifecycle", phase: "failed", reason: cause?.message ?? "the connection failed" });
    else if (to === "closed") this.#emit({ kind: "lifecycle", phase: "close", reason: "closed by the client" });
  }

  /** Why the connection speaks `era`: what server/discover got, or that the era was pinned or remembered. */
  #eraReason(era: ProtocolEra | undefined, choice: ProtocolChoice): string {
    const probe = this.#probe;
    if (choice !== "auto") return `no probe: pinned by the protocol option (${choice})`;
    if (!probe.sent) {
      return this.#origin.transport() === "sse"
        ? "the legacy HTTP+SSE transport (2024-11-05) speaks only the initialize handshake"
        : "no probe: the era cache remembered it";
    }
    if (era === "modern") return "server/discover answered: the 2026-07-28 stateless wire";
    return `server/discover ${probe.answer ?? "got no answer"}; fell back to the initialize handshake (spec 2026-07-28 basic/versioning)`;
  }

  #emit(detail: LifecycleTraceDetail): void {
    // A reason may quote an error message: redacted as the transport redacts its messages.
    if (detail.reason !== undefined && this.#transport !== undefined) detail.reason = this.#transport.redact(detail.reason);
    emitTrace(this.#origin, detail);
  }
}
