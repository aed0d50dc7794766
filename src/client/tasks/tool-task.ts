// One task on the server, polled to its result — spec 2025-11-25 basic/utilities/tasks
// ("Getting Tasks", "Retrieving Task Results", "Input Required Status", "Task Cancellation");
// the io.modelcontextprotocol/tasks extension ("Task Polling", "Task Update Requests", "Task
// Cancellation", "Error Handling"). The shapes and the wire it runs on: tasks.ts.

import { durationText } from "../../common/duration.ts";
import { messageOf } from "../../common/error-text.ts";
import { setOwn } from "../../common/json.ts";
import { ConnectionClosedError, ErrorCode, RequestTimeoutError, RpcError } from "../../jsonrpc/errors.ts";
import type { Params } from "../../jsonrpc/peer.ts";
import { TransportError } from "../../transport/transport.ts";
import { ClientStateError, OutcomeUnknownError, ProtocolError, TaskError, TaskFailedError } from "../errors.ts";
import { fulfilInputRequests, type InputRequest } from "../input-requests.ts";
import type { PhaseSpan, TelemetryContext } from "../telemetry.ts";
import type { CallToolResult } from "../types.ts";
import {
  DEFAULT_MAX_POLL_INTERVAL_MS,
  isTerminal,
  NOTIFIED_POLL_FLOOR_MS,
  pollDelay,
  readTask,
  type TaskInfo,
  type TaskResultOptions,
  type TaskStatusUpdate,
  type TaskView,
  type TaskWire,
  type ToolTask,
} from "./tasks.ts";

/** A task's life when result() is given no timeoutMs (like a request's maxTotalTimeoutMs). */
export const DEFAULT_TASK_LIFE_MS = 10 * 60_000;
/** Polls in a row that may fail on the transport (a dropped HTTP stream) before the task is given up. */
const MAX_POLL_FAILURES = 5;
/** Bound of the tasks/cancel sent when the caller aborts or the timeout runs out. */
const CANCEL_TIMEOUT_MS = 5_000;

/** Why the run stopped waiting: the caller's signal, or the call's timeout. */
type StopReason = "aborted" | "timeout";

/** A task of the server, by id: status(), result() (polling), cancel(). */
export class ServerTask implements ToolTask {
  readonly taskId: string;
  readonly direct = false;
  readonly #wire: TaskWire;
  readonly #tool: string | undefined;
  /** The last state seen (a poll, status(), the creating answer): a terminal one never changes. */
  #last: TaskView | undefined;
  /** Input request keys answered (or being answered): spec extension "Task Update Requests": never twice. */
  readonly #answered = new Set<string>();
  #running: Promise<CallToolResult> | undefined;
  #clampReported = false;
  /**
   * With telemetry on: the context the task's requests are sent in (the creating call's parent,
   * then the task's own span while result() polls). Undefined when off.
   */
  #traceContext: TelemetryContext | undefined;
  /** The task's lifetime span while result() runs (telemetry on). */
  #span: PhaseSpan | undefined;

  constructor(wire: TaskWire, taskId: string, tool: string | undefined, seed?: TaskView, traceContext?: TelemetryContext) {
    this.#wire = wire;
    this.taskId = taskId;
    this.#tool = tool;
    this.#last = seed;
    this.#traceContext = traceContext;
  }

  get #who(): string {
    return `${this.#wire.name}: task ${JSON.stringify(this.taskId)}${this.#tool !== undefined ? ` (tool "${this.#tool}")` : ""}`;
  }

  async status(): Promise<TaskInfo> {
    return { ...(await this.#get()).info };
  }

  /** Polls to the result; a second call while one runs joins it. */
  result(options: TaskResultOptions = {}): Promise<CallToolResult> {
    return this.follow(options);
  }

  /**
   * result(), for the client's own tools/call: `callTimeoutMs` is the whole call's timeout, which a
   * timeout's message names (the task's life is what remained of it when the task was created).
   */
  follow(options: TaskResultOptions, callTimeoutMs?: number): Promise<CallToolResult> {
    if (this.#running !== undefined) return this.#running;
    const running = (this.#wire.telemetry === undefined ? this.#run(options, callTimeoutMs) : this.#traced(options, callTimeoutMs)).finally(() => {
      if (this.#running === running) this.#running = undefined;
    });
    this.#running = running;
    return running;
  }

  /**
   * result() in the task's lifetime span (telemetry on): its polls, updates and cancel are the
   * span's children, each status an event — OpenTelemetry semantic conventions for MCP.
   */
  #traced(options: TaskResultOptions, callTimeoutMs: number | undefined): Promise<CallToolResult> {
    const parent = this.#traceContext;
    const span = (this.#span = this.#wire.telemetry!.taskSpan(this.taskId, this.#tool, parent));
    this.#traceContext = span.context;
    return span.ends(this.#run(options, callTimeoutMs)).finally(() => {
      this.#traceContext = parent;
      this.#span = undefined;
    });
  }

  async cancel(): Promise<void> {
    if (!this.#wire.canCancel()) {
      throw new TaskError(
        `${this.#who}: the server does not declare tasks.cancel, so the task cannot be cancelled; it runs until it ends or its ttl passes`,
        "unsupported",
        { taskId: this.taskId },
      );
    }
    try {
      // spec extension "Task Cancellation": notifications/cancelled MUST NOT be used for a task.
      await this.#wire.request("tasks/cancel", { taskId: this.taskId }, { timeoutMs: CANCEL_TIMEOUT_MS, traceContext: this.#traceContext });
    } catch (error) {
      throw this.#failed("tasks/cancel", error);
    }
  }

  /** tasks/get once, the answer read and checked against what was seen before. */
  async #get(): Promise<TaskView> {
    let raw: Params;
    try {
      raw = await this.#wire.request("tasks/get", { taskId: this.taskId }, { traceContext: this.#traceContext });
    } catch (error) {
      throw this.#failed("tasks/get", error);
    }
    const view = readTask(`${this.#who}: tasks/get`, raw, this.#wire.era);
    if (view.info.taskId !== this.taskId) {
      throw new ProtocolError(`${this.#who}: tasks/get answered for another task, ${JSON.stringify(view.info.taskId)}`, "bad-task", { method: "tasks/get" });
    }
    this.#observe(view);
    return view;
  }

  /** spec 2025-11-25 tasks ("Task Status Lifecycle"): a terminal task MUST NOT change status. */
  #observe(view: TaskView): void {
    const before = this.#last?.info.status;
    if (before !== undefined && isTerminal(before) && view.info.status !== before) {
      throw new ProtocolError(
        `${this.#who}: the status went from "${before}" back to "${view.info.status}"; a task in a terminal state must not change, so its outcome cannot be trusted`,
        "bad-task",
        { method: "tasks/get" },
      );
    }
    this.#last = view;
  }

  /** A task request's failure, as what the caller should see. */
  #failed(method: string, error: unknown): unknown {
    if (error instanceof RpcError && error.constructor === RpcError && error.rpcCode === ErrorCode.InvalidParams) {
      // spec extension "Error Handling": an invalid or nonexistent taskId is -32602.
      return new TaskError(
        `${this.#who}: the server does not know this task (${method}: ${error.message}); it expired (ttl) or was never created — start the call again`,
        "unknown-task",
        { taskId: this.taskId, cause: error },
      );
    }
    if (error instanceof ConnectionClosedError || (error instanceof ClientStateError && (error.state === "failed" || error.state === "closed"))) {
      return new TaskError(
        `${this.#who}: the connection ended while the task ran (${error.message}); the task may still run on the server — ` +
          `it was not retried: after reconnecting, client.resumeTask(${JSON.stringify(this.taskId)}) picks it up`,
        "lost",
        { taskId: this.taskId, cause: error },
      );
    }
    return error;
  }

  async #run(options: TaskResultOptions, callTimeoutMs?: number): Promise<CallToolResult> {
    const lifeMs = options.timeoutMs ?? DEFAULT_TASK_LIFE_MS;
    const started = Date.now();
    const maxPollMs = options.maxPollIntervalMs ?? DEFAULT_MAX_POLL_INTERVAL_MS;
    const stop = new AbortController();
    const timer = Number.isFinite(lifeMs) ? setTimeout(() => stop.abort("timeout" satisfies StopReason), Math.max(0, lifeMs)) : undefined;
    const onAbort = () => stop.abort("aborted" satisfies StopReason);
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener("abort", onAbort, { once: true });
    /** Ends the wait at once: an input answer failed. */
    let wake: (() => void) | undefined;
    /** A status notification came: the wait ends early, but not before the floor (see below). */
    let hint: (() => void) | undefined;
    let hinted = false;
    /** When the last tasks/get was sent (or the run began): the floor is counted from it. */
    let polledAt = Date.now();
    const unwatch = this.#wire.watch(this.taskId, () => {
      hinted = true;
      hint?.();
    });
    let reported = "";
    const report = (info: TaskInfo) => {
      const key = `${info.status}\n${info.statusMessage ?? ""}`;
      if (key === reported) return;
      reported = key;
      const update: TaskStatusUpdate = { taskId: info.taskId, status: info.status };
      if (info.statusMessage !== undefined) update.statusMessage = info.statusMessage;
      this.#span?.event("mcp.task.status", { "mcp.task.status": info.status });
      try {
        options.onTaskStatus?.(update);
      } catch (error) {
        this.#wire.onProblem(`${this.#who}: the onTaskStatus callback threw: ${messageOf(error)}`);
      }
      this.#wire.emit(update);
    };
    /** What the run waits on besides polling: 2025-11-25 tasks/result, 2026-07-28 an input answer that failed. */
    let outcome: { done: boolean; value?: CallToolResult; error?: unknown } | undefined;
    let outcomeWait: Promise<unknown> | undefined;
    let waitingFor = "tasks/get";
    /** An input request could not be answered: the task cannot go on, so it is cancelled. */
    let answerFailed = false;
    let failures = 0;
    const until = <T>(promise: Promise<T>): Promise<T> => raced(promise, stop.signal);
    try {
      let view = this.#last ?? await until(this.#get());
      for (;;) {
        report(view.info);
        if (outcome?.done) {
          if (outcome.error !== undefined) throw outcome.error;
          return outcome.value!;
        }
        const status = view.info.status;
        if (status === "cancelled") {
          throw new TaskError(`${this.#who}: the task was cancelled${view.info.statusMessage ? ` (${view.info.statusMessage})` : ""}`, "task-cancelled", {
            taskId: this.taskId,
          });
        }
        if (this.#wire.era === "modern") {
          if (isTerminal(status)) return await this.#modernOutcome(view);
          if (status === "input_required" && outcome === undefined) {
            const answering = this.#answer(view.inputRequests ?? {}, stop.signal);
            if (answering !== undefined) {
              answering.catch((error: unknown) => {
                answerFailed = true;
                outcome = { done: true, error };
                wake?.();
              });
            }
          }
        } else if (isTerminal(status) || status === "input_required") {
          // spec 2025-11-25 tasks ("Input Required Status" 3): on input_required call tasks/result
          // at once (the server's requests arrive while it blocks); on a terminal status fetch it.
          if (outcomeWait === undefined) {
            const fetching = this.#legacyResult(() => Math.max(1, lifeMs - (Date.now() - started)));
            const settled = { done: false } as NonNullable<typeof outcome>;
            outcome = settled;
            outcomeWait = fetching.then(
              (value) => Object.assign(settled, { done: true, value }),
              (error: unknown) => Object.assign(settled, { done: true, error }),
            );
          }
          if (isTerminal(status)) {
            waitingFor = "tasks/result";
            await until(outcomeWait);
            continue;
          }
        }
        const delay = pollDelay(view.info.pollIntervalMs, maxPollMs);
        if (delay.clamped && !this.#clampReported) {
          this.#clampReported = true;
          this.#wire.onProblem(
            `${this.#who}: the server suggested polling every ${JSON.stringify(view.info.pollIntervalMs)} ms; polling every ${durationText(delay.ms)} instead`,
          );
        }
        // spec 2025-11-25 tasks ("Task Status Notification") and the extension ("Task Status
        // Notifications"): a notification is a hint to poll sooner, never a reason to poll more
        // often than once per floor since the last tasks/get — a server that notifies before every
        // answer would otherwise be polled in a tight loop. Polls per task stay within
        // life / floor + 1, whatever the server sends.
        const floorMs = Math.min(NOTIFIED_POLL_FLOOR_MS, delay.ms);
        await new Promise<void>((resolve) => {
          let due = Date.now() + delay.ms;
          let timeout: ReturnType<typeof setTimeout> | undefined;
          let finished = false;
          const settle = () => done();
          const schedule = (at: number) => {
            clearTimeout(timeout);
            due = at;
            timeout = setTimeout(done, Math.max(0, at - Date.now()));
          };
          stop.signal.addEventListener("abort", settle, { once: true });
          void outcomeWait?.then(settle);
          function done() {
            if (finished) return; // a late settle of an earlier wait's outcomeWait
            finished = true;
            clearTimeout(timeout);
            stop.signal.removeEventListener("abort", settle);
            wake = hint = undefined;
            resolve();
          }
          wake = done;
          hint = () => {
            const at = Math.max(Date.now(), polledAt + floorMs);
            if (at < due) schedule(at);
          };
          schedule(due);
          if (hinted) hint();
        });
        hinted = false;
        if (stop.signal.aborted) throw stop.signal.reason;
        if (outcome?.done) continue;
        try {
          polledAt = Date.now();
          view = await until(this.#get());
          failures = 0;
        } catch (error) {
          if (!transient(error) || ++failures > MAX_POLL_FAILURES) throw error;
          this.#wire.onProblem(`${this.#who}: tasks/get failed (${messageOf(error)}); polling goes on (${failures} of ${MAX_POLL_FAILURES} in a row)`);
        }
      }
    } catch (error) {
      const reason = stop.signal.reason as StopReason | undefined;
      if (stop.signal.aborted && (error === reason || reason === "timeout" || reason === "aborted")) {
        throw await this.#stopped(reason!, callTimeoutMs ?? lifeMs, waitingFor);
      }
      if (answerFailed) await this.#cancelQuietly();
      throw error;
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      unwatch();
    }
  }

  /** The caller aborted or the timeout ran out: tasks/cancel unless the task already ended. */
  async #stopped(reason: StopReason, lifeMs: number, waitingFor: string): Promise<TaskError> {
    const last = this.#last?.info.status;
    const ended = last !== undefined && isTerminal(last);
    if (!ended) await this.#cancelQuietly();
    const state = last === undefined ? "" : ` (last status: ${last})`;
    if (reason === "aborted") {
      return new TaskError(`${this.#who}: aborted by the caller${ended ? "" : "; tasks/cancel sent"}${state}`, "cancelled", { taskId: this.taskId });
    }
    return new TaskError(
      `${this.#who}: did not finish within ${durationText(lifeMs)} (waiting for ${waitingFor})${state}` +
        `${ended ? "" : "; tasks/cancel sent"}; raise the call's timeoutMs if the task needs longer`,
      "timeout",
      { taskId: this.taskId },
    );
  }

  async #cancelQuietly(): Promise<void> {
    if (!this.#wire.canCancel()) {
      this.#wire.onProblem(`${this.#who}: the server does not declare tasks.cancel; the task was left to run until it ends`);
      return;
    }
    await this.cancel().catch((error: unknown) => this.#wire.onProblem(`${this.#who}: tasks/cancel failed: ${messageOf(error)}`));
  }

  /** spec extension "Task Status": completed carries the result, failed the JSON-RPC error. */
  async #modernOutcome(view: TaskView): Promise<CallToolResult> {
    if (view.info.status === "failed") {
      const error = view.error!;
      throw new TaskFailedError(`${this.#who}: the task failed: ${error.message} (JSON-RPC error ${error.code})`, error.code, {
        taskId: this.taskId,
        data: error.data,
      });
    }
    return await this.#wire.finish(view.result!, this.#tool);
  }

  /**
   * spec 2025-11-25 tasks ("Result Retrieval"): tasks/result answers what the request would
   * have, a result or a JSON-RPC error (then the task failed). It blocks until the task ends.
   */
  async #legacyResult(remainingMs: () => number): Promise<CallToolResult> {
    let raw: Params;
    try {
      const limit = remainingMs();
      raw = await this.#wire.request("tasks/result", { taskId: this.taskId }, {
        timeoutMs: limit,
        maxTotalTimeoutMs: limit,
        progress: true,
        traceContext: this.#traceContext,
      });
    } catch (error) {
      if (error instanceof RpcError && error.constructor === RpcError) {
        throw new TaskFailedError(`${this.#who}: the task failed: ${error.message} (JSON-RPC error ${error.rpcCode})`, error.rpcCode, {
          taskId: this.taskId,
          data: error.data,
          cause: error,
        });
      }
      if (error instanceof RequestTimeoutError) {
        throw new TaskError(`${this.#who}: tasks/result did not answer within ${durationText(error.timeoutMs)}`, "timeout", {
          taskId: this.taskId,
          cause: error,
        });
      }
      throw this.#failed("tasks/result", error);
    }
    return await this.#wire.finish(raw, this.#tool);
  }

  /**
   * spec extension "Task Update Requests": answers the input requests not answered before,
   * with the client's handlers, in one tasks/update. A key is claimed before it is answered,
   * so a request repeated by later polls is never answered twice. Undefined: nothing new.
   */
  #answer(requests: Record<string, InputRequest>, signal: AbortSignal): Promise<void> | undefined {
    const fresh = Object.keys(requests).filter((key) => !this.#answered.has(key));
    if (fresh.length === 0) return undefined;
    for (const key of fresh) this.#answered.add(key);
    const asked: Record<string, InputRequest> = {};
    for (const key of fresh) setOwn(asked, key, requests[key]!);
    const who = `${this.#who}: input_required`;
    return (async () => {
      const inputResponses = await fulfilInputRequests(asked, (request, key) => this.#wire.fulfil(who, request, key, signal));
      if (signal.aborted) return;
      try {
        await this.#wire.request("tasks/update", { taskId: this.taskId, inputResponses }, { traceContext: this.#traceContext });
      } catch (error) {
        throw this.#failed("tasks/update", error);
      }
    })();
  }
}

/** A call the server answered directly: the handle of ToolTask with nothing to poll. */
export class DirectTask implements ToolTask {
  readonly taskId = "";
  readonly direct = true;
  readonly #result: CallToolResult;
  constructor(result: CallToolResult) {
    this.#result = result;
  }
  status(): Promise<TaskInfo> {
    return Promise.resolve({ taskId: "", status: "completed" });
  }
  result(): Promise<CallToolResult> {
    return Promise.resolve(this.#result);
  }
  cancel(): Promise<void> {
    return Promise.resolve();
  }
}

/** Failures worth polling again after: the transport lost a stream or a poll timed out. */
function transient(error: unknown): boolean {
  return (error instanceof TransportError && error.code !== "closed") || error instanceof OutcomeUnknownError ||
    error instanceof RequestTimeoutError;
}

/**
 * `promise`, or a rejection with the signal's reason once it aborts. The request itself is not
 * cancelled (no notifications/cancelled for task traffic); its late answer is dropped.
 */
function raced<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
