// The capabilities a Client declares, from its options — spec 2025-11-25 basic/lifecycle
// ("Capability Negotiation"), client/sampling, client/elicitation, client/roots,
// basic/utilities/tasks ("Client Capabilities"); spec 2026-07-28 basic/versioning (extensions).

import type { ClientOptions } from "./client-options.ts";
import { declaredExtensions, withExtensions } from "./extensions.ts";
import { TASKS_ID } from "./tasks/tasks.ts";
import type { ClientCapabilities } from "./types.ts";

/**
 * The capabilities a client declares: those its handlers answer, merged with the explicit
 * `capabilities` option, which cannot claim a handler it does not have.
 */
export function declaredCapabilities(options: ClientOptions): ClientCapabilities {
  const handlers = options.handlers ?? {};
  const explicit = options.capabilities ?? {};
  const declared: ClientCapabilities = { ...explicit };
  const refuse = (what: string, fix: string): never => {
    throw new TypeError(`new Client(): the capabilities option declares ${what} but ${fix}`);
  };

  if (handlers.sampling !== undefined) {
    const tools = options.sampling?.tools === true;
    if (explicit.sampling?.tools !== undefined && !tools) refuse("sampling.tools", "the sampling policy does not allow tools; set sampling: { tools: true }");
    declared.sampling = { ...explicit.sampling, ...(tools ? { tools: {} } : {}) };
  } else if (explicit.sampling !== undefined) {
    refuse("sampling", "there is no handlers.sampling; give a sampling handler");
  }

  const elicitation = handlers.elicitation ?? {};
  if (explicit.elicitation !== undefined) {
    // spec 2025-11-25 client/elicitation ("Capabilities"): an empty object means form mode.
    const modes = Object.keys(explicit.elicitation).length === 0 ? ["form"] : Object.keys(explicit.elicitation);
    for (const mode of modes) {
      if ((mode === "form" || mode === "url") && elicitation[mode] === undefined) {
        refuse(`elicitation.${mode}`, `there is no handlers.elicitation.${mode}; give a ${mode}-mode elicitation handler`);
      }
    }
  }
  if (elicitation.form !== undefined || elicitation.url !== undefined) {
    declared.elicitation = {
      ...(elicitation.form !== undefined ? { form: {} } : {}),
      ...(elicitation.url !== undefined ? { url: {} } : {}),
    };
  } else {
    delete declared.elicitation;
  }

  // Roots need no human or model: declared without a list or handler, roots/list answers
  // the static list, empty until setRoots().
  if (handlers.roots !== undefined || options.roots !== undefined || explicit.roots !== undefined) {
    declared.roots = { ...explicit.roots, listChanged: true };
  }

  // spec 2025-11-25 basic/utilities/tasks ("Client Capabilities"): what the client can run as
  // a task, from its handlers; tasks/list and tasks/cancel serve those tasks. Only a client given
  // the tasks extension's code (use: [tasksExtension]) runs them.
  if (explicit.tasks !== undefined) refuse("tasks", "the client declares tasks itself from its handlers; use the taskReceiver option (false declares none)");
  const installed = options.use ?? [];
  for (const extension of installed) {
    // An extension's code comes from mcpwire (tasksExtension): it installs itself on the connection.
    if (typeof extension?.id !== "string" || typeof (extension as { install?: unknown }).install !== "function") {
      throw new TypeError("new Client(): `use` takes extensions with code from mcpwire, such as tasksExtension; an entry is not one");
    }
  }
  const tasks = installed.some((extension) => extension.id === TASKS_ID);
  const taskRequests = {
    ...(declared.sampling !== undefined ? { sampling: { createMessage: {} } } : {}),
    ...(declared.elicitation !== undefined ? { elicitation: { create: {} } } : {}),
  };
  if (tasks && options.taskReceiver !== false && Object.keys(taskRequests).length > 0) {
    declared.tasks = { list: {}, cancel: {}, requests: taskRequests };
  }
  return withExtensions(declared, declaredExtensions(options.extensions, explicit.extensions, installed));
}

/**
 * The capabilities as the 2026-07-28 wire has them: roots without listChanged (that
 * notification is gone) and no `tasks` (spec 2026-07-28 changelog item 6: tasks moved to the
 * io.modelcontextprotocol/tasks extension, and servers send no requests of their own).
 */
export function modernCapabilities(declared: ClientCapabilities): ClientCapabilities {
  const { tasks: _tasks, ...modern } = declared;
  return modern.roots === undefined ? modern : { ...modern, roots: {} };
}
