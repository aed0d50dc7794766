// The server's tasks that this client runs — spec 2025-11-25 basic/utilities/tasks ("Client
// Capabilities", "Creating Tasks", "Protocol Messages"): a sampling or elicitation request that
// carries `task` runs as one, answered at once with a CreateTaskResult; tasks/get, tasks/result,
// tasks/list and tasks/cancel serve those tasks. The tasks themselves: task-store.ts. The client
// meets it through the tasks extension's hooks (task-calls.ts, extension.ts).

import type { Peer, RequestHandler } from "../../jsonrpc/peer.ts";
import type { ClientContext } from "../client-context.ts";
import { TaskStore } from "./task-store.ts";

/** Runs the server's task-augmented requests as tasks, when this client declared tasks (client-capabilities.ts). */
export class TaskReceiver {
  readonly #context: ClientContext;
  /** The tasks the server asked this client to run on the current connection. */
  #store: TaskStore | undefined;

  constructor(context: ClientContext) {
    this.#context = context;
  }

  /** spec 2025-11-25 basic/utilities/tasks ("Protocol Messages"): the task methods, for the server's tasks. */
  serve(peer: Peer): void {
    const tasks = this.#context.capabilities.tasks;
    if (tasks === undefined) return;
    const receiver = this.#context.options.taskReceiver;
    const limits = receiver === false ? {} : receiver ?? {};
    const store = new TaskStore({
      ...limits,
      name: () => this.#context.name,
      notify: (task) => peer.notify("notifications/tasks/status", task),
      onProblem: (message) => this.#context.problem(message),
    });
    this.#store = store;
    peer.setRequestHandler("tasks/get", (params) => store.get(params));
    peer.setRequestHandler("tasks/result", (params, context) => store.result(params, context.signal));
    if (tasks.list !== undefined) peer.setRequestHandler("tasks/list", (params) => store.list(params));
    if (tasks.cancel !== undefined) peer.setRequestHandler("tasks/cancel", (params) => store.cancel(params));
  }

  /**
   * `handler`, run as a task when the request carries `params.task` — spec 2025-11-25
   * basic/utilities/tasks ("Creating Tasks"): a CreateTaskResult at once, the outcome through
   * tasks/result. Without `task` the request is answered as before. Only for the requests the
   * client declared in tasks.requests; any other handler is returned as it is.
   */
  wrapHandler(method: string, handler: RequestHandler): RequestHandler {
    const requests = this.#context.capabilities.tasks?.requests;
    const declared = method === "elicitation/create"
      ? requests?.elicitation?.create
      : method === "sampling/createMessage"
      ? requests?.sampling?.createMessage
      : undefined;
    if (declared === undefined) return handler;
    return async (params, context) => {
      const store = this.#store;
      if (params?.task === undefined || store === undefined) return await handler(params, context);
      const { task, ...request } = params;
      const { method, requestId } = context;
      // The handler's signal is the task's: tasks/cancel, ttl expiry and the connection's end abort it.
      return store.create(method, task, async (signal) => await handler(request, { requestId, method, signal }));
    };
  }

  /** The connection ended: running tasks stop and are forgotten. */
  close(reason: string): void {
    this.#store?.close(reason);
  }
}
