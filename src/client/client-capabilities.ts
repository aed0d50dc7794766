// The capabilities a Client declares, from its options — spec 2025-11-25 basic/lifecycle
// ("Capability Negotiation"), client/sampling, client/elicitation, client/roots,
// basic/utilities/tasks ("Client Capabilities"); spec 2026-07-28 basic/versioning (extensions).

import { isObject } from "../common/json.ts";
import type { ClientOptions } from "./client-options.ts";
import type { ClientExtension } from "./extension.ts";
import { declaredExtensions, withExtensions } from "./extension-negotiation.ts";
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

  // spec 2025-11-25 basic/utilities/tasks ("Client Capabilities"): the client declares tasks
  // itself, from its handlers, when it was given the tasks extension (its capabilities()).
  if (explicit.tasks !== undefined) refuse("tasks", "the client declares tasks itself from its handlers; use the taskReceiver option (false declares none)");
  const installed = options.use ?? [];
  let withParts = declared;
  for (const extension of installed) {
    // An extension is a value (extension.ts): an id, its settings, and optionally its code.
    if (typeof extension?.id !== "string" || !isObject(extension.settings) || !Array.isArray(extension.methods)) {
      throw new TypeError("new Client(): `use` takes extensions (tasksExtension, skillsExtension, appsExtension, or a ClientExtension); an entry is not one");
    }
    const contributes = (extension as ClientExtension).capabilities; // a `use` entry is a ClientExtension (client-options.ts ExtensionValue)
    if (contributes !== undefined) withParts = contributes(withParts, options);
  }
  return withExtensions(withParts, declaredExtensions(options.extensions, explicit.extensions, installed));
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
