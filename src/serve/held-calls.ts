// A handshake-era backend's sampling, elicitation or roots request, for a 2026-07-28 host: the
// translation between the two eras' ways of asking the client mid-call — spec 2025-11-25
// client/sampling, client/elicitation, client/roots (the server sends a request and waits) and
// spec 2026-07-28 basic/patterns/mrtr (the server answers `input_required`; the client retries
// with `inputResponses` and the echoed `requestState`).
//
// The host's tools/call (prompts/get, resources/read) goes to the backend as a HeldCall. When the
// backend asks something, the host's request is answered `input_required`: the backend's
// requests as `inputRequests`, and a `requestState` that names this held call. The backend's call
// and its requests stay pending, held here, until the host's retry brings that state back: its
// `inputResponses` answer the held requests, and the call goes on to its result or the next
// question. A held call waits at most `holdMs` for the retry (then its requests fail and the
// backend's call is cancelled); at most `maxHeld` wait at once.

import { RpcError } from "../jsonrpc/errors.ts";
import type { Params } from "../jsonrpc/peer.ts";
import type { ServerRequestContext } from "../server/server-handlers.ts";
import type { Caller } from "./host-forwarders.ts";

/** How long a held call waits for the host's retry, by default. */
export const DEFAULT_HOLD_MS = 120_000;
/** How many held calls wait at once, by default. */
export const DEFAULT_MAX_HELD = 64;
/** What marks a requestState as the bridge's own (not a 2026-07-28 backend's, which passes through untouched). */
const STATE_PREFIX = "mcpwire-serve/held/";

type Outcome = { ok: true; value: Params } | { ok: false; error: unknown };

interface Ask {
  method: string;
  params: Params | undefined;
  resolve(result: Params): void;
  reject(error: Error): void;
}

/** One backend call of a 2026-07-28 host, with the requests the backend asked and no host has answered yet. */
export class HeldCall implements Caller {
  /** Cancels the backend's call (the host cancelled, or the hold ran out). */
  readonly controller = new AbortController();
  #context: ServerRequestContext | undefined;
  readonly #asks = new Map<string, Ask>();
  #next = 1;
  #wake: (() => void) | undefined;
  #result: Outcome | undefined;

  /** Starts the backend call; its outcome is kept for the host request current when it comes. */
  run(call: (signal: AbortSignal) => Promise<Params>): void {
    call(this.controller.signal).then(
      (value) => this.#settle({ ok: true, value }),
      (error: unknown) => this.#settle({ ok: false, error }),
    );
  }

  ask(method: string, params: Params | undefined, signal: AbortSignal): Promise<Params> {
    const key = `${method.slice(0, method.indexOf("/"))}-${this.#next++}`;
    return new Promise<Params>((resolve, reject) => {
      this.#asks.set(key, { method, params, resolve, reject });
      signal.addEventListener("abort", () => {
        if (this.#asks.delete(key)) reject(new RpcError("the backend cancelled its request", -32800));
      }, { once: true });
      this.#wake?.();
    });
  }

  context(): ServerRequestContext | undefined {
    return this.#context;
  }

  /** The host's retry: each `inputResponses` entry answers the held request of its key (spec mrtr "Client Requirements" 1). */
  answer(inputResponses: unknown): void {
    if (typeof inputResponses !== "object" || inputResponses === null) return;
    for (const [key, response] of Object.entries(inputResponses as Record<string, unknown>)) {
      const ask = this.#asks.get(key);
      if (ask === undefined || typeof response !== "object" || response === null || Array.isArray(response)) continue;
      this.#asks.delete(key);
      ask.resolve(response as Params);
    }
  }

  /**
   * Serves one host request of this call: its result when the backend answers, or an
   * `input_required` result when the backend asks something first (`hold` keeps the call for the
   * retry and names it). The host's cancellation of this request cancels the backend's call.
   */
  async serve(context: ServerRequestContext, hold: (call: HeldCall) => string): Promise<Params> {
    this.#context = context;
    const cancel = () => this.controller.abort(context.signal.reason);
    context.signal.addEventListener("abort", cancel, { once: true });
    try {
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
        if (this.#result !== undefined || this.#asks.size > 0) resolve();
      });
      this.#wake = undefined;
      if (this.#result === undefined) {
        // Requests sent together are asked together: one turn for the rest of them to arrive.
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      const result = this.#result;
      if (result !== undefined) {
        // Answered: a request it left unanswered is withdrawn.
        for (const ask of this.#asks.values()) ask.reject(new RpcError("the backend answered the call without waiting for this", -32603));
        this.#asks.clear();
        if (result.ok) return result.value;
        throw result.error;
      }
      const inputRequests: Params = {};
      for (const [key, { method, params }] of this.#asks) inputRequests[key] = params === undefined ? { method } : { method, params };
      return { resultType: "input_required", inputRequests, requestState: hold(this) };
    } finally {
      this.#wake = undefined;
      context.signal.removeEventListener("abort", cancel);
      this.#context = undefined;
    }
  }

  /** The hold ran out or the bridge closed: every held request fails, the backend's call is cancelled. */
  end(reason: string): void {
    for (const ask of this.#asks.values()) ask.reject(new RpcError(reason, -32603));
    this.#asks.clear();
    this.controller.abort(new Error(reason));
  }

  #settle(result: Outcome): void {
    this.#result = result;
    this.#wake?.();
  }
}

/** The held calls of a bridge, by the requestState each was given. */
export class HeldCalls {
  readonly #held = new Map<string, { call: HeldCall; timer: ReturnType<typeof setTimeout> }>();
  readonly #holdMs: number;
  readonly #maxHeld: number;

  constructor(limits: { holdMs?: number; maxHeld?: number } = {}) {
    this.#holdMs = limits.holdMs ?? DEFAULT_HOLD_MS;
    this.#maxHeld = limits.maxHeld ?? DEFAULT_MAX_HELD;
  }

  /** Keeps `call` for its retry; returns the requestState that names it. */
  hold(call: HeldCall): string {
    if (this.#held.size >= this.#maxHeld) {
      const reason = `mcpwire serve: ${this.#maxHeld} calls already wait for their hosts' answers; this backend's request cannot be held`;
      call.end(reason);
      throw new RpcError(reason, -32603);
    }
    const state = `${STATE_PREFIX}${crypto.randomUUID()}`;
    const timer = setTimeout(() => {
      this.#held.delete(state);
      call.end(`mcpwire serve: the host did not answer within ${Math.round(this.#holdMs / 1000)} s; the backend's request is withdrawn`);
    }, this.#holdMs);
    this.#held.set(state, { call, timer });
    return state;
  }

  /** Whether `requestState` is one the bridge gave (held or expired), not a backend's own. */
  static isOurs(requestState: unknown): requestState is string {
    return typeof requestState === "string" && requestState.startsWith(STATE_PREFIX);
  }

  /** The call a retry's requestState names, taken (a state is good for one retry); undefined when it ran out. */
  take(requestState: string): HeldCall | undefined {
    const entry = this.#held.get(requestState);
    if (entry === undefined) return undefined;
    clearTimeout(entry.timer);
    this.#held.delete(requestState);
    return entry.call;
  }

  close(): void {
    for (const { call, timer } of this.#held.values()) {
      clearTimeout(timer);
      call.end("mcpwire serve is closing");
    }
    this.#held.clear();
  }
}
