// Config text to an McpwireConfig: parse it (syntax.ts), find the servers' mapping, validate it
// against the schema (validate.ts), build each server (server.ts) and the host's keys
// (host-settings.ts). Every problem is positioned: file:line:column. A config the quick check
// refuses needs ajv's findings (schema-errors.ts): parse.ts loads them with this module, load.ts
// when needed (withSchemaErrors).

import { isObject, nameTable, setOwn } from "../../common/json.ts";
import { runtime } from "../../runtime/mod.ts";
import { byPosition, type Context, describe, type Env, formatKey, problem } from "./context.ts";
import { applyTopLevelExtensions } from "./extensions-key.ts";
import { hostSettings } from "./host-settings.ts";
import { importsOf } from "./import-sources.ts";
import { mcphostSourcePath, ownMcphostShape, type OwnShape } from "./mcphost-entry.ts";
import { SERVERS_KEYS } from "./schema.ts";
import { schemaMessage, unknownKey } from "./schema-messages.ts";
import { buildServer } from "./server.ts";
import { type ConfigFormat, formatOf, parseJson, parseYaml, type Path } from "./syntax.ts";
import type { ConfigError, McpwireConfig, ServerConfig } from "./types.ts";
import { pathOf, validate, valueAt } from "./validate.ts";

/** Options of parseConfig: the format, the file name for messages, and the environment. */
export interface ParseConfigOptions {
  /** The file the text came from: positions name it, relative `cwd`s resolve against its directory. */
  file: string;
  /** Default: "json" for a `.json` file, "yaml" for `.yaml` / `.yml`, otherwise "json" when the text starts with `{`. */
  format?: ConfigFormat;
  /** What `${VAR}` reads. Default: this process's environment. */
  env?: Env;
  /** How messages name the file (e.g. the path as the user typed it). Default: `file`. */
  displayName?: string;
}

/** What the schema found wrong in one server: its messages, and the top-level keys they are about. */
interface SchemaFindings {
  errors: ConfigError[];
  badKeys: Set<string>;
}

/**
 * Parses config text. Throws a ConfigError for a problem with the whole file (syntax, no
 * `mcp_servers` / `mcpServers`, a top level that is not a mapping). A problem with one server
 * (a wrong type, neither command nor url, an unset `${VAR}`) disables that server — its
 * `enabled` is false and `error` says why — and the others load; all such problems are also in
 * `errors`. Unknown keys are `warnings`. Every message starts `file:line:column:`.
 */
export function parseConfig(text: string, options: ParseConfigOptions): McpwireConfig {
  const context = parsedContext(text, options);
  const { root, serversKey } = serversOf(context);
  const { servers: result, errors } = buildServers(context, root, serversKey);
  const host = hostSettings(context, root);
  const extensions = applyTopLevelExtensions(context, root, result);
  const imports = importsOf(context, root);
  context.warnings.sort(byPosition);
  return { servers: result, file: options.file, warnings: context.warnings, errors, ...host, ...extensions, ...(imports ? { imports } : {}) };
}

/**
 * Checks and builds every server of `root[serversKey]`: a server with a problem is disabled
 * (`error` is its first), the others are ready to start. Also used for servers imported from
 * other apps' files (config/imports.ts), already in mcpwire's keys.
 */
export function buildServers(context: Context, root: Record<string, unknown>, serversKey: string): { servers: ServerConfig[]; errors: ConfigError[] } {
  ({ context, root } = withMcphostShapes(context, root, serversKey));
  const findings = schemaFindings(context, root, serversKey);
  const result: ServerConfig[] = [];
  const errors: ConfigError[] = [];
  const servers = root[serversKey];
  for (const [name, entry] of Object.entries(isObject(servers) ? servers : {})) {
    const found = findings.get(name) ?? { errors: [], badKeys: new Set<string>() };
    const { server, problems } = buildServer(context, serversKey, name, entry, found.errors, found.badKeys);
    problems.sort(byPosition);
    if (problems.length > 0) {
      server.enabled = false;
      server.error = problems[0];
    }
    errors.push(...problems);
    result.push(server);
  }
  errors.sort(byPosition);
  return { servers: result, errors };
}

/**
 * The servers written in mcphost's shape (`type: local|remote`, config/mcphost-entry.ts) in our
 * keys, and a context that finds each moved key where the file has it.
 */
function withMcphostShapes(context: Context, root: Record<string, unknown>, serversKey: string): { context: Context; root: Record<string, unknown> } {
  const servers = root[serversKey];
  if (!isObject(servers)) return { context, root };
  const shapes = new Map<string, OwnShape>();
  const rewritten: Record<string, unknown> = nameTable();
  for (const [name, entry] of Object.entries(servers)) {
    const shape = ownMcphostShape(entry);
    if (shape !== undefined) shapes.set(name, shape);
    setOwn(rewritten, name, shape?.entry ?? entry);
  }
  if (shapes.size === 0) return { context, root };
  const { parsed } = context;
  const written = (path: Path): Path => {
    const shape = path[0] === serversKey && path.length > 2 ? shapes.get(String(path[1])) : undefined;
    return shape === undefined ? path : [serversKey, String(path[1]), ...mcphostSourcePath(shape, path.slice(2))];
  };
  return {
    context: {
      ...context,
      parsed: { ...parsed, locate: (path, which) => parsed.locate(written(path), which), sourceOf: (path) => parsed.sourceOf(written(path)) },
    },
    root: { ...root, [serversKey]: rewritten },
  };
}

/** The text parsed in its format; a syntax error throws, the parser's warnings are kept. */
function parsedContext(text: string, options: ParseConfigOptions): Context {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const format = options.format ?? formatOf(options.file, text);
  const context: Context = {
    file: options.file,
    display: options.displayName ?? options.file,
    parsed: format === "json" ? parseJson(text) : parseYaml(text),
    json: format === "json",
    env: options.env ?? runtime.env(),
    warnings: [],
  };
  const { parsed } = context;
  if (parsed.syntaxError) {
    const { offset, message } = parsed.syntaxError;
    throw problem(context, parsed.positionAt(offset), `invalid ${format === "json" ? "JSON" : "YAML"}: ${message}`);
  }
  for (const warning of parsed.warnings) context.warnings.push(problem(context, parsed.positionAt(warning.offset), warning.message));
  return context;
}

/** The top level and its servers' mapping; a file without one throws. */
function serversOf(context: Context): { root: Record<string, unknown>; serversKey: string; servers: Record<string, unknown> | null } {
  const { parsed } = context;
  const root = parsed.value;
  if (!isObject(root)) {
    throw problem(
      context,
      parsed.locate([]),
      root === null || root === undefined
        ? `the file is empty; put the servers under "mcp_servers:" (YAML) or "mcpServers" (JSON)`
        : `the file must be a mapping with a "mcp_servers" key (YAML) or an object with "mcpServers" (JSON); it is ${describe(root, context.json)}`,
    );
  }
  const present = SERVERS_KEYS.filter((key) => key in root);
  if (present[0] === undefined) {
    const keys = Object.keys(root);
    const found = keys.length === 0 ? "" : `; found ${keys.map((key) => `"${key}"`).join(", ")}`;
    throw problem(
      context,
      parsed.locate([]),
      `no "mcp_servers" key; put the servers under "mcp_servers:" (YAML) or "mcpServers" (JSON)${found}`,
    );
  }
  if (present[1] !== undefined) {
    throw problem(context, parsed.locate([present[1]], "key"), `both "mcp_servers" and "mcpServers" are present; keep one`);
  }
  const serversKey = present[0];
  const servers = root[serversKey];
  if (servers !== null && !isObject(servers)) {
    throw problem(
      context,
      parsed.locate([serversKey]),
      `"${serversKey}" must be a mapping of server names to their settings; it is ${describe(servers, context.json)}`,
    );
  }
  return { root, serversKey, servers };
}

/** Schema problems, sorted by server: unknown keys become warnings, the rest will disable a server. */
function schemaFindings(context: Context, root: Record<string, unknown>, serversKey: string): Map<string, SchemaFindings> {
  const byServer = new Map<string, SchemaFindings>();
  for (const error of validate(root)) {
    const path = pathOf(error.instancePath, root);
    // The host's keys, extensions and imports: their own checks report them, positioned.
    if (path[0] !== undefined && path[0] !== serversKey && path[0] !== "$schema") continue;
    if (error.keyword === "additionalProperties") {
      const unknown = String((error.params as { additionalProperty: string }).additionalProperty);
      context.warnings.push(unknownKey(context, [...path, unknown], root));
      continue;
    }
    if (path[0] !== serversKey || path.length < 2) {
      if (path[0] === "$schema") context.warnings.push(problem(context, context.parsed.locate(path), `"$schema" must be a string; it is ignored`));
      continue; // the whole-file cases were thrown by serversOf
    }
    const server = String(path[1]);
    const rest = path.slice(2);
    let entry = byServer.get(server);
    if (entry === undefined) byServer.set(server, entry = { errors: [], badKeys: new Set() });
    const top = rest.length === 0 ? "" : String(rest[0]);
    if (entry.badKeys.has(top) || (rest.length === 0 && entry.errors.length > 0)) continue; // one message per key
    entry.badKeys.add(top);
    entry.errors.push(
      problem(context, context.parsed.locate(path), schemaMessage(rest, valueAt(root, path), context.json), {
        server,
        key: rest.length === 0 ? undefined : formatKey(rest),
      }),
    );
  }
  return byServer;
}
