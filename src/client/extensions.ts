// Extension negotiation — spec 2026-07-28 basic/versioning ("Extension Negotiation"): each
// side advertises the extensions it supports in the `extensions` field of its capabilities,
// a map of extension identifiers to settings objects ({} = supported, no settings). An
// extension is in force on a connection only when both sides declared it; otherwise the
// client keeps to the core protocol (spec: "revert to core protocol behavior").
//
// Handshake era (2025-11-25 and earlier): the map travels in `initialize`'s capabilities.
// 2026-07-28: in every request's `_meta` client capabilities, and in server/discover's answer.
// The extensions mcpwire implements, and their hooks installed on one client (InstalledExtensions);
// what one extension is to the client: extension.ts; each lives in its folder.
//
// Two kinds: skills and apps are declarations the client always makes (their code works over the
// public Client, imported by whoever uses it); tasks acts on the connection and is installed only
// when the client is given its code (ClientOptions.use: [tasksExtension]), so that a client that
// never meets a task does not carry it (its bundle: issue 28's size budget). McpManager installs it.

import { isObject, setOwn } from "../common/json.ts";
import type { Peer, RequestHandler } from "../jsonrpc/peer.ts";
import { APPS_EXTENSION, APPS_ID } from "./apps/apps-extension.ts";
import type { ClientContext } from "./client-context.ts";
import type { ExtensionCode, ExtensionOptions } from "./client-options.ts";
import type { ClientExtension, ExtensionHooks } from "./extension.ts";
import { SKILLS_EXTENSION, SKILLS_ID } from "./skills/skills-extension.ts";
import { TaskError } from "./errors.ts";
import type { TaskCalls } from "./tasks/task-calls.ts";
import { TASKS_ID } from "./tasks/tasks.ts";
import type { CallToolResult, ClientCapabilities, JsonObject, ServerCapabilities, Tool } from "./types.ts";

/** The official extensions mcpwire implements, by identifier. */
export const EXTENSIONS = {
  /** Tasks: long-running requests polled to their result (SEP-2663). */
  tasks: TASKS_ID,
  /** Skills served over resources (SEP-2640). */
  skills: SKILLS_ID,
  /** MCP Apps: interactive UI as ui:// resources tied to tools. */
  apps: APPS_ID,
} as const;

/**
 * The extensions every Client declares (unless turned off), each from its folder: declarations
 * whose code works over the public Client. Extensions with code on the connection (tasks) are
 * declared by the clients given them in ClientOptions.use.
 */
const DECLARED_EXTENSIONS: readonly ClientExtension[] = [APPS_EXTENSION, SKILLS_EXTENSION];

/** The extensions with code a client may be given (ClientOptions.use), by identifier: for the message that names what to import. */
const INSTALLABLE: Readonly<Record<string, string>> = { [TASKS_ID]: "tasksExtension" };

/** How to install an extension's code, for a message: `use: [tasksExtension]`. */
export function installHint(id: string): string {
  const name = INSTALLABLE[id] ?? "its extension";
  return `pass use: [${name}] to new Client() (import { ${name} } from "mcpwire")`;
}

export type KnownExtension = (typeof EXTENSIONS)[keyof typeof EXTENSIONS];

/** A client's extension choices (ClientOptions.extensions), defined beside the other options. */
export type { ExtensionOptions } from "./client-options.ts";

/**
 * What the client declares for each extension it implements when the options say nothing: the
 * declarations, then the extensions it was given the code of. An extension is listed once its
 * client side runs, so a server never sees a claim the client cannot keep.
 */
function defaultSettings(installed: readonly ExtensionCode[]): Map<string, JsonObject> {
  return new Map([...DECLARED_EXTENSIONS, ...installed].map((extension) => [extension.id, extension.settings]));
}

/** The identifiers on by default, given the extensions installed (ClientOptions.use), for documentation and the CLI. */
export function defaultExtensions(installed: readonly ExtensionCode[] = []): string[] {
  return [...defaultSettings(installed).keys()];
}

/**
 * The `extensions` map a client declares: the defaults (those of `installed` among them), minus
 * those turned off, plus those named with settings. An unknown identifier set to `true` is
 * refused (there are no default settings to declare for it), and so is an installable one whose
 * code the client was not given. spec 2026-07-28 basic/versioning: identifiers follow the `_meta`
 * key rules with a mandatory prefix.
 */
export function declaredExtensions(
  options: ExtensionOptions | undefined,
  explicit?: Record<string, JsonObject>,
  installed: readonly ExtensionCode[] = [],
): Record<string, JsonObject> {
  const defaults = defaultSettings(installed);
  const declared: Record<string, JsonObject> = {};
  for (const [id, settings] of defaults) declared[id] = settings;
  for (const [id, settings] of Object.entries(explicit ?? {})) declared[id] = settings;
  for (const [id, choice] of Object.entries(options ?? {})) {
    if (!/^[A-Za-z0-9.-]+\/[A-Za-z0-9._-]+$/.test(id)) {
      throw new TypeError(`new Client(): extension "${id}" is not an extension identifier; use a prefixed name such as "${EXTENSIONS.tasks}"`);
    }
    if (choice === false) {
      delete declared[id];
    } else if (choice === true) {
      const settings = defaults.get(id);
      if (settings === undefined && INSTALLABLE[id] !== undefined) {
        throw new TypeError(`new Client(): extension "${id}" needs its code in this client; ${installHint(id)}`);
      }
      if (settings === undefined) {
        throw new TypeError(
          `new Client(): extension "${id}" is not one mcpwire implements, so it has no default settings; give its settings object instead of true`,
        );
      }
      declared[id] = settings;
    } else {
      declared[id] = choice;
    }
  }
  return declared;
}

/** The client capabilities with the declared extensions in them (none: no `extensions` key). */
export function withExtensions(capabilities: ClientCapabilities, extensions: Record<string, JsonObject>): ClientCapabilities {
  const rest: ClientCapabilities = { ...capabilities };
  delete rest.extensions;
  return Object.keys(extensions).length === 0 ? rest : { ...rest, extensions };
}

/** The server's declared extensions, each settings value an object (anything else is dropped). */
export function serverExtensions(capabilities: ServerCapabilities | undefined): Record<string, JsonObject> {
  const declared = capabilities?.extensions;
  const out: Record<string, JsonObject> = {};
  if (!isObject(declared)) return out;
  for (const [id, settings] of Object.entries(declared)) {
    if (isObject(settings)) setOwn(out, id, settings); // the server's ids: `__proto__` is an id, not our prototype
  }
  return out;
}

/**
 * The server's settings of an extension when both sides declared it, else undefined: the
 * one test a feature makes before it uses an extension's methods.
 */
export function negotiatedExtension(
  client: Record<string, JsonObject>,
  server: ServerCapabilities | undefined,
  id: string,
): JsonObject | undefined {
  if (client[id] === undefined) return undefined;
  return serverExtensions(server)[id];
}

/** An installed extension that takes tools/call requests in place of the plain path. */
export type ToolCallClaim = ExtensionHooks & Required<Pick<ExtensionHooks, "callTool">>;

/**
 * The implemented extensions installed on one client (extension.ts install), and what each
 * claims: notifications by method, tools/call results by `resultType`, tools/call requests.
 */
export class InstalledExtensions {
  /** The tasks extension's hooks, which also serve the Client's task methods (startToolTask, resumeTask, listTasks); undefined when not installed. */
  readonly tasks: TaskCalls | undefined;
  /** The hooks of a claimed `resultType` of a tools/call answer (2026-07-28). */
  readonly results = new Map<string, ExtensionHooks>();
  readonly #hooks: ExtensionHooks[] = [];
  readonly #notifications = new Map<string, ExtensionHooks>();
  /** The extensions (by id) that claim a result type. */
  readonly #resultClaimers: string[] = [];

  constructor(context: ClientContext, installed: readonly ExtensionCode[]) {
    let tasks: TaskCalls | undefined;
    // Each `use` entry is a ClientExtension: new Client() checked it has an install() (client-capabilities.ts).
    for (const extension of [...DECLARED_EXTENSIONS, ...(installed as readonly ClientExtension[])]) {
      const hooks = this.#install(extension, context);
      if (extension.id === TASKS_ID) tasks = hooks as TaskCalls | undefined; // tasks-extension.ts installs a TaskCalls
    }
    this.tasks = tasks;
  }

  #install<Api extends ExtensionHooks>(extension: ClientExtension<Api>, context: ClientContext): Api | undefined {
    const hooks = extension.install?.(context);
    if (hooks === undefined) return undefined;
    this.#hooks.push(hooks);
    for (const method of extension.notifications ?? []) this.#notifications.set(method, hooks);
    for (const type of extension.results ?? []) this.results.set(type, hooks);
    if ((extension.results ?? []).length > 0) this.#resultClaimers.push(extension.id);
    return hooks;
  }

  /**
   * The methods whose answer may carry a claimed resultType (modern-request.ts taskMethods):
   * tools/call when the client declared an extension that claims one — tasks extension ("Supported Methods").
   */
  resultMethods(declared: Record<string, JsonObject> | undefined): ReadonlySet<string> {
    return new Set(this.#resultClaimers.some((id) => declared?.[id] !== undefined) ? ["tools/call"] : []);
  }

  /** The claimed notifications' handlers and the requests the extensions serve, on a new Peer. */
  installOn(peer: Peer): void {
    for (const [method, hooks] of this.#notifications) peer.setNotificationHandler(method, (params) => hooks.notification?.(method, params));
    for (const hooks of this.#hooks) hooks.serve?.(peer);
  }

  /** A handler of the client's, as each extension runs it (server-requests.ts `wrap`). */
  wrapHandler(method: string, handler: RequestHandler): RequestHandler {
    return this.#hooks.reduce((wrapped, hooks) => hooks.wrapHandler?.(method, wrapped) ?? wrapped, handler);
  }

  /** The connection ended or is closing. */
  close(reason: string): void {
    for (const hooks of this.#hooks) hooks.close?.(reason);
  }

  /** Handshake era: the extension that takes every tools/call of this server, if one does. */
  everyToolCall(server: ServerCapabilities): ToolCallClaim | undefined {
    return this.#hooks.find((hooks): hooks is ToolCallClaim => hooks.callTool !== undefined && hooks.claimsEveryToolCall?.(server) === true);
  }

  /**
   * The tools (of a listing) whose calls an extension takes, by name. Without the tasks extension,
   * a tool that requires a task is claimed by a refusal: spec 2025-11-25 basic/utilities/tasks
   * ("Tool-Level Negotiation"): such a tool MUST be invoked as a task, which this client cannot do.
   */
  claimedTools(tools: Iterable<Tool>, who: string): Map<string, ToolCallClaim> {
    const claimed = new Map<string, ToolCallClaim>();
    for (const tool of tools) {
      const hooks = this.#hooks.find((hooks): hooks is ToolCallClaim => hooks.callTool !== undefined && hooks.claimsTool?.(tool) === true);
      if (hooks !== undefined) claimed.set(tool.name, hooks);
      else if (this.tasks === undefined && tool.execution?.taskSupport === "required") claimed.set(tool.name, refusedTaskTool(who));
    }
    return claimed;
  }

  /** A failed tools/call's error, explained by the extension that is its reason (else as it was). */
  explain(who: string, error: unknown): unknown {
    for (const hooks of this.#hooks) {
      const explained = hooks.explainError?.(who, error) ?? error;
      if (explained !== error) return explained;
    }
    return error;
  }
}

/** The claim on a tool that requires a task, in a client without the tasks extension: each call fails at once, saying what to install. */
function refusedTaskTool(who: string): ToolCallClaim {
  return {
    callTool(name: string): Promise<CallToolResult> {
      return Promise.reject(
        new TaskError(
          `${who}: tools/call "${name}": the tool requires a task (execution.taskSupport "required", spec 2025-11-25 basic/utilities/tasks) and this client has no tasks extension; ${
            installHint(TASKS_ID)
          }`,
          "unsupported",
        ),
      );
    },
  };
}

/** The TaskError of a task operation in a client without the tasks extension, saying how to install it. */
export function missingTasks(who: string, what: string): TaskError {
  return new TaskError(`${who}: ${what} needs the tasks extension, which this client was not given; ${installHint(TASKS_ID)}`, "unsupported");
}

/** The tasks extension's hooks of a client (Client.startToolTask, resumeTask, listTasks), else throws missingTasks(). */
export function requireTasks(extensions: InstalledExtensions, who: string, what: string): TaskCalls {
  if (extensions.tasks !== undefined) return extensions.tasks;
  throw missingTasks(who, what);
}
