// The server's tasks that this client runs — spec 2025-11-25 basic/utilities/tasks ("Client
// Capabilities", "Creating Tasks", "Protocol Messages"): a sampling or elicitation request that
// carries `task` runs as one, answered at once with a CreateTaskResult; tasks/get, tasks/result,
// tasks/list and tasks/cancel serve those tasks. The tasks themselves: task-store.ts. The client
// meets it through the tasks extension's link (task-calls.ts middleware(), extension.ts).

import type { Receive } from "../../jsonrpc/middleware.ts";
import type { ClientContext } from "../client-context.ts";
import { TaskStore } from "./task-store.ts";

/** Runs the server's task-augmented requests as tasks, when this client declared tasks (client-capabilities.ts). */
export class TaskReceiver {
  readonly #context: ClientContext;
  /** The tasks the server asked this client to run on the current connection. */
  #tasks: TaskStore | undefined;

  constructor(context: ClientContext) {
    this.#context = context;
  }

  /**
   * The receiving link of the tasks extension: spec 2025-11-25 basic/utilities/tasks ("Protocol
   * Messages"): tasks/get, tasks/result, tasks/list and tasks/cancel serve the server's tasks; a
   * sampling or elicitation request that carries `task` ("Creating Tasks") runs as one — a
   * CreateTaskResult at once, the outcome through tasks/result — for the requests the client
   * declared in tasks.requests. Anything else goes on to `next` as it is.
   */
  link(next: Receive): Receive {
    const tasks = this.#context.capabilities.tasks;
    if (tasks === undefined) return next;
    const requests = tasks.requests;
    const asTask = new Set([
      ...(requests?.elicitation?.create !== undefined ? ["elicitation/create"] : []),
      ...(requests?.sampling?.createMessage !== undefined ? ["sampling/createMessage"] : []),
    ]);
    return (method, params, context) => {
      switch (method) {
        case "tasks/get":
          return this.#store().get(params);
        case "tasks/result":
          return this.#store().result(params, context.signal);
        case "tasks/list":
          if (tasks.list !== undefined) return this.#store().list(params);
          break;
        case "tasks/cancel":
          if (tasks.cancel !== undefined) return this.#store().cancel(params);
          break;
        default:
          if (params?.task !== undefined && asTask.has(method)) {
            const { task, ...request } = params;
            const { requestId } = context;
            // The handler's signal is the task's: tasks/cancel, ttl expiry and the connection's end abort it.
            return this.#store().create(method, task, async (signal) => await next(method, request, { requestId, method, signal }));
          }
      }
      return next(method, params, context);
    };
  }

  /** The store of the current connection, made at its first task. */
  #store(): TaskStore {
    if (this.#tasks !== undefined) return this.#tasks;
    const receiver = this.#context.options.taskReceiver;
    const limits = receiver === false ? {} : receiver ?? {};
    return this.#tasks = new TaskStore({
      ...limits,
      name: () => this.#context.name,
      notify: (task) => this.#context.notify("notifications/tasks/status", task),
      onProblem: (message) => this.#context.problem(message),
    });
  }

  /** The connection ended: running tasks stop and are forgotten. */
  close(reason: string): void {
    this.#tasks?.close(reason);
    this.#tasks = undefined;
  }
}
