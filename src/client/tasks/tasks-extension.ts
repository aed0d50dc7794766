// The tasks extension as the client sees it (extension.ts): io.modelcontextprotocol/tasks
// (SEP-2663) on the 2026-07-28 wire, and the tasks of spec 2025-11-25 basic/utilities/tasks in
// the handshake era, which the same hooks serve. The work is in task-calls.ts and tool-task.ts.

import type { ClientExtension } from "../extension.ts";
import { TaskCalls } from "./task-calls.ts";
import { TASKS_ID } from "./tasks.ts";

/**
 * Tasks, for `new Client(info, { use: [tasksExtension] })`: a tools/call the server (or the tool,
 * or the caller) runs as a task, polled to its result; the server's task-augmented requests.
 */
export const tasksExtension: ClientExtension<TaskCalls> = {
  id: TASKS_ID,
  // Tasks extension ("Capability Negotiation"): no settings are defined; {} declares support.
  settings: {},
  methods: ["tasks/get", "tasks/result", "tasks/update", "tasks/cancel", "tasks/list"],
  // spec 2025-11-25 basic/utilities/tasks ("Task Status Notification") and the 2026-07-28
  // tasks extension ("Task Status Notifications"): hints beside polling, never relied on.
  notifications: ["notifications/tasks/status", "notifications/tasks"],
  // tasks extension ("Task Creation"): the server may answer a tools/call with a task.
  results: ["task"],
  install: (context) => new TaskCalls(context),
};
