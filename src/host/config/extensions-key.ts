// The `extensions` key, at the top level (every server) and on a server entry (that server):
// which official extensions a server's client declares — spec 2026-07-28 basic/versioning
// ("Extension Negotiation"). Every extension mcpwire implements is on by default; `false`
// turns one off, so the server sees no declaration of it; a server's entry wins over the top
// level. Names: the short tasks, skills, apps, or the full identifier.
//
//   extensions: { apps: false }                     # top level: off for every server
//   mcp_servers: { s: { extensions: { apps: true } } }   # … but on for s

import type { ExtensionOptions } from "../../client/extension-negotiation.ts";
import { EXTENSIONS } from "../../client/extension-negotiation.ts";
import { isObject } from "../../common/json.ts";
import { type Context, describe, problem } from "./context.ts";
import type { McpwireConfig, ServerConfig } from "./types.ts";

/** The short names the config accepts, and the identifiers they stand for. */
const SHORT_NAMES: Readonly<Record<string, string>> = EXTENSIONS;
const IMPLEMENTED = new Set<string>(Object.values(EXTENSIONS));
/** spec 2026-07-28 basic/versioning: an identifier is a prefixed name, `vendor.prefix/name`. */
const IDENTIFIER = /^[A-Za-z0-9.-]+\/[A-Za-z0-9._-]+$/;

export const EXTENSIONS_EXPECTED = `a mapping of extensions (${
  Object.keys(EXTENSIONS).join(", ")
}, or an identifier such as "${EXTENSIONS.apps}") to true or false`;

/** How a caller reports a problem or a warning at one name of the mapping. */
export interface ExtensionReporter {
  problem(name: string, detail: string): void;
  warning(name: string, detail: string): void;
}

/**
 * An `extensions` mapping (values already known to be booleans, or reported) as identifier →
 * on/off. A name that is neither a short name nor an identifier is a problem; an identifier
 * mcpwire does not implement is a warning (it is never declared, so the setting does nothing).
 */
export function extensionChoices(mapping: Record<string, unknown>, where: string, report: ExtensionReporter): Record<string, boolean> {
  const choices: Record<string, boolean> = {};
  for (const [name, value] of Object.entries(mapping)) {
    const id = Object.hasOwn(SHORT_NAMES, name) ? SHORT_NAMES[name] ?? name : name;
    if (!IDENTIFIER.test(id)) {
      report.problem(
        name,
        `"${where}.${name}" is not an extension; use ${Object.keys(SHORT_NAMES).join(", ")} or a full identifier such as "${EXTENSIONS.apps}"`,
      );
      continue;
    }
    if (typeof value !== "boolean") continue; // the schema (or the caller) reported it
    if (!IMPLEMENTED.has(id)) {
      report.warning(name, `"${where}.${name}": "${id}" is not an extension mcpwire implements, so it is never declared; the setting is ignored`);
      continue;
    }
    choices[id] = value;
  }
  return choices;
}

/**
 * The top-level `extensions`, merged under each server's own (a server's entry wins). A wrong
 * value is a ConfigError for the whole file, positioned, like the host's other top-level keys.
 */
export function applyTopLevelExtensions(context: Context, root: Record<string, unknown>, servers: ServerConfig[]): Pick<McpwireConfig, "extensions"> {
  const raw = root.extensions;
  if (raw === undefined || raw === null) return {};
  const fail = (path: string[], detail: string): never => {
    throw problem(context, context.parsed.locate(path), detail);
  };
  if (!isObject(raw)) fail(["extensions"], `"extensions" must be ${EXTENSIONS_EXPECTED}; it is ${describe(raw, context.json)}`);
  const mapping = raw as Record<string, unknown>;
  for (const [name, value] of Object.entries(mapping)) {
    if (typeof value !== "boolean") {
      fail(["extensions", name], `"extensions.${name}" must be true or false; it is ${describe(value, context.json)}`);
    }
  }
  const extensions = extensionChoices(mapping, "extensions", {
    problem: (name, detail) => fail(["extensions", name], detail),
    warning: (name, detail) => context.warnings.push(problem(context, context.parsed.locate(["extensions", name], "key"), detail)),
  });
  for (const server of servers) server.extensions = { ...extensions, ...server.extensions };
  return { extensions };
}

/**
 * ClientOptions.extensions for a server: those turned off. One turned on needs nothing (the
 * extensions mcpwire implements are declared by default); undefined when none is off.
 */
export function clientExtensions(server: Pick<ServerConfig, "extensions">): ExtensionOptions | undefined {
  const off = Object.entries(server.extensions ?? {}).filter(([, on]) => !on);
  return off.length === 0 ? undefined : Object.fromEntries(off.map(([id]) => [id, false]));
}
