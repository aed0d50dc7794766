// A client's tool calls that may run as tasks, and its tasks by id — spec 2025-11-25
// basic/utilities/tasks ("Tool-Level Negotiation", "Creating Tasks", "Listing Tasks", "Task
// Notifications"); the io.modelcontextprotocol/tasks extension ("Capability Negotiation",
// "Task Creation", "Task Status Notifications"). One task's polling: tool-task.ts. The client
// meets it through the extension interface (extension.ts, tasks-extension.ts): its link in the
// connection's chain (middleware()), and tasksOf(client) for the task API.

import { isObject } from "../../common/json.ts";
import type { Hear, Middleware, Receive, Send } from "../../jsonrpc/middleware.ts";
import type { Params, RequestOptions } from "../../jsonrpc/peer.ts";
import { type ClientContext, requireCapability } from "../client-context.ts";
import type { CallOptions, ToolCallOptions } from "../client-options.ts";
import { CapabilityError, MissingClientCapabilityError, TaskError } from "../errors.ts";
import type { ExtensionParts } from "../extension.ts";
import { collectPages, DEFAULT_MAX_PAGES } from "../pagination.ts";
import type { TelemetryContext } from "../telemetry.ts";
import type { CallToolResult, JsonObject } from "../types.ts";
import { TaskReceiver } from "./task-receiver.ts";
import { createdTask, readTask, type TaskInfo, type TaskPlan, taskPlan, TASKS_ID, type TaskView, type TaskWire, type ToolTask } from "./tasks.ts";
import { DEFAULT_TASK_LIFE_MS, DirectTask, ServerTask } from "./tool-task.ts";

/**
 * Starts tool calls (as tasks when the server and the tool say so), resumes and lists tasks;
 * the tasks extension's parts on the client (extension.ts ExtensionParts), the server's own
 * tasks (task-receiver.ts) included.
 */
export class TaskCalls implements ExtensionParts {
  readonly #context: ClientContext;
  /** The tasks the server asks this client to run (2025-11-25). */
  readonly #receiver: TaskReceiver;
  /** What tasks (tool-task.ts) need of the client: made once, its getters read the client's state when called. */
  readonly #wire: TaskWire;
  /** Who waits for a status notification of a task, by task id. */
  readonly #watchers = new Map<string, Set<() => void>>();
  /** The links below this one in the connection's chain (the answers link first), once connected: a tools/call goes on through them. */
  #next: Send | undefined;

  constructor(context: ClientContext) {
    this.#context = context;
    this.#wire = taskWire(context, this);
    this.#receiver = new TaskReceiver(context);
  }

  /**
   * The tasks link of the chain (docs/architecture.md, "The chain"): a tools/call the server (or
   * the tool) runs as a task is sent asking for one and polled to its result; a plain call
   * answered with a task (2026-07-28 `resultType: "task"`) is followed too; the server's task
   * requests and task-augmented requests are answered; status notifications wake the polls.
   */
  middleware(): Middleware {
    return {
      name: "tasks",
      send: (next: Send): Send => {
        this.#next = next;
        return (
          method,
          params,
          options,
        ) => (method === "tools/call" ? this.#toolCall(next, params, options as ToolCallOptions) : next(method, params, options));
      },
      receive: (next: Receive): Receive => this.#receiver.link(next),
      hear: (next: Hear): Hear => (method, params) => {
        // spec 2025-11-25 basic/utilities/tasks ("Task Status Notification") and the 2026-07-28
        // tasks extension ("Task Status Notifications"): hints beside polling, never relied on.
        if (method === "notifications/tasks/status" || method === "notifications/tasks") this.#notified(params);
        else next(method, params);
      },
    };
  }

  close(reason: string): void {
    this.#receiver.close(reason);
  }

  /**
   * A tools/call on its way out. spec 2025-11-25 tasks: when the server runs tools/call as tasks
   * (handshake era, "Server Capabilities") or the tool requires one ("Tool-Level Negotiation"),
   * it is sent as a task and polled; a call whose params already ask for a task goes on as it is.
   * Any other call goes on, and a task answer to it (the tasks extension, "Task Creation": the
   * server decides) is followed to its result, within what is left of the call's time.
   */
  #toolCall(next: Send, params: Params | undefined, options: ToolCallOptions): Promise<Params> {
    const name = params?.name;
    if (typeof name !== "string" || params!.task !== undefined) return next("tools/call", params, options);
    const call = options.call ?? {};
    const context = this.#context;
    const claimed = (context.era !== "modern" && isObject(context.serverCapabilities?.tasks?.requests?.tools?.call)) ||
      context.tool(name)?.execution?.taskSupport === "required";
    const started = Date.now();
    if (claimed) {
      const args = isObject(params!.arguments) ? params!.arguments : {};
      return this.#create(next, name, args, call, options, (task) => this.#follow(task, call, started)) as Promise<Params>;
    }
    const who = `${context.name}: tools/call "${name}"`;
    return next("tools/call", params, options).then(
      (result) => (result.resultType === "task" ? this.#taskAnswer(name, result, call, started) as Promise<Params> : result),
      (error: unknown) => {
        throw explainMissingCapability(who, error);
      },
    );
  }

  /** tasksOf(client).startToolTask: the call started, its task handle (or the direct answer wrapped as one: `direct`). */
  async startToolTask(name: string, args: JsonObject = {}, options: CallOptions = {}): Promise<ToolTask> {
    const next = this.#next;
    if (next === undefined || this.#context.state !== "ready") return Promise.reject(this.#context.refused("tools/call"));
    requireCapability(this.#context, "tools", "tools/call");
    const { task: _task, onTaskStatus: _onTaskStatus, maxPollIntervalMs: _maxPoll, ...requestOptions } = options;
    const telemetry = this.#context.telemetry;
    const traceContext = telemetry === undefined ? undefined : options.traceContext ?? telemetry.active();
    const created = await this.#create(next, name, args, options, { ...requestOptions, progress: true, traceContext }, (task) => task);
    return created instanceof ServerTask ? created : new DirectTask(created);
  }

  /**
   * A plain tools/call that the server answered with a task (resultType "task") — the tasks
   * extension ("Task Creation"): the server decides — polled to its end, within what is left of
   * the call's time (from `started`).
   */
  #taskAnswer(name: string, raw: Params, options: CallOptions, started: number): Promise<CallToolResult> {
    const wire = this.#wire;
    const view = createdTask(`${wire.name}: tools/call "${name}"`, raw, wire.era, false);
    if (view === undefined) return Promise.resolve(wire.finish(raw, name));
    return this.#follow(new ServerTask(wire, view.info.taskId, name, seedOf(view, wire.era)), options, started);
  }

  /** tasksOf(client).resumeTask: a handle on a task known by id (persisted across a restart); polling starts with result(). */
  resumeTask(taskId: string, options: { tool?: string } = {}): ToolTask {
    if (typeof taskId !== "string" || taskId.length === 0) throw new TypeError("resumeTask(): give the task id the server returned (a non-empty string)");
    return new ServerTask(this.#wire, taskId, options.tool);
  }

  /** tasksOf(client).listTasks — spec 2025-11-25 tasks ("Listing Tasks"); the 2026-07-28 extension has no tasks/list (a TaskError `unsupported`). */
  async listTasks(options: RequestOptions = {}): Promise<TaskInfo[]> {
    const wire = this.#wire;
    if (wire.era === "modern") {
      throw new TaskError(
        `${wire.name}: the tasks extension of the 2026-07-28 wire has no tasks/list; keep the task ids you started (and resume them with resumeTask)`,
        "unsupported",
      );
    }
    if (!isObject(this.#context.serverCapabilities?.tasks?.list)) {
      throw new CapabilityError(`${wire.name} does not declare tasks.list, so it does not accept tasks/list`, { capability: "tasks.list" });
    }
    const raw = await collectPages<unknown>(
      `${wire.name}: tasks/list`,
      "tasks/list",
      "tasks",
      (cursor) => wire.request("tasks/list", cursor === undefined ? {} : { cursor }, options),
      DEFAULT_MAX_PAGES,
    );
    return raw.map((task) => readTask(`${wire.name}: tasks/list`, task, "legacy").info);
  }

  /** A status notification arrived (2025-11-25 notifications/tasks/status, 2026-07-28 notifications/tasks): a hint to poll now. */
  #notified(params: Params | undefined): void {
    const taskId = params?.taskId;
    if (typeof taskId !== "string") return;
    for (const wake of this.#watchers.get(taskId) ?? []) wake();
  }

  /** Calls `wake` on each status notification of `taskId` until the returned function is called. */
  watch(taskId: string, wake: () => void): () => void {
    let set = this.#watchers.get(taskId);
    if (set === undefined) this.#watchers.set(taskId, set = new Set());
    set.add(wake);
    return () => {
      set.delete(wake);
      if (set.size === 0 && this.#watchers.get(taskId) === set) this.#watchers.delete(taskId);
    };
  }

  /** A task polled to its end, within what is left of the call's time. */
  #follow(task: ServerTask, options: CallOptions, started: number): Promise<CallToolResult> {
    const life = options.timeoutMs ?? options.maxTotalTimeoutMs ?? this.#context.options.maxTotalTimeoutMs ?? DEFAULT_TASK_LIFE_MS;
    return task.follow({
      signal: options.signal,
      timeoutMs: Math.max(1, life - (Date.now() - started)),
      onTaskStatus: options.onTaskStatus,
      maxPollIntervalMs: options.maxPollIntervalMs,
    }, life);
  }

  /**
   * Sends the tools/call through `next`. A direct answer comes back checked; a task goes to `onTask`. (Plain
   * promise chains, no async frames: most calls are answered at once, and this is their path.)
   */
  #create<T>(
    next: Send,
    name: string,
    args: JsonObject,
    options: CallOptions,
    requestOptions: RequestOptions,
    onTask: (task: ServerTask) => T | Promise<T>,
  ): Promise<CallToolResult | T> {
    const wire = this.#wire;
    const context = this.#context;
    if (wire.era === "legacy" && context.tool(name) === undefined && isObject(context.serverCapabilities?.tasks?.requests?.tools?.call)) {
      // spec 2025-11-25 tasks ("Tool-Level Negotiation"): the tool's execution.taskSupport
      // decides; learn it before the first call.
      return context.listTools().catch(() => {}).then(() => this.#send(next, wire, name, args, options, requestOptions, onTask));
    }
    return this.#send(next, wire, name, args, options, requestOptions, onTask);
  }

  #send<T>(
    next: Send,
    wire: TaskWire,
    name: string,
    args: JsonObject,
    options: CallOptions,
    requestOptions: RequestOptions,
    onTask: (task: ServerTask) => T | Promise<T>,
  ): Promise<CallToolResult | T> {
    const who = `${wire.name}: tools/call "${name}"`;
    const params: Params = { name, arguments: args };
    let sendOptions = requestOptions;
    let asked = false;
    if (wire.era === "legacy") {
      let plan: TaskPlan;
      try {
        plan = taskPlan(wire.name, this.#context.tool(name), this.#context.serverCapabilities, options.task !== undefined && options.task !== false);
      } catch (error) {
        return Promise.reject(error);
      }
      if (plan === "task") {
        asked = true;
        const ttlMs = typeof options.task === "object" ? options.task.ttlMs : undefined;
        // spec 2025-11-25 tasks ("Creating Tasks"): the task field, with the wanted ttl.
        params.task = ttlMs === undefined ? {} : { ttl: ttlMs };
        // A task-augmented request is never cancelled with notifications/cancelled (spec
        // 2025-11-25 basic/utilities/cancellation): an abort waits for the task id, then tasks/cancel.
        sendOptions = { ...requestOptions, signal: undefined };
      }
    }
    // On through the links below this one (the answers link checks a direct answer).
    const sent = next("tools/call", params, sendOptions);
    const answered = asked && options.signal !== undefined ? abortable(sent, options.signal, (late) => this.#cancelLate(wire, who, late)) : sent;
    return answered.then(
      (raw) => {
        const view = createdTask(who, raw, wire.era, asked);
        if (view === undefined) return raw as CallToolResult; // answered at once: checked by the answers link
        return onTask(new ServerTask(wire, view.info.taskId, name, seedOf(view, wire.era), sendOptions.traceContext as TelemetryContext | undefined));
      },
      (error: unknown) => {
        throw explainMissingCapability(who, error);
      },
    );
  }

  /** The caller aborted before the task id came back: cancel the task it turns out to be. */
  #cancelLate(wire: TaskWire, who: string, raw: Params): void {
    const view = (() => {
      try {
        return createdTask(who, raw, wire.era, true);
      } catch {
        return undefined;
      }
    })();
    if (view === undefined) return;
    void new ServerTask(wire, view.info.taskId, undefined).cancel().catch(() => {
      wire.onProblem(`${who}: the call was aborted; tasks/cancel of its task ${JSON.stringify(view.info.taskId)} failed, so it may run on`);
    });
  }
}

/** What tasks need of the client, from its context; `calls` routes status notifications to their watchers. */
function taskWire(context: ClientContext, calls: TaskCalls): TaskWire {
  return {
    get name() {
      return context.name;
    },
    get era() {
      return context.era === "modern" ? "modern" : "legacy";
    },
    request: (method, params, options) => context.request(method, params, options),
    fulfil: (who, request, key, signal) => context.fulfil(who, request, key, signal),
    finish: (result, tool) => context.toolResult(result, tool),
    canCancel: () => context.era === "modern" || context.serverCapabilities?.tasks?.cancel !== undefined,
    watch: (taskId, wake) => {
      const unwatch = calls.watch(taskId, wake);
      if (context.era !== "modern") return unwatch;
      // tasks extension ("Task Status Notifications"): the task id joins the listen filter.
      context.subscriptions.watchTask(taskId);
      return () => {
        unwatch();
        context.subscriptions.unwatchTask(taskId);
      };
    },
    get telemetry() {
      return context.telemetry;
    },
    emit: (update) => context.emit("taskStatus", context.options.name === undefined ? update : { ...update, server: context.options.name }),
    onProblem: (message) => context.problem(message),
  };
}

/**
 * The creating answer as the first state seen: 2025-11-25 any status; 2026-07-28 only
 * `working` (a CreateTaskResult does not inline a result or input requests, so those need a poll).
 */
function seedOf(view: TaskView, era: "legacy" | "modern"): TaskView | undefined {
  return era === "legacy" || view.info.status === "working" ? view : undefined;
}

/** `sent`, or a TaskError `aborted` once the signal aborts; a late answer goes to `late`. */
function abortable(sent: Promise<Params>, signal: AbortSignal, late: (raw: Params) => void): Promise<Params> {
  return new Promise<Params>((resolve, reject) => {
    let aborted = false;
    const onAbort = () => {
      aborted = true;
      reject(new TaskError("tools/call was aborted by the caller before the server answered", "cancelled"));
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    sent.then(
      (raw) => {
        signal.removeEventListener("abort", onAbort);
        if (aborted) late(raw);
        else resolve(raw);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/**
 * -32021 (2026-07-28 core) or -32003 (the tasks extension's text) naming the tasks extension:
 * the server needs it and this client turned it off — spec extension ("Capability Negotiation").
 */
export function explainMissingCapability(who: string, error: unknown): unknown {
  if (!(error instanceof MissingClientCapabilityError)) return error;
  const required = error.requiredCapabilities;
  const extensions = isObject(required) && isObject(required.extensions) ? required.extensions : {};
  if (!(TASKS_ID in extensions)) return error;
  return new MissingClientCapabilityError(
    `${who}: the server runs this only as a task and needs the tasks extension (${TASKS_ID}), which this client did not declare; ` +
      `do not turn it off (extensions: { "${TASKS_ID}": true })`,
    { data: error.data, rpcCode: error.rpcCode === -32003 ? -32003 : -32021, cause: error },
  );
}
