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

import { isObject, setOwn } from "../common/json.ts";
import type { Peer, RequestHandler } from "../jsonrpc/peer.ts";
import { APPS_EXTENSION, APPS_ID } from "./apps/apps-extension.ts";
import type { ClientContext } from "./client-context.ts";
import type { ExtensionOptions } from "./client-options.ts";
import type { ClientExtension, ExtensionHooks } from "./extension.ts";
import { SKILLS_EXTENSION, SKILLS_ID } from "./skills/skills-extension.ts";
import type { TaskCalls } from "./tasks/task-calls.ts";
import { TASKS_EXTENSION } from "./tasks/tasks-extension.ts";
import { TASKS_ID } from "./tasks/tasks.ts";
import type { ClientCapabilities, JsonObject, ServerCapabilities, Tool } from "./types.ts";

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
 * The extensions mcpwire implements, each from its folder, in the order their defaults are
 * declared. A Client installs those that have install() (tasks), whatever the `extensions`
 * option says: the handshake era's tasks (spec 2025-11-25) are core protocol there.
 */
export const IMPLEMENTED_EXTENSIONS: readonly ClientExtension[] = [APPS_EXTENSION, TASKS_EXTENSION, SKILLS_EXTENSION];

export type KnownExtension = (typeof EXTENSIONS)[keyof typeof EXTENSIONS];

/** A client's extension choices (ClientOptions.extensions), defined beside the other options. */
export type { ExtensionOptions } from "./client-options.ts";

/**
 * What the client declares for each extension it implements when the options say nothing.
 * An extension is listed here once its client side exists, so a server never sees a claim
 * the client cannot keep.
 */
const DEFAULT_SETTINGS: ReadonlyMap<string, JsonObject> = new Map<string, JsonObject>(
  IMPLEMENTED_EXTENSIONS.map((extension) => [extension.id, extension.settings]),
);

/** The identifiers on by default, for documentation and the CLI. */
export function defaultExtensions(): string[] {
  return [...DEFAULT_SETTINGS.keys()];
}

/**
 * The `extensions` map a client declares: the defaults, minus those turned off, plus those
 * named with settings. An unknown identifier set to `true` is refused (there are no default
 * settings to declare for it). spec 2026-07-28 basic/versioning: identifiers follow the
 * `_meta` key rules with a mandatory prefix.
 */
export function declaredExtensions(options: ExtensionOptions | undefined, explicit?: Record<string, JsonObject>): Record<string, JsonObject> {
  const declared: Record<string, JsonObject> = {};
  for (const [id, settings] of DEFAULT_SETTINGS) declared[id] = settings;
  for (const [id, settings] of Object.entries(explicit ?? {})) declared[id] = settings;
  for (const [id, choice] of Object.entries(options ?? {})) {
    if (!/^[A-Za-z0-9.-]+\/[A-Za-z0-9._-]+$/.test(id)) {
      throw new TypeError(`new Client(): extension "${id}" is not an extension identifier; use a prefixed name such as "${EXTENSIONS.tasks}"`);
    }
    if (choice === false) {
      delete declared[id];
    } else if (choice === true) {
      const settings = DEFAULT_SETTINGS.get(id);
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
  /** The tasks extension's hooks, which also serve the Client's task methods (startToolTask, resumeTask, listTasks). */
  readonly tasks: TaskCalls;
  /** The hooks of a claimed `resultType` of a tools/call answer (2026-07-28). */
  readonly results = new Map<string, ExtensionHooks>();
  readonly #hooks: ExtensionHooks[] = [];
  readonly #notifications = new Map<string, ExtensionHooks>();
  /** The extensions (by id) that claim a result type. */
  readonly #resultClaimers: string[] = [];

  constructor(context: ClientContext) {
    this.tasks = this.#install(TASKS_EXTENSION, context)!;
    for (const extension of IMPLEMENTED_EXTENSIONS) if (extension !== TASKS_EXTENSION) this.#install(extension, context);
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

  /** The tools (of a listing) whose calls an extension takes, by name. */
  claimedTools(tools: Iterable<Tool>): Map<string, ToolCallClaim> {
    const claimed = new Map<string, ToolCallClaim>();
    for (const tool of tools) {
      const hooks = this.#hooks.find((hooks): hooks is ToolCallClaim => hooks.callTool !== undefined && hooks.claimsTool?.(tool) === true);
      if (hooks !== undefined) claimed.set(tool.name, hooks);
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
