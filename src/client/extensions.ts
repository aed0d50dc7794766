// Extension negotiation — spec 2026-07-28 basic/versioning ("Extension Negotiation"): each
// side advertises the extensions it supports in the `extensions` field of its capabilities,
// a map of extension identifiers to settings objects ({} = supported, no settings). An
// extension is in force on a connection only when both sides declared it; otherwise the
// client keeps to the core protocol (spec: "revert to core protocol behavior").
//
// Handshake era (2025-11-25 and earlier): the map travels in `initialize`'s capabilities.
// 2026-07-28: in every request's `_meta` client capabilities, and in server/discover's answer.

import { isObject, setOwn } from "../common/json.ts";
import type { ClientCapabilities, JsonObject, ServerCapabilities } from "./types.ts";

/** The official extensions mcpwire implements, by identifier. */
export const EXTENSIONS = {
  /** Tasks: long-running requests polled to their result (SEP-2663). */
  tasks: "io.modelcontextprotocol/tasks",
  /** Skills served over resources (SEP-2640). */
  skills: "io.modelcontextprotocol/skills",
  /** MCP Apps: interactive UI as ui:// resources tied to tools. */
  apps: "io.modelcontextprotocol/ui",
} as const;

export type KnownExtension = (typeof EXTENSIONS)[keyof typeof EXTENSIONS];

/**
 * A client's extension choices: an identifier to the settings object it declares, `true`
 * for the default settings of an extension mcpwire implements, `false` to turn one off.
 * Extensions mcpwire implements are on unless turned off here.
 */
export type ExtensionOptions = Record<string, JsonObject | boolean>;

/**
 * What the client declares for each extension it implements when the options say nothing.
 * An extension is listed here once its client side exists, so a server never sees a claim
 * the client cannot keep.
 */
const DEFAULT_SETTINGS: ReadonlyMap<string, JsonObject> = new Map<string, JsonObject>([
  // ext-apps 2026-01-26 "Client (Host) Capabilities": mimeTypes is REQUIRED (client/apps/apps.ts).
  [EXTENSIONS.apps, { mimeTypes: ["text/html;profile=mcp-app"] }],
  // Tasks extension ("Capability Negotiation"): no settings are defined; {} declares support.
  [EXTENSIONS.tasks, {}],
  [EXTENSIONS.skills, {}], // src/client/skills/skills.ts (ServerSkills)
]);

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
        throw new TypeError(`new Client(): extension "${id}" is not one mcpwire implements, so it has no default settings; give its settings object instead of true`);
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
