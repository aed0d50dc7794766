// The client as a task receiver — spec 2025-11-25 basic/utilities/tasks: a server's
// task-augmented request (sampling/createMessage, elicitation/create) is answered at once with
// a CreateTaskResult, runs in the background through the usual handlers, and is served through
// tasks/get, tasks/result, tasks/list and tasks/cancel, with notifications/tasks/status when it
// changes. Tasks are kept for their ttl, and only so many at once.

import { durationText } from "../../common/duration.ts";
import { messageOf } from "../../common/error-text.ts";
import { isObject } from "../../common/json.ts";
import { ErrorCode, RpcError } from "../../jsonrpc/errors.ts";
import type { Params } from "../../jsonrpc/peer.ts";
import { isTerminal, type TaskStatus } from "./tasks.ts";

/** spec 2025-11-25 basic/utilities/tasks ("Related Task Metadata"). */
export const RELATED_TASK_META = "io.modelcontextprotocol/related-task";

import type { TaskReceiverOptions } from "../types.ts";
export type { TaskReceiverOptions };

export const DEFAULT_MAX_TASKS = 100;
export const DEFAULT_MAX_TASK_TTL_MS = 3_600_000;
export const DEFAULT_TASK_POLL_INTERVAL_MS = 1000;
/** Tasks per tasks/list page. */
const LIST_PAGE_SIZE = 50;

/** spec 2025-11-25 schema: Task. */
interface Task {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttl: number | null;
  pollInterval?: number;
}

type Outcome = { result: Params } | { error: RpcError };

interface StoredTask {
  task: Task;
  method: string;
  /** Creation order, for tasks/list and its cursor. */
  seq: number;
  expiresAt: number;
  /** Aborted by tasks/cancel, ttl expiry and the connection's end: the handler's signal. */
  controller: AbortController;
  outcome?: Outcome;
  /** Why the task was forgotten while it ran (ttl passed, connection ended). */
  gone?: string;
  /** Resolves once the task is terminal (or gone): what a blocked tasks/result waits on. */
  settled: Promise<void>;
  settle(): void;
}

export interface TaskStoreOptions extends TaskReceiverOptions {
  /** Names the server in messages (`server "everything"`). */
  name(): string;
  /** Sends notifications/tasks/status with the task's state. */
  notify(task: Params): Promise<void>;
  onProblem(message: string): void;
}

/** What runs a task: the request's handler, aborted through `signal`. */
export type TaskRun = (signal: AbortSignal) => Promise<Params>;

/** The tasks one server asked this client to run, for one connection. */
export class TaskStore {
  readonly #options: TaskStoreOptions;
  readonly #tasks = new Map<string, StoredTask>();
  #seq = 0;
  #closed = false;

  constructor(options: TaskStoreOptions) {
    this.#options = options;
  }

  /**
   * Accepts a task-augmented request: starts `run` and returns the CreateTaskResult at once —
   * spec 2025-11-25 basic/utilities/tasks ("Result Retrieval" 1: as soon as possible).
   */
  create(method: string, taskParams: unknown, run: TaskRun): Params {
    const who = `${this.#options.name()}: ${method}`;
    if (!isObject(taskParams)) {
      throw new RpcError(`${who}: "task" must be an object ({ "ttl": milliseconds }), got ${JSON.stringify(taskParams)}`, ErrorCode.InvalidParams);
    }
    const requested = taskParams.ttl;
    if (requested !== undefined && (typeof requested !== "number" || !Number.isFinite(requested) || requested <= 0)) {
      throw new RpcError(`${who}: "task.ttl" must be a positive number of milliseconds, got ${JSON.stringify(requested)}`, ErrorCode.InvalidParams);
    }
    if (this.#closed) throw new RpcError(`${who}: the connection is closing; no task was created`, ErrorCode.InternalError);
    this.#makeRoom(who);
    // spec 2025-11-25 basic/utilities/tasks ("TTL and Resource Management" 3): the receiver MAY
    // override the requested ttl; ours has a ceiling ("Resource Management": maximum ttl).
    const maxTtl = this.#options.maxTtlMs ?? DEFAULT_MAX_TASK_TTL_MS;
    const ttl = Math.min(Math.round((requested as number | undefined) ?? maxTtl), maxTtl);
    const now = new Date();
    const stamp = now.toISOString();
    const task: Task = {
      // spec 2025-11-25 basic/utilities/tasks ("Security Considerations"): without an
      // authorization context, task ids are cryptographically random.
      taskId: crypto.randomUUID(),
      status: "working",
      statusMessage: method === "elicitation/create" ? "waiting for the user's answer" : "waiting for the model",
      createdAt: stamp,
      lastUpdatedAt: stamp,
      ttl,
      pollInterval: this.#options.pollIntervalMs ?? DEFAULT_TASK_POLL_INTERVAL_MS,
    };
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    const stored: StoredTask = { task, method, seq: ++this.#seq, expiresAt: now.getTime() + ttl, controller: new AbortController(), settled, settle };
    this.#tasks.set(task.taskId, stored);
    void this.#run(stored, run);
    return { task: { ...task } };
  }

  async #run(stored: StoredTask, run: TaskRun): Promise<void> {
    let outcome: Outcome;
    try {
      outcome = { result: await run(stored.controller.signal) };
    } catch (error) {
      outcome = { error: error instanceof RpcError ? error : new RpcError(messageOf(error), ErrorCode.InternalError) };
    }
    // spec 2025-11-25 basic/utilities/tasks ("Task Cancellation" 3): a cancelled task stays
    // cancelled; a forgotten one tells nobody.
    if (isTerminal(stored.task.status) || stored.gone !== undefined) return;
    stored.outcome = outcome;
    // spec 2025-11-25 basic/utilities/tasks ("Task Execution Errors"): a JSON-RPC error fails the task.
    if ("result" in outcome) this.#move(stored, "completed", undefined);
    else this.#move(stored, "failed", outcome.error.message);
  }

  #move(stored: StoredTask, status: TaskStatus, statusMessage: string | undefined): void {
    const task = stored.task;
    task.status = status;
    if (statusMessage === undefined) delete task.statusMessage;
    else task.statusMessage = statusMessage;
    task.lastUpdatedAt = new Date().toISOString();
    if (isTerminal(status)) stored.settle();
    // spec 2025-11-25 basic/utilities/tasks ("Task Notifications" 3): the full task, without
    // related-task metadata. A closed connection has nobody to tell.
    if (this.#closed) return;
    this.#options.notify({ ...task }).catch((error: unknown) => {
      if (!this.#closed) {
        this.#options.onProblem(`${this.#options.name()}: could not send notifications/tasks/status for task ${task.taskId}: ${messageOf(error)}`);
      }
    });
  }

  /** spec 2025-11-25 basic/utilities/tasks ("Getting Tasks"). */
  get(params: Params | undefined): Params {
    return { ...this.#find("tasks/get", params).task };
  }

  /**
   * spec 2025-11-25 basic/utilities/tasks ("Result Retrieval" 2–4): blocks until the task is
   * terminal, then answers exactly what the request would have, with the related-task key.
   */
  async result(params: Params | undefined, signal: AbortSignal): Promise<Params> {
    const stored = this.#find("tasks/result", params);
    const taskId = stored.task.taskId;
    if (!isTerminal(stored.task.status)) {
      let onAbort: (() => void) | undefined;
      const aborted = new Promise<void>((resolve) => {
        onAbort = resolve;
        signal.addEventListener("abort", onAbort, { once: true });
      });
      try {
        await Promise.race([stored.settled, aborted]);
      } finally {
        signal.removeEventListener("abort", onAbort!);
      }
      // The server cancelled its tasks/result (or the connection ended): the peer sends nothing.
      if (signal.aborted) throw new RpcError(`tasks/result for task ${taskId} was cancelled`, ErrorCode.InternalError);
    }
    const outcome = stored.outcome;
    if (outcome === undefined) {
      const why = stored.task.status === "cancelled"
        ? `was cancelled (${stored.task.statusMessage ?? "tasks/cancel"}) before it finished`
        : `was stopped before it finished (${stored.gone ?? "no outcome"})`;
      throw new RpcError(`${this.#options.name()}: tasks/result: task ${taskId} (${stored.method}) ${why}; it has no result`, ErrorCode.InvalidParams);
    }
    if ("error" in outcome) throw new RpcError(outcome.error.message, outcome.error.rpcCode, { data: outcome.error.data });
    const meta = isObject(outcome.result._meta) ? outcome.result._meta : {};
    // spec 2025-11-25 basic/utilities/tasks ("Related Task Metadata"): tasks/result MUST carry it.
    return { ...outcome.result, _meta: { ...meta, [RELATED_TASK_META]: { taskId } } };
  }

  /** spec 2025-11-25 basic/utilities/tasks ("Listing Tasks", "Task Listing"): pages in creation order. */
  list(params: Params | undefined): Params {
    this.#sweep();
    const cursor = params?.cursor;
    let after = 0;
    if (cursor !== undefined) {
      if (typeof cursor !== "string" || !/^\d{1,15}$/.test(cursor)) {
        throw new RpcError(
          `${this.#options.name()}: tasks/list: invalid cursor ${JSON.stringify(cursor)}; pass a nextCursor this client returned`,
          ErrorCode.InvalidParams,
        );
      }
      after = Number(cursor);
    }
    const tasks: Task[] = [];
    let last: StoredTask | undefined;
    let more = false;
    for (const stored of this.#tasks.values()) {
      if (stored.seq <= after) continue;
      if (tasks.length === LIST_PAGE_SIZE) {
        more = true;
        break;
      }
      tasks.push({ ...stored.task });
      last = stored;
    }
    return more && last !== undefined ? { tasks, nextCursor: String(last.seq) } : { tasks };
  }

  /** spec 2025-11-25 basic/utilities/tasks ("Cancelling Tasks", "Task Cancellation" 1–3). */
  cancel(params: Params | undefined): Params {
    const stored = this.#find("tasks/cancel", params);
    const { task } = stored;
    if (isTerminal(task.status)) {
      throw new RpcError(
        `${this.#options.name()}: tasks/cancel: cannot cancel task ${task.taskId}: already in terminal status "${task.status}"`,
        ErrorCode.InvalidParams,
      );
    }
    // The status is cancelled before the answer; the handler is then told to stop.
    this.#move(stored, "cancelled", "The task was cancelled by request (tasks/cancel).");
    stored.controller.abort(new RpcError(`task ${task.taskId} was cancelled by the server (tasks/cancel)`, ErrorCode.InternalError));
    return { ...task };
  }

  /** The connection ended: every running task's handler is told to stop, and nothing is kept. */
  close(reason: string): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const stored of this.#tasks.values()) this.#drop(stored, reason);
    this.#tasks.clear();
  }

  /** A task by the request's taskId — spec ("Protocol Errors"): unknown or expired is -32602. */
  #find(method: string, params: Params | undefined): StoredTask {
    this.#sweep();
    const taskId = params?.taskId;
    if (typeof taskId !== "string") {
      throw new RpcError(`${this.#options.name()}: ${method} needs a string "taskId", got ${JSON.stringify(taskId)}`, ErrorCode.InvalidParams);
    }
    const stored = this.#tasks.get(taskId);
    if (stored === undefined) {
      throw new RpcError(
        `${this.#options.name()}: ${method}: Failed to retrieve task: no task ${
          JSON.stringify(taskId.slice(0, 100))
        } (never created here, or deleted after its ttl)`,
        ErrorCode.InvalidParams,
      );
    }
    return stored;
  }

  /**
   * spec 2025-11-25 basic/utilities/tasks ("TTL and Resource Management" 5): after its ttl a
   * task MAY be deleted whatever its status; a running one is stopped.
   */
  #sweep(): void {
    const now = Date.now();
    for (const [taskId, stored] of this.#tasks) {
      if (stored.expiresAt > now) continue;
      this.#tasks.delete(taskId);
      this.#drop(stored, `its ttl of ${durationText(stored.task.ttl ?? 0)} passed`);
    }
  }

  /** Stops a running task without a status change (it is being forgotten) and wakes its waiters. */
  #drop(stored: StoredTask, reason: string): void {
    if (!isTerminal(stored.task.status)) {
      stored.gone = reason;
      stored.controller.abort(new RpcError(`task ${stored.task.taskId} (${stored.method}) was stopped: ${reason}`, ErrorCode.InternalError));
    }
    stored.settle();
  }

  /**
   * spec 2025-11-25 basic/utilities/tasks ("Resource Management"): a bounded number of tasks.
   * Expired ones go first, then the oldest finished; when every kept task still runs, the
   * request is refused.
   */
  #makeRoom(who: string): void {
    this.#sweep();
    const max = Math.max(1, this.#options.maxTasks ?? DEFAULT_MAX_TASKS);
    if (this.#tasks.size < max) return;
    for (const [taskId, stored] of this.#tasks) {
      if (!isTerminal(stored.task.status)) continue;
      this.#tasks.delete(taskId);
      stored.settle();
      return;
    }
    throw new RpcError(
      `${who}: this client already runs ${max} tasks for the server, its limit; wait for one to finish or cancel one (tasks/cancel)`,
      ErrorCode.InternalError,
    );
  }
}
