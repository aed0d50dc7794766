// Tasks, the requestor side: a long-running tools/call answered with a task handle and polled
// to its result — spec 2025-11-25 basic/utilities/tasks; on the 2026-07-28 wire the official
// extension io.modelcontextprotocol/tasks (SEP-2663; modelcontextprotocol/experimental-ext-tasks
// docs/specification/draft/tasks.mdx). This file: the shapes, reading a task off the wire, and
// when a tools/call becomes a task. The handle and its polling: tool-task.ts; the calls: task-calls.ts.

import { isObject, setOwn } from "../../common/json.ts";
import type { Params, RequestOptions } from "../../jsonrpc/peer.ts";
import { CapabilityError, ProtocolError } from "../errors.ts";
import { EXTENSIONS } from "../extension-negotiation.ts";
import type { InputRequest } from "../input-requests.ts";
import type { Telemetry } from "../telemetry.ts";
import type { CallToolResult, JsonObject, ServerCapabilities, TaskStatus, TaskStatusUpdate, Tool } from "../types.ts";

/** The tasks extension's identifier (SEP-2663), as the core client names it (extensions.ts EXTENSIONS). */
export const TASKS_ID = EXTENSIONS.tasks;

export type { TaskReceiverOptions, TaskStatus, TaskStatusUpdate } from "../types.ts";

/** A task as the server last described it (2025-11-25 `ttl`/`pollInterval` read as ttlMs/pollIntervalMs). */
export interface TaskInfo {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt?: string;
  lastUpdatedAt?: string;
  /** Lifetime from creation; null for unlimited. */
  ttlMs?: number | null;
  /** The server's suggested polling interval. */
  pollIntervalMs?: number;
}

/** Options of `ToolTask.result()`. */
export interface TaskResultOptions {
  /** Aborting it sends tasks/cancel (never notifications/cancelled) and rejects with a TaskError `cancelled`. */
  signal?: AbortSignal;
  /** Bound of the task's whole remaining life; past it the task is cancelled (TaskError `timeout`). */
  timeoutMs?: number;
  onTaskStatus?: (update: TaskStatusUpdate) => void;
  /** Upper bound of the polling interval, whatever the server suggests. Default 10 s. */
  maxPollIntervalMs?: number;
}

/** A tool call running as a task on the server (or answered directly: then `direct` is true). */
export interface ToolTask {
  /** The server's task id; "" when the server answered directly. Persist it to resume after a restart. */
  readonly taskId: string;
  /** True when the server answered at once, without a task; result() resolves to that answer. */
  readonly direct: boolean;
  /** tasks/get once. */
  status(): Promise<TaskInfo>;
  /** Polls to the final result: a completed task's CallToolResult (isError included). */
  result(options?: TaskResultOptions): Promise<CallToolResult>;
  /** tasks/cancel. */
  cancel(): Promise<void>;
}

/** A task as read off the wire: its info, and on the 2026-07-28 wire what tasks/get inlines. */
export interface TaskView {
  info: TaskInfo;
  /** 2026-07-28 `completed`: the final result. */
  result?: JsonObject;
  /** 2026-07-28 `failed`: the JSON-RPC error. */
  error?: { code: number; message: string; data?: unknown };
  /** 2026-07-28 `input_required`: what the server needs, by key. */
  inputRequests?: Record<string, InputRequest>;
}

/** What tasks need of the Client that runs them. */
export interface TaskWire {
  /** Names the server in messages. */
  name: string;
  era: "legacy" | "modern";
  request(method: string, params: Params, options?: RequestOptions): Promise<Params>;
  /** 2026-07-28: answers one input request with the client's handlers. */
  fulfil(who: string, request: InputRequest, key: string, signal: AbortSignal | undefined): Promise<JsonObject>;
  /** The final CallToolResult of `tool` (shape and outputSchema checks). */
  finish(result: Params, tool: string | undefined): CallToolResult | Promise<CallToolResult>;
  /** Whether tasks/cancel may be sent (2025-11-25: the server declared tasks.cancel). */
  canCancel(): boolean;
  /** Calls `wake` when a status notification for `taskId` arrives; returns the unsubscribe. */
  watch(taskId: string, wake: () => void): () => void;
  /** Emits the client's `taskStatus` event. */
  emit(update: TaskStatusUpdate): void;
  onProblem(message: string): void;
  /** The client's telemetry, when on: a task's life is a span (tool-task.ts). */
  readonly telemetry?: Telemetry;
}

const STATUSES: ReadonlySet<string> = new Set(["working", "input_required", "completed", "failed", "cancelled"]);
/** spec 2025-11-25 tasks ("Task Status Lifecycle"): completed, failed and cancelled are terminal. */
const TERMINAL: ReadonlySet<TaskStatus> = new Set(["completed", "failed", "cancelled"]);
/** Task ids longer than this are refused (an id is echoed in every poll and message). */
const MAX_TASK_ID_LENGTH = 1024;
const MAX_STATUS_MESSAGE = 4096;

export const DEFAULT_POLL_INTERVAL_MS = 1000;
export const MIN_POLL_INTERVAL_MS = 100;
export const DEFAULT_MAX_POLL_INTERVAL_MS = 10_000;
/** A status notification shortens the wait for the next tasks/get to no less than this (or the interval, if shorter). */
export const NOTIFIED_POLL_FLOOR_MS = 100;

export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL.has(status);
}

/**
 * Reads a task (a tasks/get result, a CreateTaskResult's task, a status notification) —
 * spec 2025-11-25 schema Task; the extension's DetailedTask. Throws ProtocolError `bad-task`.
 */
export function readTask(who: string, value: unknown, era: "legacy" | "modern"): TaskView {
  if (!isObject(value)) throw new ProtocolError(`${who}: the task is not an object`, "bad-task");
  const { taskId, status } = value;
  if (typeof taskId !== "string" || taskId.length === 0 || taskId.length > MAX_TASK_ID_LENGTH) {
    throw new ProtocolError(`${who}: the task has no usable "taskId" (a string of 1 to ${MAX_TASK_ID_LENGTH} characters)`, "bad-task");
  }
  if (typeof status !== "string" || !STATUSES.has(status)) {
    throw new ProtocolError(
      `${who}: task ${JSON.stringify(taskId)} has status ${JSON.stringify(status)}, which is none of ${[...STATUSES].join(", ")}`,
      "bad-task",
    );
  }
  const info: TaskInfo = { taskId, status: status as TaskStatus };
  if (typeof value.statusMessage === "string") info.statusMessage = value.statusMessage.slice(0, MAX_STATUS_MESSAGE);
  if (typeof value.createdAt === "string") info.createdAt = value.createdAt;
  if (typeof value.lastUpdatedAt === "string") info.lastUpdatedAt = value.lastUpdatedAt;
  // 2025-11-25 names them ttl and pollInterval; the extension ttlMs and pollIntervalMs.
  const ttl = era === "modern" ? value.ttlMs : value.ttl;
  if (ttl === null || typeof ttl === "number") info.ttlMs = ttl;
  const poll = era === "modern" ? value.pollIntervalMs : value.pollInterval;
  if (typeof poll === "number") info.pollIntervalMs = poll;
  const view: TaskView = { info };
  if (era === "legacy") return view;
  if (status === "completed") {
    if (!isObject(value.result)) throw new ProtocolError(`${who}: task ${JSON.stringify(taskId)} is completed but has no "result" object`, "bad-task");
    view.result = value.result;
  } else if (status === "failed") {
    const error = value.error;
    if (!isObject(error) || typeof error.code !== "number" || typeof error.message !== "string") {
      throw new ProtocolError(`${who}: task ${JSON.stringify(taskId)} failed without an "error" holding a JSON-RPC code and message`, "bad-task");
    }
    view.error = { code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) };
  } else if (status === "input_required") {
    view.inputRequests = readInputRequests(`${who}: task ${JSON.stringify(taskId)}`, value.inputRequests);
  }
  return view;
}

function readInputRequests(who: string, value: unknown): Record<string, InputRequest> {
  if (value === undefined) return {};
  if (!isObject(value)) throw new ProtocolError(`${who}: inputRequests is not an object`, "bad-task");
  const requests: Record<string, InputRequest> = {};
  for (const [key, request] of Object.entries(value)) {
    if (!isObject(request) || typeof request.method !== "string") {
      throw new ProtocolError(`${who}: input request ${JSON.stringify(key)} has no method`, "bad-task");
    }
    if (request.params !== undefined && !isObject(request.params)) {
      throw new ProtocolError(`${who}: input request ${JSON.stringify(key)} has params that are not an object`, "bad-task");
    }
    setOwn(requests, key, { method: request.method, ...(request.params !== undefined ? { params: request.params } : {}) });
  }
  return requests;
}

/**
 * The task a tools/call answer carries, if it is one: 2026-07-28 `resultType: "task"` (the
 * task fields inline), 2025-11-25 a CreateTaskResult `{ task }` — only when one was asked for.
 */
export function createdTask(who: string, result: Params, era: "legacy" | "modern", asked: boolean): TaskView | undefined {
  if (era === "modern") return result.resultType === "task" ? readTask(who, result, "modern") : undefined;
  if (!asked || !isObject(result.task) || "content" in result) return undefined;
  return readTask(who, result.task, "legacy");
}

/** How a 2025-11-25 tools/call goes: as a task, or as a plain request. */
export type TaskPlan = "task" | "direct";

/**
 * spec 2025-11-25 tasks ("Tool-Level Negotiation"): without the server's
 * tasks.requests.tools.call never a task; then `required` always, `optional` when asked,
 * `forbidden` or absent never. A required task the server cannot run is a CapabilityError.
 */
export function taskPlan(server: string, tool: Tool | undefined, capabilities: ServerCapabilities | undefined, asked: boolean): TaskPlan {
  const support = tool?.execution?.taskSupport;
  const declared = isObject(capabilities?.tasks?.requests?.tools?.call);
  if (!declared) {
    if (support === "required") {
      throw new CapabilityError(
        `${server}: tool "${tool!.name}" requires running as a task (execution.taskSupport: "required"), but the server does not declare ` +
          `tasks.requests.tools.call, so it cannot be called; the server contradicts itself: report it to its authors`,
        { capability: "tasks.requests.tools.call" },
      );
    }
    return "direct";
  }
  if (support === "required") return "task";
  if (support === "optional" && asked) return "task";
  return "direct";
}

/** The polling interval to wait: the server's, clamped to [MIN, max]; `clamped` says whether it was. */
export function pollDelay(suggested: number | undefined, max: number): { ms: number; clamped: boolean } {
  if (suggested === undefined) return { ms: Math.min(DEFAULT_POLL_INTERVAL_MS, max), clamped: false };
  if (!Number.isFinite(suggested) || suggested < MIN_POLL_INTERVAL_MS) return { ms: MIN_POLL_INTERVAL_MS, clamped: true };
  if (suggested > max) return { ms: max, clamped: true };
  return { ms: suggested, clamped: false };
}
