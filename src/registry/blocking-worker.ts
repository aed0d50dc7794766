// A blocking worker, the mechanism of the sync-facing bridge (docs/architecture.md
// "`dispatchSync`"): the calling thread hands a call to a worker thread — in the shared memory when it
// is JSON that fits (the hot path: dispatch's name and arguments), otherwise as a MessagePort
// message — blocks on Atomics.wait over a SharedArrayBuffer until the worker signals, then reads
// the reply: from the shared memory when it is a string that fits (dispatch answers strings),
// otherwise off the port synchronously (receiveMessageOnPort). It knows nothing of MCP: the
// worker runs whatever SyncService it is given.
//
// Why a MessagePort at all: a message carries any structured-cloneable value of any size with
// no buffer to grow or chunk, and both Node and Deno 2 provide receiveMessageOnPort
// (node:worker_threads, behind src/runtime/). The shared memory carries counters (a signal each
// way, a heartbeat, an "ended" flag), one call slot and one reply slot for the call the caller
// waits for (no structured clone, no port message on either side for a JSON call and a string
// reply: less CPU per dispatchSync on both threads, bench/README.md).
// The worker does not wait for calls with a port listener: a message event costs a turn of its
// event loop plus the event machinery; it waits with Atomics.waitAsync on a counter the caller
// bumps after each post, and then takes the messages off its port synchronously.

import { durationText } from "../common/duration.ts";
import { messageOf } from "../common/error-text.ts";
import type { WorkerThread } from "../runtime/mod.ts";
import { runtime } from "../runtime/mod.ts";
import { SyncBridgeError } from "./registry-errors.ts";

/** Slots of the control Int32Array both threads share. */
const SIGNAL = 0; // bumped, then notified, after every message (or slot reply) the worker posts
const BEAT = 1; // bumped by the worker every SYNC_HEARTBEAT_MS while its event loop turns
const ENDED = 2; // set to 1 by the worker as it ends (an uncaught error, or exit)
const REQUEST = 3; // bumped, then notified, by the caller after every message it posts
const CURRENT = 4; // the seq of the call the caller waits for: only its reply may use the slot
const REPLY_SEQ = 5; // the seq whose reply is in the slot, stored after its bytes
const REPLY_BYTES = 6; // the length of that reply, in bytes of UTF-8
const CALL_SEQ = 7; // the seq of the call in the call slot; WRITING while the caller fills it
const CALL_BYTES = 8; // the length of that call's JSON, in bytes of UTF-8
const CONTROL_SLOTS = 12;
const CONTROL_BYTES = CONTROL_SLOTS * Int32Array.BYTES_PER_ELEMENT;
/** The reply slot: a string reply up to this many bytes of UTF-8 skips the MessagePort. */
const REPLY_SLOT_BYTES = 64 * 1024;
/** The call slot: a JSON call (SyncCallOptions.json) up to this many bytes skips the MessagePort. */
const CALL_SLOT_BYTES = 64 * 1024;
/** CALL_SEQ while the caller writes the call slot: a reader that sees it (or a change) retries later. */
const WRITING = -1;

/** Atomics.waitAsync (ES2024): both runtimes have it; the ES2023 lib this compiles against does not declare it. */
const waitAsync = (Atomics as unknown as {
  waitAsync(array: Int32Array, index: number, value: number): { async: false; value: string } | { async: true; value: Promise<string> };
}).waitAsync;

/** How often the worker proves its event loop turns. */
export const SYNC_HEARTBEAT_MS = 100;
/** A worker whose heartbeat stops for this long is declared dead (a hard crash runs no hook). */
export const DEFAULT_SYNC_SILENCE_LIMIT_MS = 5_000;
export const DEFAULT_SYNC_START_TIMEOUT_MS = 60_000;
export const DEFAULT_SYNC_CLOSE_TIMEOUT_MS = 15_000;
/** The caller wakes at least this often while it waits, to look at the heartbeat. */
const WAIT_SLICE_MS = 100;

/** Caller → worker. */
type CallerMessage =
  | { type: "call"; seq: number; body: unknown }
  | { type: "cancel"; seq: number; reason: string }
  | { type: "close"; seq: number };

/** Worker → caller. */
type WorkerMessage =
  | { type: "ready"; ok: true }
  | { type: "ready"; ok: false; message: string }
  | { type: "reply"; seq: number; ok: true; value: unknown }
  | { type: "reply"; seq: number; ok: false; message: string }
  | { type: "ending"; message: string };

/** The workerData of a worker started by SyncWorker.start. */
interface StartData {
  control: SharedArrayBuffer;
  port: MessagePort;
  data: unknown;
}

/** What a blocking call came to. */
export type SyncOutcome =
  /** The worker's service answered. */
  | { kind: "reply"; value: unknown }
  /** The worker's service threw, or the call or its reply could not be passed between threads. */
  | { kind: "failed"; message: string }
  /** No reply within timeoutMs; the worker was told to cancel the call (its signal aborts). */
  | { kind: "timeout"; timeoutMs: number }
  /** The worker is gone (crashed, exited or stopped responding); every later call says so at once. */
  | { kind: "ended"; message: string }
  /** close() was called. */
  | { kind: "closed" };

export interface SyncWorkerOptions {
  /** Handed to the service's start() in the worker; structured-cloneable. */
  data?: unknown;
  /** Bound of SyncWorker.start: the worker's module loading plus its service's start(). Default 60 s. */
  startTimeoutMs?: number;
  /** A worker whose heartbeat stops this long is declared dead and terminated. Default 5 s. */
  silenceLimitMs?: number;
  /** Names the worker in error messages. Default "sync worker". */
  label?: string;
}

export interface SyncCallOptions {
  /** How long to block for the reply. Infinity waits as long as the worker lives. */
  timeoutMs: number;
  /** The reason the worker's signal aborts with on a timeout. */
  cancelReason?: string;
  /**
   * The body is plain JSON (what JSON.stringify keeps is all it holds): it may then cross in
   * the shared memory instead of as a structured-cloned port message, when it fits.
   */
  json?: boolean;
}

/** Workers still open; closed (bounded) when this process exits, so none leaves servers behind. */
const open = new Set<SyncWorker>();
let exitHookInstalled = false;

/**
 * The calling side: a worker thread whose service is called synchronously. Every call
 * blocks this thread until the reply, a timeout, or the worker's end; none hangs.
 */
export class SyncWorker {
  readonly label: string;
  readonly #thread: WorkerThread;
  readonly #port: MessagePort;
  readonly #control: Int32Array;
  readonly #replySlot: Uint8Array;
  readonly #callSlot: Uint8Array;
  readonly #utf8 = new TextEncoder();
  readonly #silenceLimitMs: number;
  #seq = 0;
  #closed = false;
  /** Why the worker is gone, once it is. */
  #ended: string | undefined;

  /**
   * Starts the worker at `url` (its module calls serveSyncWorker) and blocks until its
   * service's start() has finished. Throws a SyncBridgeError when it fails, throws, ends or
   * takes longer than startTimeoutMs; the worker is closed then. Throws an
   * UnsupportedRuntimeError (code "unsupported-runtime") in a browser or a Worker.
   */
  static start(url: URL, options: SyncWorkerOptions = {}): SyncWorker {
    return new SyncWorker(url, options);
  }

  private constructor(url: URL, options: SyncWorkerOptions) {
    this.label = options.label ?? "sync worker";
    // A browser or a Worker has no worker thread that may block: an UnsupportedRuntimeError saying so, before anything is made.
    runtime.ensure("workers", `${this.label}: cannot start its worker`);
    this.#silenceLimitMs = options.silenceLimitMs ?? DEFAULT_SYNC_SILENCE_LIMIT_MS;
    const startTimeoutMs = options.startTimeoutMs ?? DEFAULT_SYNC_START_TIMEOUT_MS;
    const control = new SharedArrayBuffer(CONTROL_BYTES + REPLY_SLOT_BYTES + CALL_SLOT_BYTES);
    this.#control = new Int32Array(control, 0, CONTROL_SLOTS);
    this.#replySlot = new Uint8Array(control, CONTROL_BYTES, REPLY_SLOT_BYTES);
    this.#callSlot = new Uint8Array(control, CONTROL_BYTES + REPLY_SLOT_BYTES, CALL_SLOT_BYTES);
    const { port1, port2 } = new MessageChannel();
    this.#port = port1; // never given a listener: replies are only taken synchronously
    const start: StartData = { control, port: port2, data: options.data };
    try {
      this.#thread = runtime.startWorker({ url, data: start, transfer: [port2] });
    } catch (error) {
      port1.close();
      throw new SyncBridgeError(`${this.label}: could not start its worker: ${messageOf(error)}`, "start-failed", { cause: error });
    }
    // A worker left open must not keep the process alive; the exit hook closes it.
    this.#thread.unref();
    // Seen only when this thread's event loop runs between calls; a blocked wait learns it from
    // the worker's own "ending" message, or from its heartbeat stopping.
    this.#thread.exited.then(({ code, error }) => {
      if (!this.#closed) this.#end(error === undefined ? `it exited with code ${code}` : `it crashed: ${error.message}`);
    });
    open.add(this);
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      runtime.onExit(() => {
        for (const worker of open) worker.close();
      });
    }

    const ready = this.#waitFor((message) => {
      if (message.type !== "ready") return undefined;
      return message.ok ? { kind: "reply", value: undefined } : { kind: "failed", message: message.message };
    }, startTimeoutMs);
    if (ready.kind === "reply") return;
    const why = ready.kind === "timeout"
      ? `did not start within ${durationText(startTimeoutMs)} (startTimeoutMs); raise startTimeoutMs or find what the worker waits for`
      : ready.kind === "ended"
      ? `its worker ended while starting: ${ready.message}`
      : ready.kind === "failed"
      ? `could not start: ${ready.message}`
      : "was closed while starting";
    this.close();
    const code = ready.kind === "timeout" ? "timeout" : ready.kind === "ended" ? "worker-ended" : ready.kind === "failed" ? "start-failed" : "closed";
    throw new SyncBridgeError(`${this.label} ${why}`, code);
  }

  /** False once the worker is gone or closed: every call then returns at once. */
  get alive(): boolean {
    return !this.#closed && this.#ended === undefined;
  }

  /** Calls the worker's service with `body` and blocks for its reply, at most timeoutMs. */
  call(body: unknown, options: SyncCallOptions): SyncOutcome {
    if (this.#closed) return { kind: "closed" };
    if (this.#ended !== undefined) return { kind: "ended", message: this.#ended };
    const seq = ++this.#seq;
    Atomics.store(this.#control, CURRENT, seq);
    const sent = options.json === true && this.#writeCall(seq, body) ? undefined : this.#post({ type: "call", seq, body });
    if (sent !== undefined) return { kind: "failed", message: `the call could not be passed to the worker: ${sent}` };
    const outcome = this.#waitFor(
      (message) => {
        if (message.type !== "reply" || message.seq !== seq) return undefined; // a late reply to an earlier call
        return message.ok ? { kind: "reply", value: message.value } : { kind: "failed", message: message.message };
      },
      options.timeoutMs,
      seq,
    );
    if (outcome.kind === "timeout") {
      const reason = options.cancelReason ?? `the caller stopped waiting after ${durationText(options.timeoutMs)}`;
      this.#post({ type: "cancel", seq, reason });
    }
    return outcome;
  }

  /**
   * Runs the service's close() in the worker (at most timeoutMs), then ends the worker.
   * Idempotent; never throws. Returns what the close request came to.
   */
  close(timeoutMs: number = DEFAULT_SYNC_CLOSE_TIMEOUT_MS): SyncOutcome {
    if (this.#closed) return { kind: "closed" };
    let outcome: SyncOutcome = { kind: "ended", message: this.#ended ?? "" };
    if (this.#ended === undefined && Atomics.load(this.#control, BEAT) === 0) {
      // Still loading its modules: no service has started, so there is nothing to close in it.
      outcome = { kind: "reply", value: undefined };
    } else if (this.#ended === undefined) {
      const seq = ++this.#seq;
      const sent = this.#post({ type: "close", seq });
      outcome = sent !== undefined ? { kind: "failed", message: sent } : this.#waitFor((message) => {
        if (message.type !== "reply" || message.seq !== seq) return undefined;
        return message.ok ? { kind: "reply", value: undefined } : { kind: "failed", message: message.message };
      }, timeoutMs);
    }
    this.#closed = true;
    this.#release();
    return outcome;
  }

  /**
   * Puts a JSON call in the call slot and wakes the worker, without a port message; false
   * when it does not fit (or is not JSON), so it goes by the port. The slot is written only
   * while no call of ours is answered from it: the caller makes one call at a time, and a
   * worker that reads while a timed-out caller writes the next call sees CALL_SEQ change
   * (WRITING, then the new seq) and takes the new one instead.
   */
  #writeCall(seq: number, body: unknown): boolean {
    let text: string | undefined;
    try {
      text = JSON.stringify(body);
    } catch {
      return false;
    }
    if (text === undefined) return false;
    const control = this.#control;
    Atomics.store(control, CALL_SEQ, WRITING);
    const { read, written } = this.#utf8.encodeInto(text, this.#callSlot);
    if (read !== text.length) return false; // too large: CALL_SEQ stays WRITING, the port carries it
    Atomics.store(control, CALL_BYTES, written);
    Atomics.store(control, CALL_SEQ, seq);
    Atomics.add(control, REQUEST, 1);
    Atomics.notify(control, REQUEST);
    return true;
  }

  /** Posts to the worker; returns why it failed (a value that cannot be cloned), or undefined. */
  #post(message: CallerMessage): string | undefined {
    try {
      this.#port.postMessage(message);
    } catch (error) {
      return messageOf(error);
    }
    Atomics.add(this.#control, REQUEST, 1);
    Atomics.notify(this.#control, REQUEST);
    return undefined;
  }

  /** The worker is gone: remember why, stop it for good, and let every later call say so. */
  #end(why: string): SyncOutcome {
    this.#ended ??= why;
    this.#release();
    return { kind: "ended", message: this.#ended };
  }

  #release(): void {
    if (!open.delete(this)) return;
    void this.#thread.terminate();
    this.#port.close();
  }

  /**
   * Blocks until `match` accepts a message from the worker, the worker ends, or timeoutMs
   * passes. Messages `match` does not accept (late replies of calls that timed out) are dropped.
   * With `seq`, the reply slot is looked at too.
   */
  #waitFor(match: (message: WorkerMessage) => SyncOutcome | undefined, timeoutMs: number, seq?: number): SyncOutcome {
    const control = this.#control;
    const deadline = performance.now() + timeoutMs;
    let beat = Atomics.load(control, BEAT);
    let beatSeenAt = performance.now();
    for (;;) {
      // Read the signal before taking messages: a message posted after we looked bumps it,
      // so the wait below returns at once instead of sleeping through it.
      const signal = Atomics.load(control, SIGNAL);
      if (seq !== undefined && Atomics.load(control, REPLY_SEQ) === seq) {
        // The worker stored the bytes before the seq: they are whole. A copy, since shared
        // memory is not for every decoder.
        const bytes = this.#replySlot.slice(0, Atomics.load(control, REPLY_BYTES));
        return { kind: "reply", value: runtime.decodeUtf8(bytes, 0, bytes.length) };
      }
      const outcome = this.#drain(match);
      if (outcome !== undefined) return outcome;
      if (Atomics.load(control, ENDED) === 1) {
        return this.#drain(match) ?? this.#end("it ended without saying why");
      }
      if (this.#ended !== undefined) return this.#end(this.#ended);
      const now = performance.now();
      if (now >= deadline) return { kind: "timeout", timeoutMs };
      const currentBeat = Atomics.load(control, BEAT);
      if (currentBeat !== beat) {
        beat = currentBeat;
        beatSeenAt = now;
      } else if (beat > 0 && now - beatSeenAt >= this.#silenceLimitMs) {
        // Beat 0: the worker is still loading its modules; the start timeout bounds that.
        return this.#end(`it stopped responding: no heartbeat for ${durationText(this.#silenceLimitMs)}`);
      }
      Atomics.wait(control, SIGNAL, signal, Math.min(deadline - now, WAIT_SLICE_MS));
    }
  }

  #drain(match: (message: WorkerMessage) => SyncOutcome | undefined): SyncOutcome | undefined {
    for (;;) {
      const received = runtime.receiveMessageSync(this.#port);
      if (received === undefined) return undefined;
      const message = received.message as WorkerMessage;
      if (message.type === "ending") return this.#end(message.message);
      const outcome = match(message);
      if (outcome !== undefined) return outcome;
    }
  }
}

/** What a worker serves; runs in the worker thread. */
export interface SyncService {
  /** Runs once, first; the caller's SyncWorker.start blocks until it settles. Gets `options.data`. */
  start?(data: unknown): unknown;
  /**
   * Answers one call; may return a promise. The value must be structured-cloneable. `signal`
   * aborts (with the cancel reason) when the caller stopped waiting. Calls that end uncancelled
   * may be handed the same signal, one after another: remove the abort listeners you add once
   * the call is over (a signal that aborted is never handed out again).
   */
  call(body: unknown, signal: AbortSignal): unknown;
  /** Runs on the caller's close(), possibly while start() is still running. */
  close?(): unknown;
}

/**
 * The worker side: call once in the worker's entry module. Answers the SyncWorker that
 * started this thread, beats its heartbeat, and tells it at once when this thread dies.
 */
export function serveSyncWorker(service: SyncService): void {
  const start = runtime.workerData() as Partial<StartData> | undefined;
  if (!(start?.control instanceof SharedArrayBuffer) || start.port === undefined) {
    throw new SyncBridgeError("serveSyncWorker() runs only in a worker started by SyncWorker.start()", "not-in-worker");
  }
  const control = new Int32Array(start.control, 0, CONTROL_SLOTS);
  const replySlot = new Uint8Array(start.control, CONTROL_BYTES, REPLY_SLOT_BYTES);
  const callSlot = new Uint8Array(start.control, CONTROL_BYTES + REPLY_SLOT_BYTES, CALL_SLOT_BYTES);
  const utf8 = new TextEncoder();
  const port = start.port;
  const signalCaller = () => {
    Atomics.add(control, SIGNAL, 1);
    Atomics.notify(control, SIGNAL);
  };
  const post = (message: WorkerMessage) => {
    port.postMessage(message);
    signalCaller();
  };

  runtime.onWorkerEnd((error) => {
    const why = error === undefined ? "it exited" : `it crashed: ${messageOf(error)}`;
    try {
      port.postMessage({ type: "ending", message: why } satisfies WorkerMessage);
    } catch {
      // the port is closed (after close()); the flag says enough
    }
    Atomics.store(control, ENDED, 1);
    signalCaller();
  });
  Atomics.add(control, BEAT, 1);
  const heartbeat = setInterval(() => Atomics.add(control, BEAT, 1), SYNC_HEARTBEAT_MS);

  const running = new Map<number, AbortController>();
  const started = (async () => {
    await service.start?.(start.data);
  })();
  started.then(
    () => post({ type: "ready", ok: true }),
    (error: unknown) => post({ type: "ready", ok: false, message: messageOf(error) }),
  );

  const reply = (seq: number, outcome: { ok: true; value: unknown } | { ok: false; message: string }) => {
    // The call the caller waits for, answered with a string that fits: through the slot. (A late
    // reply is not for the caller's current call, so it never overwrites the slot in use.)
    if (outcome.ok && typeof outcome.value === "string" && Atomics.load(control, CURRENT) === seq) {
      const { read, written } = utf8.encodeInto(outcome.value, replySlot);
      if (read === outcome.value.length) {
        Atomics.store(control, REPLY_BYTES, written);
        Atomics.store(control, REPLY_SEQ, seq);
        signalCaller();
        return;
      }
    }
    try {
      post({ type: "reply", seq, ...outcome });
    } catch (error) {
      post({ type: "reply", seq, ok: false, message: `the reply could not be passed back: ${messageOf(error)}` });
    }
  };

  /**
   * A controller whose call ended without being cancelled, for the next call: the caller makes
   * one call at a time, so making an AbortController (and its signal) per call is mostly waste.
   * Only a controller no call holds is kept; one that aborted is never reused.
   */
  let spare: AbortController | undefined;
  const answer = async (seq: number, body: unknown) => {
    const controller = spare ?? new AbortController();
    spare = undefined;
    running.set(seq, controller);
    try {
      await started;
      reply(seq, { ok: true, value: await service.call(body, controller.signal) });
    } catch (error) {
      reply(seq, { ok: false, message: messageOf(error) });
    } finally {
      running.delete(seq);
      if (!controller.signal.aborted) spare = controller;
    }
  };

  const close = async (seq: number) => {
    for (const controller of running.values()) controller.abort(new Error("the bridge is closing"));
    try {
      await service.close?.();
      reply(seq, { ok: true, value: undefined });
    } catch (error) {
      reply(seq, { ok: false, message: messageOf(error) });
    }
    // Nothing keeps this thread alive now: it ends by itself if the caller does not end it.
    clearInterval(heartbeat);
    listening = false;
    Atomics.notify(control, REQUEST); // settles the pending waitAsync
    port.close();
  };

  const handle = (message: CallerMessage) => {
    switch (message.type) {
      case "call":
        void answer(message.seq, message.body);
        break;
      case "cancel":
        running.get(message.seq)?.abort(new Error(message.reason));
        // Cancelled before it was taken from the call slot: it is never started.
        if (message.seq > slotSeq) cancelledUnread = Math.max(cancelledUnread, message.seq);
        break;
      case "close":
        void close(message.seq);
        break;
    }
  };

  /** The seq of the last call taken from the call slot. */
  let slotSeq = 0;
  /** The last call cancelled (its caller timed out) before it was taken from the call slot. */
  let cancelledUnread = 0;
  /** A call waiting in the call slot, taken whole (see SyncWorker.#writeCall), or undefined. */
  const takeSlotCall = (): { seq: number; body: unknown } | undefined => {
    const seq = Atomics.load(control, CALL_SEQ);
    if (seq === WRITING || seq <= slotSeq) return undefined;
    const bytes = callSlot.slice(0, Atomics.load(control, CALL_BYTES));
    if (Atomics.load(control, CALL_SEQ) !== seq) return undefined; // rewritten meanwhile: the next look takes the new one
    slotSeq = seq;
    if (seq <= cancelledUnread) return undefined;
    try {
      return { seq, body: JSON.parse(runtime.decodeUtf8(bytes, 0, bytes.length)) };
    } catch (error) {
      reply(seq, { ok: false, message: `the call could not be read from the shared memory: ${messageOf(error)}` });
      return undefined;
    }
  };

  let listening = true;
  const listen = (): void => {
    if (!listening) return;
    // Read the counter before taking messages: a post after we looked bumps it, so the
    // wait below settles at once instead of sleeping through it.
    const seen = Atomics.load(control, REQUEST);
    for (let received = runtime.receiveMessageSync(port); received !== undefined; received = runtime.receiveMessageSync(port)) {
      handle(received.message as CallerMessage);
      if (!listening) return;
    }
    const slotCall = takeSlotCall();
    if (slotCall !== undefined) void answer(slotCall.seq, slotCall.body);
    const waiting = waitAsync(control, REQUEST, seen);
    if (waiting.async) void waiting.value.then(listen);
    else queueMicrotask(listen);
  };
  listen();
}
