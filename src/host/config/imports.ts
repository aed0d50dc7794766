// Servers imported from other apps' config files (import-sources.ts says where, import-shapes.ts
// how each app writes them): each file read and parsed (JSON with comments allowed, or TOML), its
// servers built as our own are, each keeping its origin. A broken file or server is a positioned
// warning (`file:line:col`) and never stops the others; our own config wins a name clash.

import { messageOf } from "../../common/error-text.ts";
import { isObject, nameTable, setOwn } from "../../common/json.ts";
import { FileError } from "../../runtime/errors.ts";
import { runtime } from "../../runtime/mod.ts";
import { type Context, describe, type Env, problem } from "./context.ts";
import { type Shaped, shapeServer } from "./import-shapes.ts";
import { homeOf, type ImportApp, type ImportScope, type ImportSource, importSources } from "./import-sources.ts";
import { findJsonError } from "./json-error.ts";
import { buildServers } from "./parser.ts";
import type { ProjectConfigSummary } from "./project-summary.ts";
import { ProjectGate, type ProjectTrust, untrustedImportWarning } from "./project-trust.ts";
import { newServerConfig } from "./server.ts";
import { keepWritten } from "./server.ts";
import type { Parsed, Path } from "./syntax.ts";
import { parseJson, parseYaml, positionIn, tooDeep } from "./syntax.ts";
import { ConfigError, type McpwireConfig, type ServerConfig } from "./types.ts";
import { loadSchemaErrors } from "./validate.ts";

/** What one app's file gave. */
export interface ImportedFile {
  app: ImportApp;
  /** Absolute path. */
  file: string;
  /** How messages name it: `./.cursor/mcp.json`, `~/.codex/config.toml`. */
  display: string;
  scope: ImportScope;
  /**
   * `missing`: no such file (not a problem); `unreadable` / `broken`: see `problems`;
   * `untrusted`: a project file the user has not approved (config/project-trust.ts): nothing of
   * it was built, `untrusted` says what it holds.
   */
  state: "found" | "missing" | "unreadable" | "broken" | "untrusted";
  /** For `untrusted`: its servers, commands and variables, read without expanding anything. */
  untrusted?: ProjectConfigSummary;
  /** Its servers in file order, each with `origin`; one with a problem is disabled (`error`). */
  servers: ServerConfig[];
  /** What went wrong with the file or its servers, and keys ignored; each positioned where known. */
  problems: ConfigError[];
  /** `file:line:col` of a server's entry (for messages), and that line and column. */
  place(server: string): { text: string; line?: number; column?: number };
}

export interface ReadImportsOptions {
  /** The project directory. Default: this process's working directory. */
  cwd?: string;
  /** Where HOME, XDG_CONFIG_HOME, CODEX_HOME and `${VAR}` come from. Default: this process's environment. */
  env?: Env;
  /** runtime.os spelling; default this system's. */
  os?: string;
  /** Project files (scope `project`): as loadConfig's `trust`; default `refuse` (only approved ones are read). */
  trust?: ProjectTrust;
  /** Where approvals are kept; default defaultTrustFile(env). */
  trustFile?: string;
}

/**
 * Reads every file of every app, in order (apps as given; each app's files most specific first).
 * A project file (`./.cursor/mcp.json`, …) not approved is `untrusted`, its servers not built.
 */
export async function readImports(apps: readonly ImportApp[], options: ReadImportsOptions = {}): Promise<ImportedFile[]> {
  const cwd = options.cwd ?? runtime.cwd();
  const env = options.env ?? runtime.env();
  return await readImportsThrough(apps, cwd, env, new ProjectGate({ cwd, env, trust: options.trust, trustFile: options.trustFile }), { os: options.os });
}

/**
 * readImports with the gate of a whole load (config/load.ts), so that a file is asked about once.
 * `ownFile`, the config already loaded, is not read again (mergeImports leaves it out anyway).
 */
export async function readImportsThrough(
  apps: readonly ImportApp[],
  cwd: string,
  env: Env,
  gate: ProjectGate,
  options: { os?: string; ownFile?: string } = {},
): Promise<ImportedFile[]> {
  const files: ImportedFile[] = [];
  for (const app of apps) {
    for (const source of importSources(app, { cwd, env, os: options.os })) {
      files.push(source.file === options.ownFile ? ownFileEntry(source, cwd, env) : await readImportFile(source, cwd, env, gate));
    }
  }
  return files;
}

/** The config itself met as an app's file (Claude Code's ./.mcp.json): found, nothing of it read twice. */
function ownFileEntry(source: ImportSource, cwd: string, env: Env): ImportedFile {
  const display = displayPath(source.file, cwd, homeOf(env), source.scope);
  return { app: source.app, file: source.file, display, scope: source.scope, state: "found", servers: [], problems: [], place: () => ({ text: display }) };
}

/**
 * `config` with the imported servers added after its own. A name already taken (by the config,
 * or by an app earlier in the list or a more specific file) is skipped with a warning; the
 * files' problems become warnings. `missingWarning`: say so when an app has no file at all.
 */
export function mergeImports(
  config: McpwireConfig,
  files: readonly ImportedFile[],
  options: { ownName?: string; missingWarning?: boolean } = {},
): McpwireConfig {
  const servers = [...config.servers];
  const warnings = [...config.warnings];
  const holders = new Map<string, string>();
  for (const server of config.servers) holders.set(server.name, options.ownName ?? "your mcpwire config");
  if (options.missingWarning !== false) {
    for (const app of new Set(files.map((file) => file.app))) {
      const own = files.filter((file) => file.app === app);
      if (own.every((file) => file.state === "missing")) {
        warnings.push(
          new ConfigError(`${app}: no config file found to import servers from; looked for ${own.map((file) => file.display).join(", ")}`, "config-not-found"),
        );
      }
    }
  }
  for (const file of files) {
    // Claude Code's ./.mcp.json may be our own config already: read once, as ours.
    if (file.file === config.file) continue;
    const skipped = new Set<string>();
    const clashes: ConfigError[] = [];
    for (const server of file.servers) {
      const holder = holders.get(server.name);
      if (holder === undefined) {
        holders.set(server.name, `${file.app} (${file.display})`);
        // Our top-level `extensions:` holds for imported servers too (their own files have no such key).
        if (config.extensions === undefined) {
          servers.push(server);
        } else {
          const copy: ServerConfig = { ...server, extensions: { ...config.extensions, ...server.extensions } };
          keepWritten(copy, server.written);
          servers.push(copy);
        }
        continue;
      }
      skipped.add(server.name);
      const place = file.place(server.name);
      clashes.push(
        new ConfigError(
          `${place.text}: server "${server.name}" of ${file.app} is not imported: ${holder} has a server of that name, which wins`,
          "invalid-config",
          { file: file.file, line: place.line, column: place.column, server: server.name },
        ),
      );
    }
    // A skipped server's own problems do not matter any more.
    warnings.push(...file.problems.filter((item) => item.server === undefined || !skipped.has(item.server)), ...clashes);
  }
  return { ...config, servers, warnings };
}

/** `~/x` for a file under the home directory, `./x` under the project; else as it is. */
export function displayPath(file: string, cwd: string, home: string | undefined, scope?: ImportScope): string {
  if (scope !== "user" && file.startsWith(cwd.endsWith("/") ? cwd : cwd + "/")) return "./" + file.slice(cwd.length).replace(/^[\\/]+/, "");
  if (home && file.startsWith(home.endsWith("/") ? home : home + "/")) return "~/" + file.slice(home.length).replace(/^[\\/]+/, "");
  return file;
}

async function readImportFile(source: ImportSource, cwd: string, env: Env, gate: ProjectGate): Promise<ImportedFile> {
  const home = homeOf(env);
  const display = displayPath(source.file, cwd, home, source.scope);
  // deno-lint-ignore prefer-const -- assigned once below, read by the closure declared before it
  let parsed: Parsed | undefined;
  const imported: ImportedFile = {
    app: source.app,
    file: source.file,
    display,
    scope: source.scope,
    state: "found",
    servers: [],
    problems: [],
    place(server: string) {
      const position = parsed?.locate([...source.serversPath, server], "key");
      return position ? { text: `${display}:${position.line}:${position.column}`, ...position } : { text: display };
    },
  };
  let text: string;
  try {
    text = await runtime.readTextFile(source.file);
  } catch (error) {
    if (error instanceof FileError && (error.code === "ENOENT" || error.code === "ENOTDIR")) return { ...imported, state: "missing" };
    const code = error instanceof FileError ? error.code : "EUNKNOWN";
    imported.state = "unreadable";
    imported.problems.push(
      new ConfigError(
        `${display}: cannot read ${source.app}'s config ${source.file} (${code}: ${messageOf(error)}); its servers are not imported`,
        "unreadable-config",
        { file: source.file, cause: error },
      ),
    );
    return imported;
  }
  const read = text;
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  parsed = source.format === "toml" ? await tomlParsed(text) : source.format === "yaml" ? parseYaml(text) : jsonParsed(text);
  // A project's file (it came with the repository) is used only once approved: before that its
  // servers are not built, so no variable is read for them (config/project-trust.ts).
  if (source.scope === "project" && !gate.inHome) {
    const decision = await gate.admit({
      file: source.file,
      display,
      text: read,
      value: parsed.value,
      app: source.app,
      serversPath: source.serversPath,
      ...(parsed.syntaxError ? { problem: `it does not parse: ${parsed.syntaxError.message}` } : {}),
    });
    if (!decision.trusted) {
      imported.problems.push(untrustedImportWarning(decision.summary, source.app, decision.changed));
      return { ...imported, state: "untrusted", untrusted: decision.summary };
    }
  }
  const context: Context = { file: source.file, display, parsed, json: source.format === "json", env, warnings: [] };
  if (parsed.syntaxError) {
    const { offset, message } = parsed.syntaxError;
    imported.state = "broken";
    const error = problem(
      context,
      parsed.positionAt(offset),
      `invalid ${source.format.toUpperCase()} in ${source.app}'s config: ${message}; its servers are not imported`,
    );
    imported.problems.push(error);
    return imported;
  }
  const servers = valueAt(parsed.value, source.serversPath);
  if (servers === undefined || servers === null) return imported;
  const key = source.serversPath.join(".");
  if (!isObject(servers)) {
    imported.problems.push(problem(
      context,
      parsed.locate(source.serversPath),
      `"${key}" must be a mapping of server names to their settings; it is ${describe(servers, context.json)}; no server is imported from this file`,
      { key },
    ));
    return imported;
  }
  // ajv's findings explain a refused import (its building adds to the outer context, so it runs once).
  await loadSchemaErrors();
  const built = buildImported(source, servers, parsed, context, cwd, home);
  imported.servers = built.servers;
  imported.problems.push(...built.problems);
  return imported;
}

/** The servers of one file, built through buildServers with positions in the app's own keys. */
function buildImported(
  source: ImportSource,
  servers: Record<string, unknown>,
  parsed: Parsed,
  outer: Context,
  cwd: string,
  home: string | undefined,
): { servers: ServerConfig[]; problems: ConfigError[] } {
  const shapes = new Map<string, Shaped>();
  const at = (name: string, key: Path): Path => [...source.serversPath, name, ...key];
  // buildServers reports at ["mcpServers", name, ourKey…]; that is found at the app's key.
  const context: Context = {
    ...outer,
    parsed: {
      ...parsed,
      locate: (path, which) => parsed.locate(appPath(path), which),
      sourceOf: (path) => parsed.sourceOf(appPath(path)),
    },
  };
  function appPath(path: Path): Path {
    if (path[0] !== "mcpServers" || path.length < 2) return [...source.serversPath, ...path];
    const name = String(path[1]);
    return at(name, sourcePath(shapes.get(name), path.slice(2)));
  }
  const origin = { app: source.app, file: source.file };
  // Names from the file: `__proto__` or `constructor` is a server like any other.
  const ready = nameTable();
  const stubs = new Map<string, ServerConfig>();
  const problems: ConfigError[] = [];
  const disable = (server: ServerConfig, errors: ConfigError[]) => {
    server.enabled = false;
    server.error ??= errors[0];
    for (const error of errors) {
      const said = /\bdisabled\b/.test(error.message);
      problems.push(new ConfigError(said ? error.message : `${error.message} (server "${server.name}" of ${source.app} is disabled)`, error.code, error));
    }
  };
  for (const [name, raw] of Object.entries(servers)) {
    if (!isObject(raw)) {
      const stub = stubServer(name, origin);
      disable(stub, [
        problem(
          context,
          parsed.locate(at(name, [])),
          `must be a mapping of its settings (command, args, env, or a url); it is ${describe(raw, context.json)}`,
          { server: name },
        ),
      ]);
      stubs.set(name, stub);
      continue;
    }
    const shaped = shapeServer(raw, { app: source.app, cwd, home, env: outer.env });
    if (shaped.skipped !== undefined) {
      problems.push(problem(context, parsed.locate(at(name, []), "key"), shaped.skipped, { server: name }));
      continue;
    }
    shapes.set(name, shaped);
    for (const warning of shaped.warnings) {
      problems.push(problem(context, parsed.locate(at(name, warning.key), "key"), warning.message, { server: name, key: warning.key.join(".") }));
    }
    if (shaped.problems.some((item) => item.unknownShape)) {
      const stub = stubServer(name, origin);
      disable(stub, shaped.problems.map((item) => shapeProblem(context, parsed, at(name, item.key), name, item.key, item.message)));
      stubs.set(name, stub);
      continue;
    }
    setOwn(ready, name, shaped.entry);
  }
  const built = buildServers(context, { mcpServers: ready }, "mcpServers");
  problems.push(...context.warnings);
  const byName = new Map(built.servers.map((server) => [server.name, server]));
  const result: ServerConfig[] = [];
  for (const name of Object.keys(servers)) {
    const stub = stubs.get(name);
    if (stub !== undefined) {
      result.push(stub);
      continue;
    }
    const server = byName.get(name);
    if (server === undefined) continue; // skipped (an mcphost builtin)
    server.origin = origin;
    const shaped = shapes.get(name)!;
    const errors = [
      ...shaped.problems.map((item) => shapeProblem(context, parsed, at(name, item.key), name, item.key, item.message)),
      ...built.errors.filter((error) => error.server === name),
    ];
    if (errors.length > 0) {
      server.error = undefined;
      disable(server, errors);
    }
    result.push(server);
  }
  return { servers: result, problems };
}

function shapeProblem(context: Context, parsed: Parsed, path: Path, server: string, key: Path, message: string): ConfigError {
  return problem(context, parsed.locate(path, key.length === 0 ? "key" : "value"), message, { server, key: key.length === 0 ? undefined : key.join(".") });
}

/** Our key path within a server → the app's, through the shape's renames (longest known prefix). */
function sourcePath(shaped: Shaped | undefined, path: Path): Path {
  if (shaped === undefined) return path;
  for (let length = path.length; length > 0; length--) {
    const from = shaped.sourceKeys[path.slice(0, length).join(".")];
    if (from !== undefined) return [...from, ...path.slice(length)];
  }
  return path;
}

/** A server that could not be read at all: listed, disabled, with its origin. */
function stubServer(name: string, origin: { app: string; file: string }): ServerConfig {
  return { ...newServerConfig(name, "stdio"), enabled: false, origin };
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) node = isObject(node) && Object.hasOwn(node, key) ? node[key] : undefined;
  return node;
}

/**
 * JSON as these apps read it: comments and trailing commas allowed (VS Code, Cursor and Gemini
 * CLI write them), blanked out so that offsets stay those of the file. Positions of keys are
 * worked out only when a message needs one (~/.claude.json can be large).
 */
export function jsonParsed(original: string): Parsed {
  const text = withoutComments(original);
  const deep = tooDeep(text, "json");
  if (deep) return deep;
  let positions: Parsed | undefined;
  const located = () => (positions ??= parseJson(text));
  const parsed: Parsed = {
    value: undefined,
    warnings: [],
    positionAt: (offset) => positionIn(text, offset),
    locate: (path, which) => located().locate(path, which),
    sourceOf: (path) => located().sourceOf(path),
  };
  try {
    parsed.value = JSON.parse(text);
  } catch (error) {
    parsed.syntaxError = findJsonError(text) ?? { offset: 0, message: messageOf(error) };
  }
  return parsed;
}

/**
 * `//` and `/* *\/` comments, and a comma before `}` or `]`, as spaces (line breaks kept). One
 * pass over the text, the output built from slices of it: ~/.claude.json can be tens of MB.
 */
export function withoutComments(text: string): string {
  if (!text.includes("/") && !/,\s*[}\]]/.test(text)) return text;
  /** Ranges to blank, as start, end pairs in text order. */
  const ranges: number[] = [];
  let lastComma = -1;
  /** Where in `ranges` the comments after lastComma begin (a trailing comma's range goes before them). */
  let afterComma = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (char === QUOTE) {
      lastComma = -1;
      for (i++; i < text.length && text.charCodeAt(i) !== QUOTE; i++) if (text.charCodeAt(i) === BACKSLASH) i++;
    } else if (char === SLASH && (text.charCodeAt(i + 1) === SLASH || text.charCodeAt(i + 1) === STAR)) {
      const line = text.charCodeAt(i + 1) === SLASH;
      const end = line ? text.indexOf("\n", i) : text.indexOf("*/", i + 2);
      const stop = end === -1 ? text.length : line ? end : end + 2;
      ranges.push(i, stop);
      i = stop - 1;
    } else if (char === COMMA) {
      lastComma = i;
      afterComma = ranges.length;
    } else if ((char === CLOSE_BRACE || char === CLOSE_BRACKET) && lastComma !== -1) {
      ranges.splice(afterComma, 0, lastComma, lastComma + 1);
      lastComma = -1;
    } else if (!isSpace(char)) {
      lastComma = -1;
    }
  }
  if (ranges.length === 0) return text;
  // Joined a thousand pieces at a time, so that the many small slices do not all live at once.
  const chunks: string[] = [];
  let parts: string[] = [];
  let copied = 0;
  for (let r = 0; r < ranges.length; r += 2) {
    const [from, to] = [ranges[r], ranges[r + 1]];
    if (from === undefined || to === undefined) break; // never: ranges holds [from, to) pairs
    const blanked = text.slice(from, to);
    parts.push(text.slice(copied, from), blanked.includes("\n") ? blanked.replace(/[^\n]/g, " ") : spaces(to - from));
    copied = to;
    if (parts.length >= 2048) {
      chunks.push(parts.join(""));
      parts = [];
    }
  }
  parts.push(text.slice(copied));
  chunks.push(parts.join(""));
  return chunks.join("");
}

const SPACES = " ".repeat(256);

function spaces(length: number): string {
  return length <= SPACES.length ? SPACES.slice(0, length) : " ".repeat(length);
}

const QUOTE = 0x22, BACKSLASH = 0x5c, SLASH = 0x2f, STAR = 0x2a, COMMA = 0x2c, CLOSE_BRACE = 0x7d, CLOSE_BRACKET = 0x5d;

/** Whether a UTF-16 unit is what `/\s/` matches (ASCII at once, the rest through the RegExp). */
function isSpace(char: number): boolean {
  if (char === 0x20 || (char >= 0x09 && char <= 0x0d)) return true;
  return char > 0x7f && /\s/.test(String.fromCharCode(char));
}

/** TOML (Codex): smol-toml, loaded only now; positions of tables and keys found by scanning the lines. */
export async function tomlParsed(text: string): Promise<Parsed> {
  const deep = tooDeep(text, "toml");
  if (deep) return deep;
  const { parse, TomlError } = await import("smol-toml");
  const offsets = tomlKeyOffsets(text);
  const find = (path: Path): number | undefined => {
    for (let length = path.length; length > 0; length--) {
      const offset = offsets.get(path.slice(0, length).map(String).join("\0"));
      if (offset !== undefined) return offset;
    }
    return undefined;
  };
  const parsed: Parsed = {
    value: undefined,
    warnings: [],
    positionAt: (offset) => positionIn(text, offset),
    locate: (path) => {
      const offset = find(path);
      return offset === undefined ? undefined : positionIn(text, offset);
    },
    sourceOf: () => undefined,
  };
  try {
    parsed.value = plain(parse(text));
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    const lines = text.split("\n");
    const offset = lines.slice(0, error.line - 1).reduce((sum, line) => sum + line.length + 1, 0) + error.column - 1;
    parsed.syntaxError = { offset, message: (error.message.split("\n")[0] ?? "").replace(/^Invalid TOML document: /, "") };
  }
  return parsed;
}

/** Offset of each table header (`[a.b]`) and key (`c = …`, `c.d = …`) by its full key path. */
function tomlKeyOffsets(text: string): Map<string, number> {
  const offsets = new Map<string, number>();
  const segment = /\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*/y;
  const keys = (line: string, from: number): { keys: string[]; end: number } | undefined => {
    const found: string[] = [];
    let at = from;
    for (;;) {
      segment.lastIndex = at;
      const match = segment.exec(line);
      if (match === null) return undefined;
      found.push(match[1] ?? match[2] ?? match[3] ?? "");
      at = segment.lastIndex;
      if (line[at] !== ".") return { keys: found, end: at };
      at++;
    }
  };
  let table: string[] = [];
  let offset = 0;
  let inMultiline = false;
  for (const line of text.split("\n")) {
    const start = offset;
    offset += line.length + 1;
    const quotes = (line.match(/"""|'''/g) ?? []).length;
    if (inMultiline) {
      if (quotes % 2 === 1) inMultiline = false;
      continue;
    }
    const indent = line.length - line.trimStart().length;
    const header = /^\s*\[\[?/.exec(line);
    if (header) {
      const parsed = keys(line, header[0].length);
      if (parsed) {
        table = parsed.keys;
        const id = table.join("\0");
        if (!offsets.has(id)) offsets.set(id, start + indent);
      }
    } else {
      const parsed = keys(line, 0);
      if (parsed && line[parsed.end] === "=") {
        const id = [...table, ...parsed.keys].join("\0");
        if (!offsets.has(id)) offsets.set(id, start + indent);
      }
    }
    if (quotes % 2 === 1) inMultiline = true;
  }
  return offsets;
}

/** smol-toml's tables (null prototype) as plain objects. */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === "object" && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) setOwn(out, key, plain(item));
    return out;
  }
  return value;
}
