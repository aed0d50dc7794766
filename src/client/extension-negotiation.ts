// Extension negotiation — spec 2026-07-28 basic/versioning ("Extension Negotiation"): each
// side advertises the extensions it supports in the `extensions` field of its capabilities,
// a map of extension identifiers to settings objects ({} = supported, no settings). An
// extension is in force on a connection only when both sides declared it; otherwise the
// client keeps to the core protocol (spec: "revert to core protocol behavior").
//
// Handshake era (2025-11-25 and earlier): the map travels in `initialize`'s capabilities.
// 2026-07-28: in every request's `_meta` client capabilities, and in server/discover's answer.
//
// A client declares the extensions it was given (ClientOptions.use: tasksExtension,
// skillsExtension, appsExtension, or anyone's ClientExtension: extension.ts) and those its
// `extensions` option names with settings. The core names none of them: their identifiers are
// strings here, and InstalledExtensions holds whatever install() gave back. McpManager and the
// CLI give every client all three of mcpwire's.

import { isObject, setOwn } from "../common/json.ts";
import type { Middleware } from "../jsonrpc/middleware.ts";
import type { ClientContext } from "./client-context.ts";
import type { ExtensionOptions } from "./client-options.ts";
import { TaskError } from "./errors.ts";
import type { ClientExtension, ExtensionParts } from "./extension.ts";
import type { ClientCapabilities, JsonObject, ServerCapabilities } from "./types.ts";

/** The official extensions mcpwire implements, by identifier (each folder's extension value carries the same). */
export const EXTENSIONS = {
  /** Tasks: long-running requests polled to their result (SEP-2663). */
  tasks: "io.modelcontextprotocol/tasks",
  /** Skills served over resources (SEP-2640). */
  skills: "io.modelcontextprotocol/skills",
  /** MCP Apps: interactive UI as ui:// resources tied to tools. */
  apps: "io.modelcontextprotocol/ui",
} as const;

/** The export of mcpwire that is each official extension's value, by identifier: for the message that names what to import. */
const EXPORTS: Readonly<Record<string, string>> = {
  [EXTENSIONS.tasks]: "tasksExtension",
  [EXTENSIONS.skills]: "skillsExtension",
  [EXTENSIONS.apps]: "appsExtension",
};

/** How to give a client an extension, for a message: `use: [tasksExtension]`. */
export function installHint(id: string): string {
  const name = EXPORTS[id];
  if (name === undefined) return `pass its ClientExtension in use: [...] to new Client()`;
  return `pass use: [${name}] to new Client() (import { ${name} } from "mcpwire")`;
}

export type KnownExtension = (typeof EXTENSIONS)[keyof typeof EXTENSIONS];

/** A client's extension choices (ClientOptions.extensions), defined beside the other options. */
export type { ExtensionOptions } from "./client-options.ts";

/**
 * What the client declares for each extension it was given when the options say nothing. An
 * extension is listed once its client side runs, so a server never sees a claim the client
 * cannot keep.
 */
function defaultSettings(installed: readonly ClientExtension[]): Map<string, JsonObject> {
  return new Map(installed.map((extension) => [extension.id, extension.settings]));
}

/** The identifiers on by default, given the extensions installed (ClientOptions.use), for documentation and the CLI. */
export function defaultExtensions(installed: readonly ClientExtension[] = []): string[] {
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
  installed: readonly ClientExtension[] = [],
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
      if (settings === undefined && EXPORTS[id] !== undefined) {
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

/**
 * The extensions installed on one client (extension.ts install), in the order they were given:
 * their links, outermost first, and what each took of the answers (`results`).
 */
export class InstalledExtensions {
  readonly #parts = new Map<string, ExtensionParts>();
  /** The extensions (by id) that take a result type. */
  readonly #resultTakers: string[] = [];

  constructor(context: ClientContext, installed: readonly ClientExtension[]) {
    for (const extension of installed) {
      if ((extension.results ?? []).length > 0) this.#resultTakers.push(extension.id);
      const parts = extension.install?.(context);
      if (parts !== undefined) this.#parts.set(extension.id, parts);
    }
  }

  /** What `extension`'s install() gave this client, if it was given that extension (Client.installed). */
  api<Api extends ExtensionParts>(extension: ClientExtension<Api>): Api | undefined {
    return this.#parts.get(extension.id) as Api | undefined; // installed from this very value, or one with its id
  }

  /** Whether an extension with this identifier was installed. */
  has(id: string): boolean {
    return this.#parts.has(id);
  }

  /** Their links, in the order the extensions were given (the first outermost): made at each connect. */
  middleware(): Middleware[] {
    const links: Middleware[] = [];
    for (const parts of this.#parts.values()) {
      const link = parts.middleware?.();
      if (link !== undefined) links.push(link);
    }
    return links;
  }

  /**
   * The methods whose answer may carry a taken resultType (modern-request.ts taskMethods):
   * tools/call when the client declared an extension that takes one — tasks extension ("Supported Methods").
   */
  resultMethods(declared: Record<string, JsonObject> | undefined): ReadonlySet<string> {
    return new Set(this.#resultTakers.some((id) => declared?.[id] !== undefined) ? ["tools/call"] : []);
  }

  /** The connection ended or is closing. */
  close(reason: string): void {
    for (const parts of this.#parts.values()) parts.close?.(reason);
  }
}

/** The TaskError of a task operation in a client without the tasks extension, saying how to install it. */
export function missingTasks(who: string, what: string): TaskError {
  return new TaskError(`${who}: ${what} needs the tasks extension, which this client was not given; ${installHint(EXTENSIONS.tasks)}`, "unsupported");
}
