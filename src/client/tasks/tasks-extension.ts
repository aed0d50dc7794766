// The tasks extension as the client sees it (extension.ts): io.modelcontextprotocol/tasks
// (SEP-2663) on the 2026-07-28 wire, and the tasks of spec 2025-11-25 basic/utilities/tasks in
// the handshake era, which the same hooks serve. The work is in task-calls.ts and tool-task.ts.

import type { ClientExtension, ExtensionParts } from "../extension.ts";
import { missingTasks } from "../extension-negotiation.ts";
import { TaskCalls } from "./task-calls.ts";
import { TASKS_ID } from "./tasks.ts";

/**
 * Tasks, for `new Client(info, { use: [tasksExtension] })`: a tools/call the server (or the tool,
 * or the caller) runs as a task, polled to its result; the server's task-augmented requests.
 * Its links in the chain: task-calls.ts middleware(). Its API: tasksOf(client).
 */
export const tasksExtension: ClientExtension<TaskCalls> = {
  id: TASKS_ID,
  // Tasks extension ("Capability Negotiation"): no settings are defined; {} declares support.
  settings: {},
  methods: ["tasks/get", "tasks/result", "tasks/update", "tasks/cancel", "tasks/list"],
  // tasks extension ("Task Creation"): the server may answer a tools/call with a task.
  results: ["task"],
  // spec 2025-11-25 basic/utilities/tasks ("Client Capabilities"): what the client can run as a
  // task, from its handlers; tasks/list and tasks/cancel serve those tasks.
  capabilities: (declared, options) => {
    const requests = {
      ...(declared.sampling !== undefined ? { sampling: { createMessage: {} } } : {}),
      ...(declared.elicitation !== undefined ? { elicitation: { create: {} } } : {}),
    };
    if (options.taskReceiver === false || Object.keys(requests).length === 0) return declared;
    return { ...declared, tasks: { list: {}, cancel: {}, requests } };
  },
  install: (context) => new TaskCalls(context),
};

/**
 * The tasks of a client given tasksExtension: start a tool call as a task, resume one by id,
 * list the server's. Throws a TaskError `unsupported` saying what to import otherwise.
 */
export function tasksOf(client: { installed<Api extends ExtensionParts>(extension: ClientExtension<Api>): Api | undefined }): TaskCalls {
  const calls = client.installed(tasksExtension);
  if (calls === undefined) throw missingTasks("this client", "tasksOf(client)");
  return calls;
}
