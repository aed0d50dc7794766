// Config files: find one, read it, parse it (YAML with `mcp_servers:` or JSON with
// `mcpServers`), validate it (ajv, config-schema.ts), interpolate `${VAR}`, and turn each
// server entry into a ServerConfig. Every problem is positioned: file:line:column.

import type { ErrorObject } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { type Document, isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument } from "yaml";
import type { SamplingPolicy } from "../client/sampling.ts";
import type { LoggingLevel } from "../client/types.ts";
import { runtime } from "../runtime/mod.ts";
import { FileError } from "../runtime/types.ts";
import {
  CONFIG_SCHEMA,
  EXPECTED,
  HOOK_KEYS,
  HOST_KEYS,
  AUTH_KEYS,
  HTTP_KEYS,
  PROVIDER_KEYS,
  SAMPLING_KEYS,
  SERVER_KEYS,
  SERVERS_KEYS,
  STDIO_KEYS,
  TRANSPORT_ALIASES,
} from "./config-schema.ts";
import {
  ConfigError,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_TOOL_TIMEOUT_MS,
  type McpwireConfig,
  type ProviderSettings,
  type ServerConfig,
  type TransportKind,
} from "./config-types.ts";
import { HOOK_EVENTS, type HookCommand, type HooksConfig } from "../agent/hooks.ts";
import { interpolate, InterpolationError } from "./interpolate.ts";

export type ConfigFormat = "yaml" | "json";
/** An environment to read `${VAR}` from. */
export type Env = Readonly<Record<string, string | undefined>>;

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

export interface LoadConfigOptions {
  /** The config file (`--config`); it must exist. Without it, configSearchPaths() are tried in order. */
  path?: string;
  /** Where `path` and the search start. Default: this process's working directory. */
  cwd?: string;
  /** What `${VAR}` reads, and where XDG_CONFIG_HOME / HOME come from. Default: this process's environment. */
  env?: Env;
}

/**
 * Reads and parses a config file: `path` when given (a missing or unreadable file is a
 * ConfigError naming it and the OS reason), else the first of configSearchPaths() that exists
 * (none → a ConfigError listing where it looked). See parseConfig for what is checked.
 */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<McpwireConfig> {
  const env = options.env ?? runtime.env();
  const cwd = options.cwd ?? runtime.cwd();
  if (options.path !== undefined) {
    const file = resolvePath(cwd, options.path);
    let text: string;
    try {
      text = await runtime.readTextFile(file);
    } catch (error) {
      throw unreadable(options.path, file, error, "check the --config path");
    }
    return parseConfig(text, { file, env, displayName: options.path });
  }
  const candidates = configSearchPaths({ cwd, env });
  for (const [index, file] of candidates.entries()) {
    let text: string;
    try {
      text = await runtime.readTextFile(file);
    } catch (error) {
      if (error instanceof FileError && (error.code === "ENOENT" || error.code === "ENOTDIR")) continue;
      throw unreadable(file, file, error, "fix it or pass --config FILE");
    }
    // The two in the working directory are named as a user there would name them.
    const displayName = index === 0 ? "mcpwire.yaml" : index === 1 ? ".mcp.json" : file;
    return parseConfig(text, { file, env, displayName });
  }
  throw new ConfigError(
    `no config file found; looked for ${candidates.join(", ")}; create mcpwire.yaml or pass --config FILE`,
  );
}

/**
 * Where loadConfig looks when no path is given, in order: `mcpwire.yaml` and `.mcp.json` in
 * cwd, then `$XDG_CONFIG_HOME/mcpwire/config.yaml` (XDG_CONFIG_HOME defaults to `~/.config`).
 */
export function configSearchPaths(options: { cwd?: string; env?: Env } = {}): string[] {
  const cwd = options.cwd ?? runtime.cwd();
  const env = options.env ?? runtime.env();
  const paths = [resolvePath(cwd, "mcpwire.yaml"), resolvePath(cwd, ".mcp.json")];
  const xdg = env.XDG_CONFIG_HOME;
  const home = env.HOME || (WINDOWS ? env.USERPROFILE : undefined);
  // XDG base directory spec: a relative XDG_CONFIG_HOME is invalid and ignored.
  const configHome = xdg && isAbsolutePath(xdg) ? xdg : home ? resolvePath(home, ".config") : undefined;
  if (configHome !== undefined) paths.push(resolvePath(configHome, "mcpwire/config.yaml"));
  return paths;
}

/**
 * Parses config text. Throws a ConfigError for a problem with the whole file (syntax, no
 * `mcp_servers` / `mcpServers`, a top level that is not a mapping). A problem with one server
 * (a wrong type, neither command nor url, an unset `${VAR}`) disables that server — its
 * `enabled` is false and `error` says why — and the others load; all such problems are also in
 * `errors`. Unknown keys are `warnings`. Every message starts `file:line:column:`.
 */
export function parseConfig(text: string, options: ParseConfigOptions): McpwireConfig {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const format = options.format ?? formatOf(options.file, text);
  const warnings: ConfigError[] = [];
  const context: Context = {
    file: options.file,
    display: options.displayName ?? options.file,
    parsed: format === "json" ? parseJson(text) : parseYaml(text),
    json: format === "json",
    env: options.env ?? runtime.env(),
    warnings,
  };
  const { parsed } = context;
  if (parsed.syntaxError) {
    const { offset, message } = parsed.syntaxError;
    throw problem(context, parsed.positionAt(offset), `invalid ${format === "json" ? "JSON" : "YAML"}: ${message}`);
  }
  for (const warning of parsed.warnings) warnings.push(problem(context, parsed.positionAt(warning.offset), warning.message));

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
  if (present.length === 0) {
    const keys = Object.keys(root);
    const found = keys.length === 0 ? "" : `; found ${keys.map((key) => `"${key}"`).join(", ")}`;
    throw problem(
      context,
      parsed.locate([]),
      `no "mcp_servers" key; put the servers under "mcp_servers:" (YAML) or "mcpServers" (JSON)${found}`,
    );
  }
  if (present.length === 2) {
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

  // Schema problems, sorted by server: unknown keys become warnings, the rest disable a server.
  const schemaProblems = new Map<string, { errors: ConfigError[]; badKeys: Set<string> }>();
  for (const error of validate(root)) {
    const path = pathOf(error.instancePath, root);
    if (error.keyword === "additionalProperties") {
      const unknown = String((error.params as { additionalProperty: string }).additionalProperty);
      warnings.push(unknownKey(context, [...path, unknown], root));
      continue;
    }
    if (path[0] !== serversKey || path.length < 2) {
      if (path[0] === "$schema") warnings.push(problem(context, parsed.locate(path), `"$schema" must be a string; it is ignored`));
      continue; // the whole-file cases were thrown above
    }
    const server = String(path[1]);
    const rest = path.slice(2);
    let entry = schemaProblems.get(server);
    if (entry === undefined) schemaProblems.set(server, entry = { errors: [], badKeys: new Set() });
    const top = rest.length === 0 ? "" : String(rest[0]);
    if (entry.badKeys.has(top) || (rest.length === 0 && entry.errors.length > 0)) continue; // one message per key
    entry.badKeys.add(top);
    entry.errors.push(
      problem(context, parsed.locate(path), schemaMessage(rest, valueAt(root, path), context.json), {
        server,
        key: rest.length === 0 ? undefined : formatKey(rest),
      }),
    );
  }

  const result: ServerConfig[] = [];
  const errors: ConfigError[] = [];
  for (const [name, entry] of Object.entries(servers ?? {})) {
    const found = schemaProblems.get(name) ?? { errors: [], badKeys: new Set<string>() };
    const { server, problems } = buildServer(context, serversKey, name, entry, found.errors, found.badKeys);
    problems.sort(byPosition);
    if (problems.length > 0) {
      server.enabled = false;
      server.error = problems[0];
    }
    errors.push(...problems);
    result.push(server);
  }
  const host = hostSettings(context, root);
  warnings.sort(byPosition);
  errors.sort(byPosition);
  return { servers: result, file: options.file, warnings, errors, ...host };
}

// ---------------------------------------------------------------------------------------------
// One server entry

function buildServer(
  context: Context,
  serversKey: string,
  name: string,
  raw: unknown,
  schemaErrors: ConfigError[],
  badKeys: Set<string>,
): { server: ServerConfig; problems: ConfigError[] } {
  const problems = [...schemaErrors];
  const entry: Record<string, unknown> = isObject(raw) ? raw : {};
  const userDisabled = entry.enabled === false;
  const at = (...key: Path): Path => [serversKey, name, ...key];
  const report = (key: Path, which: "key" | "value", detail: string, variable?: string) =>
    problems.push(
      problem(context, context.parsed.locate(at(...key), which), detail, {
        server: name,
        key: key.length === 0 ? undefined : formatKey(key),
        variable,
      }),
    );
  const warn = (key: Path, detail: string) =>
    context.warnings.push(
      problem(context, context.parsed.locate(at(...key), "key"), detail, { server: name, key: formatKey(key) }),
    );
  /** The value at a top-level key, unless the schema found it wrong. */
  const get = (key: string): unknown => (badKeys.has(key) ? undefined : entry[key]);

  if (raw === null || raw === undefined) {
    // The schema's type error says "must be a mapping"; an empty entry deserves plainer words.
    problems.length = 0;
    report([], "key", `has no settings; give it "command" (a stdio server) or "url" (an http or sse server)`);
  }

  // `${VAR}` is interpolated in command, args, env, cwd, url, headers and roots. A disabled server's
  // unset variables are no error: it keeps the text as written and is not started.
  /** The text interpolated, or undefined (and reported, unless the server is disabled) when it cannot be. */
  const tryExpand = (text: string, key: Path): string | undefined => {
    try {
      return interpolate(text, context.env);
    } catch (error) {
      if (!(error instanceof InterpolationError)) throw error;
      if (!userDisabled) {
        report(key, "value", `"${formatKey(key)}": ${error.message}; the server is disabled until then`, error.variable);
      }
      return undefined;
    }
  };
  const expand = (text: string, key: Path): string => tryExpand(text, key) ?? text;
  /** A string, or a number or boolean as written in the file (`PORT: 8080`, `VERSION: 1.10`), interpolated. */
  const scalar = (value: unknown, key: Path): string =>
    typeof value === "string" ? expand(value, key) : context.parsed.sourceOf(at(...key)) ?? String(value);

  // Transport: `transport`, or `.mcp.json`'s `type`, or inferred from command / url. A url
  // alone is `auto`: spec 2025-11-25 basic/transports ("Backwards Compatibility") has the
  // client try Streamable HTTP and fall back to the legacy SSE transport; `http` / `sse` force one.
  const named = (["transport", "type"] as const)
    .map((key) => ({ key, value: get(key), kind: transportOf(get(key)) }))
    .filter((declared) => declared.kind !== undefined);
  if (named.length === 2 && named[0].kind !== named[1].kind) {
    report(["type"], "value", `"transport: ${named[0].value}" and "type: ${named[1].value}" disagree; keep one`);
  }
  const hasCommand = entry.command !== undefined;
  const hasUrl = entry.url !== undefined;
  let transport: TransportKind | undefined = named[0]?.kind;
  if (transport === undefined && isObject(raw)) {
    if (hasCommand && hasUrl) {
      report([], "key", `has both "command" and "url"; remove one, or say which with transport: stdio, http or sse`);
    } else if (hasCommand) {
      transport = "stdio";
    } else if (hasUrl) {
      transport = "auto";
    } else if (!badKeys.has("transport") && !badKeys.has("type")) {
      report(
        [],
        "key",
        `has neither "command" (to run a stdio server) nor "url" (to reach an http or sse server); add one`,
      );
    }
  } else if (transport === "stdio" && !hasCommand) {
    report([named[0].key], "value", `transport "stdio" needs "command": the program to run`);
  } else if (transport !== undefined && transport !== "stdio" && !hasUrl) {
    report([named[0].key], "value", `transport "${transport}" needs "url": the server's endpoint`);
  }
  if (transport !== undefined) {
    for (const key of transport === "stdio" ? HTTP_KEYS : STDIO_KEYS) {
      const kind = transport === "auto" ? "http/sse" : transport;
      if (entry[key] !== undefined) warn([key], `"${key}" does not apply to a ${kind} server; it is ignored`);
    }
  }

  const server: ServerConfig = {
    name,
    transport: transport ?? (hasUrl ? "auto" : "stdio"),
    args: [],
    env: {},
    headers: {},
    tools: {},
    enabled: !userDisabled,
    timeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
    connectTimeoutMs: DEFAULT_CONNECT_TIMEOUT_MS,
  };

  const command = get("command");
  if (typeof command === "string") server.command = expand(command, ["command"]);
  const args = get("args");
  if (Array.isArray(args)) server.args = args.map((arg, index) => scalar(arg, ["args", index]));
  const env = get("env");
  if (isObject(env)) {
    for (const [key, value] of Object.entries(env)) {
      if (key === "" || key.includes("=") || key.includes("\0")) {
        report(["env", key], "key", `"env" has a variable name ${JSON.stringify(key)}; a name must be non-empty, without "="`);
        continue;
      }
      server.env[key] = scalar(value, ["env", key]);
    }
  }
  const cwd = get("cwd");
  if (typeof cwd === "string") {
    // A relative cwd is relative to the config file's directory, not to wherever mcpwire runs.
    server.cwd = resolvePath(directoryOf(context.file), expand(cwd, ["cwd"]));
  }
  const url = get("url");
  if (typeof url === "string") {
    const expanded = tryExpand(url, ["url"]);
    server.url = expanded ?? url;
    if (expanded !== undefined && server.transport !== "stdio" && !isHttpUrl(expanded)) {
      report(["url"], "value", `"url" must be an http:// or https:// URL; it is ${describe(expanded, context.json)}`);
    }
  }
  const headers = get("headers");
  if (isObject(headers)) {
    for (const [key, value] of Object.entries(headers)) server.headers[key] = scalar(value, ["headers", key]);
  }
  const auth = get("auth");
  if (auth === false) server.auth = { enabled: false };
  if (isObject(auth)) {
    // OAuth (issue 8): ${VAR} works here, so a secret can stay in the environment
    server.auth = { enabled: true };
    if (typeof auth.client_id === "string") server.auth.clientId = expand(auth.client_id, ["auth", "client_id"]);
    if (typeof auth.client_secret === "string") server.auth.clientSecret = expand(auth.client_secret, ["auth", "client_secret"]);
    if (typeof auth.issuer === "string") server.auth.issuer = expand(auth.issuer, ["auth", "issuer"]);
    if (typeof auth.client_metadata_url === "string") server.auth.clientMetadataUrl = expand(auth.client_metadata_url, ["auth", "client_metadata_url"]);
    if (typeof auth.redirect_port === "number") server.auth.redirectPort = auth.redirect_port;
  }
  const tools = get("tools");
  if (isObject(tools)) {
    if (Array.isArray(tools.include)) server.tools.include = tools.include.map(String);
    if (Array.isArray(tools.exclude)) server.tools.exclude = tools.exclude.map(String);
  }
  const timeout = get("timeout");
  if (typeof timeout === "number") server.timeoutMs = Math.round(timeout * 1000);
  const connectTimeout = get("connect_timeout");
  if (typeof connectTimeout === "number") server.connectTimeoutMs = Math.round(connectTimeout * 1000);
  const naming = get("naming");
  if (typeof naming === "string") server.naming = naming;
  const logLevel = get("log_level");
  if (typeof logLevel === "string") server.logLevel = logLevel as LoggingLevel;
  const protocol = get("protocol");
  if (protocol === "auto" || protocol === "modern" || protocol === "legacy") server.protocol = protocol;
  const roots = get("roots");
  if (Array.isArray(roots)) {
    server.roots = [];
    for (const [index, root] of roots.entries()) {
      const text = expand(String(root), ["roots", index]);
      if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(text)) {
        // spec 2025-11-25 client/roots ("Root"): the uri MUST be a file:// URI for now.
        if (!text.startsWith("file://") || !URL.canParse(text)) {
          report(["roots", index], "value", `"roots[${index}]" must be a path or a file:// URI; it is ${describe(text, context.json)}`);
          continue;
        }
        server.roots.push(text);
      } else {
        // A relative root, like a relative cwd, is relative to the config file's directory.
        server.roots.push(resolvePath(directoryOf(context.file), text));
      }
    }
  }
  const sampling = get("sampling");
  if (isObject(sampling)) {
    const policy: SamplingPolicy = {};
    if (typeof sampling.max_tokens === "number") policy.maxTokens = sampling.max_tokens;
    if (typeof sampling.requests_per_minute === "number") policy.requestsPerMinute = sampling.requests_per_minute;
    if (Array.isArray(sampling.models)) policy.models = sampling.models.map(String);
    if (typeof sampling.timeout === "number") policy.timeoutMs = Math.round(sampling.timeout * 1000);
    if (typeof sampling.tools === "boolean") policy.tools = sampling.tools;
    server.sampling = policy;
    if (typeof sampling.model === "string") server.samplingModel = sampling.model;
  }
  return { server, problems };
}

function transportOf(value: unknown): TransportKind | undefined {
  return typeof value === "string" && Object.hasOwn(TRANSPORT_ALIASES, value) ? TRANSPORT_ALIASES[value] : undefined;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Messages

interface Context {
  file: string;
  display: string;
  parsed: Parsed;
  json: boolean;
  env: Env;
  warnings: ConfigError[];
}

interface Position {
  line: number;
  column: number;
}

function problem(
  context: Context,
  position: Position | undefined,
  detail: string,
  where: { server?: string; key?: string; variable?: string } = {},
): ConfigError {
  const place = position ? `${context.display}:${position.line}:${position.column}` : context.display;
  const who = where.server === undefined ? "" : `server "${where.server}"${/^(has|must) /.test(detail) ? " " : ": "}`;
  return new ConfigError(`${place}: ${who}${detail}`, { file: context.file, ...position, ...where });
}

function byPosition(a: ConfigError, b: ConfigError): number {
  return (a.line ?? Infinity) - (b.line ?? Infinity) || (a.column ?? Infinity) - (b.column ?? Infinity);
}

/** "must be …" for a schema error at `rest` (the key path within a server; empty: the server itself). */
function schemaMessage(rest: Path, actual: unknown, json: boolean): string {
  if (rest.length === 0) {
    return `must be a mapping of its settings (command, args, env, … or url, headers, …); it is ${describe(actual, json)}`;
  }
  const nested = rest.length >= 2 && typeof rest[1] === "string" ? `${rest[0]}.${rest[1]}` : undefined;
  const subjectPath = nested !== undefined && EXPECTED[nested] !== undefined ? rest.slice(0, 2) : rest.slice(0, 1);
  const expected = EXPECTED[subjectPath.join(".")] ?? "something else";
  const subject = formatKey(subjectPath);
  const keyPath = formatKey(rest);
  return subject === keyPath
    ? `"${subject}" must be ${expected}; it is ${describe(actual, json)}`
    : `"${subject}" must be ${expected}; "${keyPath}" is ${describe(actual, json)}`;
}

function unknownKey(context: Context, path: Path, root: unknown): ConfigError {
  const key = String(path.at(-1));
  const location = context.parsed.locate(path, "key");
  if (path.length === 1) {
    const known = context.json ? ["mcpServers", "mcp_servers"] : ["mcp_servers", "mcpServers"];
    const guess = suggest(key, [...known, ...HOST_KEYS]);
    return problem(
      context,
      location,
      `unknown key "${key}" is ignored; ${guess ? `did you mean "${guess}"?` : `the servers go under "${known[0]}"`}`,
    );
  }
  const server = String(path[1]);
  const within = path.slice(2, -1);
  const known: readonly string[] = within.length === 0 ? SERVER_KEYS : within[0] === "sampling" ? SAMPLING_KEYS : within[0] === "auth" ? AUTH_KEYS : ["include", "exclude"];
  const keyPath = formatKey([...within, key]);
  let hint: string;
  if (within.length === 0 && key === "disabled") {
    const value = valueAt(root, path);
    hint = value === true
      ? "this server stays enabled; write enabled: false to disable it"
      : "write enabled: false to disable a server";
  } else {
    const guess = suggest(key, known);
    hint = guess ? `did you mean "${formatKey([...within, guess])}"?` : `known keys: ${known.join(", ")}`;
  }
  return problem(context, location, `unknown key "${keyPath}" is ignored; ${hint}`, { server, key: keyPath });
}

/** Other names people give a key (from other clients' configs), squashed as suggest() compares them. */
const KEY_ALIASES: Readonly<Record<string, string>> = {
  environment: "env",
  arguments: "args",
  argv: "args",
  workingdirectory: "cwd",
  workdir: "cwd",
  dir: "cwd",
  endpoint: "url",
  uri: "url",
  servers: "mcp_servers",
};

/** The known key a mistyped one most likely meant: same letters modulo case and `_`/`-`, an alias, or at most 2 edits. */
function suggest(key: string, known: readonly string[]): string | undefined {
  const squash = (text: string) => text.toLowerCase().replace(/[-_]/g, "");
  const candidates = new Map<string, string>(known.map((name) => [squash(name), name]));
  for (const [alias, name] of Object.entries(KEY_ALIASES)) if (known.includes(name)) candidates.set(alias, name);
  const squashed = squash(key);
  const same = candidates.get(squashed);
  if (same !== undefined) return same;
  let best: string | undefined;
  let bestDistance = Math.min(2, Math.floor(key.length / 2)) + 1;
  for (const [candidate, name] of candidates) {
    const distance = editDistance(squashed, candidate);
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

function describe(value: unknown, json: boolean): string {
  if (value === undefined) return "missing";
  if (value === null) return "empty (null)";
  if (typeof value === "string") {
    if (value === "") return "an empty string";
    return `the string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + "…" : value)}`;
  }
  if (typeof value === "number") return `the number ${value}`;
  if (typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return json ? "an array" : "a list";
  return json ? "an object" : "a mapping";
}

/** `env.API_KEY`, `args[2]`, `tools.include[0]`. */
function formatKey(path: Path): string {
  let out = "";
  for (const segment of path) out += typeof segment === "number" ? `[${segment}]` : out === "" ? segment : `.${segment}`;
  return out;
}

function unreadable(shown: string, file: string, error: unknown, todo: string): ConfigError {
  const code = error instanceof FileError ? error.code : "EUNKNOWN";
  const reason = READ_FAILURES[code] ?? (error as Error).message;
  const where = shown === file ? `"${file}"` : `"${shown}" (${file})`;
  const what = code === "ENOENT" ? `config file ${where} not found: ${reason}` : `cannot read config file ${where}: ${reason}`;
  return new ConfigError(`${what} (${code}); ${todo}`, { file });
}

const READ_FAILURES: Readonly<Record<string, string>> = {
  ENOENT: "no such file or directory",
  ENOTDIR: "a component of the path is not a directory",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EISDIR: "it is a directory, not a file",
};

// ---------------------------------------------------------------------------------------------
// Validation

type Path = readonly (string | number)[];

let validator: ((data: unknown) => boolean) & { errors?: ErrorObject[] | null } | undefined;

function validate(value: unknown): ErrorObject[] {
  // allowUnionTypes: `type: [string, number, boolean]` is meant (see config-schema.ts).
  validator ??= new Ajv2020({ allErrors: true, allowUnionTypes: true, logger: false }).compile(CONFIG_SCHEMA);
  return validator(value) ? [] : [...(validator.errors ?? [])];
}

/** A JSON pointer as path segments: array indexes become numbers. */
function pathOf(pointer: string, root: unknown): Path {
  if (pointer === "") return [];
  const path: (string | number)[] = [];
  let node = root;
  for (const raw of pointer.slice(1).split("/")) {
    const segment = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    const key = Array.isArray(node) ? Number(segment) : segment;
    path.push(key);
    node = isObject(node) || Array.isArray(node) ? (node as Record<string | number, unknown>)[key] : undefined;
  }
  return path;
}

function valueAt(root: unknown, path: Path): unknown {
  let node = root;
  for (const key of path) node = isObject(node) || Array.isArray(node) ? (node as Record<string | number, unknown>)[key] : undefined;
  return node;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// ---------------------------------------------------------------------------------------------
// Parsing, with positions

interface Parsed {
  /** The whole document as plain data (undefined after a syntax error). */
  value: unknown;
  syntaxError?: { offset: number; message: string };
  /** Non-fatal findings of the parser (a JSON key given twice, an unknown YAML tag). */
  warnings: { offset: number; message: string }[];
  positionAt(offset: number): Position;
  /** Where the value (or the key) at path is written; the nearest enclosing place when it is not found. */
  locate(path: Path, which?: "key" | "value"): Position | undefined;
  /** The scalar at path as written in the file (`1.10`, `0x1F`, `true`). */
  sourceOf(path: Path): string | undefined;
}

function formatOf(file: string, text: string): ConfigFormat {
  if (/\.json$/i.test(file)) return "json";
  if (/\.ya?ml$/i.test(file)) return "yaml";
  return text.trimStart().startsWith("{") ? "json" : "yaml";
}

function parseYaml(text: string): Parsed {
  const counter = new LineCounter();
  // merge: `<<: *defaults` shares settings between servers, as agent configs often do.
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false, merge: true, uniqueKeys: true });
  const parsed = locator(doc, counter);
  if (doc.errors.length > 0) {
    const [first] = doc.errors;
    const more = doc.errors.length > 1 ? ` (and ${doc.errors.length - 1} more problem${doc.errors.length > 2 ? "s" : ""})` : "";
    parsed.syntaxError = { offset: first.pos[0], message: first.message + more };
    return parsed;
  }
  for (const warning of doc.warnings) parsed.warnings.push({ offset: warning.pos[0], message: `YAML: ${warning.message}` });
  try {
    parsed.value = doc.toJS({ maxAliasCount: 1000 });
  } catch (error) {
    parsed.syntaxError = { offset: 0, message: (error as Error).message };
  }
  return parsed;
}

function parseJson(text: string): Parsed {
  // JSON.parse gives the value (JSON's own rules, e.g. the last of duplicate keys wins); the
  // same text read as YAML (a superset of JSON) gives positions.
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: true });
  const parsed = locator(doc, counter);
  try {
    parsed.value = JSON.parse(text);
  } catch (error) {
    parsed.syntaxError = findJsonError(text) ?? { offset: 0, message: (error as Error).message };
    return parsed;
  }
  for (const error of doc.errors) {
    if (error.code !== "DUPLICATE_KEY") continue;
    const key = /"(?:[^"\\]|\\.)*"/y;
    key.lastIndex = error.pos[0];
    const name = key.exec(text)?.[0] ?? "a key";
    parsed.warnings.push({ offset: error.pos[0], message: `${name} appears twice in one object; the last one is used` });
  }
  return parsed;
}

function locator(doc: Document, counter: LineCounter): Parsed {
  const positionAt = (offset: number): Position => {
    const { line, col } = counter.linePos(offset);
    return { line, column: col };
  };
  /** The node at path, or the deepest one found on the way, and whether the whole path was found. */
  const walk = (path: Path, which: "key" | "value") => {
    let node: unknown = doc.contents;
    for (const [index, segment] of path.entries()) {
      if (isAlias(node)) node = node.resolve(doc);
      let next: unknown;
      if (isMap(node)) {
        // The last of equal keys, as JSON.parse takes it (in YAML a repeated key is an error).
        const pair = node.items.findLast((item) => isScalar(item.key) && String(item.key.value) === String(segment));
        if (pair === undefined) return { node, complete: false };
        next = index === path.length - 1 && which === "key" ? pair.key : pair.value ?? pair.key;
      } else if (isSeq(node) && typeof segment === "number") {
        next = node.items[segment];
      }
      if (next === undefined || next === null) return { node, complete: false };
      node = next;
    }
    return { node, complete: true };
  };
  const startOf = (node: unknown): number | undefined => {
    const range = (node as { range?: [number, number, number] | null } | null)?.range;
    return range ? range[0] : undefined;
  };
  return {
    value: undefined,
    warnings: [],
    positionAt,
    locate(path, which = "value") {
      const offset = startOf(walk(path, which).node);
      return offset === undefined ? undefined : positionAt(offset);
    },
    sourceOf(path) {
      const { node, complete } = walk(path, "value");
      return complete && isScalar(node) && typeof node.source === "string" ? node.source : undefined;
    },
  };
}

/**
 * The first syntax error in text that JSON.parse refused, with what was expected there. Our
 * own words and offsets, because JSON.parse's differ between engines and some give no position.
 */
function findJsonError(text: string): { offset: number; message: string } | undefined {
  let i = 0;
  class Stop {
    constructor(readonly message: string) {}
  }
  const shown = () => (i >= text.length ? "the end of the file" : JSON.stringify(text[i]));
  const space = () => {
    while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i++;
  };
  const fail = (message: string): never => {
    throw new Stop(message);
  };
  const string = () => {
    i++; // the opening quote
    for (;;) {
      if (i >= text.length) fail("a string is not closed; add the closing \"");
      const char = text[i];
      if (char === '"') return void i++;
      if (char < " ") fail("a raw control character (a line break or tab?) inside a string; write it as \\n or \\t");
      if (char === "\\") {
        const escape = text[i + 1];
        if (escape === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else if (escape !== undefined && '"\\/bfnrt'.includes(escape)) i += 2;
        else fail(`an invalid escape in a string; JSON knows \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX`);
      } else {
        i++;
      }
    }
  };
  const value = (): void => {
    space();
    const char = text[i];
    if (char === "{") return members("}", () => {
      if (text[i] === "/") fail("JSON has no comments; remove it (or use a YAML config, which has)");
      if (text[i] === "'") fail("property names take double quotes");
      if (text[i] !== '"') fail(`expected a double-quoted property name, found ${shown()}`);
      string();
      space();
      if (text[i] !== ":") fail(`expected ":" after the property name, found ${shown()}`);
      i++;
      value();
    });
    if (char === "[") return members("]", value);
    if (char === '"') return string();
    const number = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y;
    number.lastIndex = i;
    if ((char === "-" || (char >= "0" && char <= "9")) && number.test(text)) return void (i = number.lastIndex);
    for (const literal of ["true", "false", "null"]) if (text.startsWith(literal, i)) return void (i += literal.length);
    if (char === "/") fail("JSON has no comments; remove it (or use a YAML config, which has)");
    if (char === "'") fail("strings take double quotes in JSON");
    fail(`expected a value (a string, number, object, array, true, false or null), found ${shown()}`);
  };
  const members = (close: "}" | "]", member: () => void) => {
    i++; // the opening bracket
    space();
    if (text[i] === close) return void i++;
    for (;;) {
      space();
      if (text[i] === close) fail(`a trailing comma before "${close}"; JSON allows none, remove it`);
      member();
      space();
      if (text[i] === ",") {
        i++;
        continue;
      }
      if (text[i] === close) return void i++;
      fail(`expected "," or "${close}" after ${close === "}" ? "a property value" : "an array item"}, found ${shown()}`);
    }
  };
  try {
    value();
    space();
    if (i < text.length) fail(`unexpected ${shown()} after the end of the JSON value`);
  } catch (error) {
    if (error instanceof Stop) return { offset: i, message: error.message };
    throw error;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Paths (no node:path here: only src/runtime/ knows the runtime)

const WINDOWS = runtime.os === "windows";

function isAbsolutePath(path: string): boolean {
  return WINDOWS ? /^(?:[A-Za-z]:)?[\\/]/.test(path) : path.startsWith("/");
}

/** path when absolute, else base/path; `.` and `..` segments resolved. */
function resolvePath(base: string, path: string): string {
  return normalize(isAbsolutePath(path) ? path : `${base}/${path}`);
}

function directoryOf(file: string): string {
  const cut = Math.max(file.lastIndexOf("/"), WINDOWS ? file.lastIndexOf("\\") : -1);
  return cut === -1 ? "." : cut === 0 ? file.slice(0, 1) : file.slice(0, cut);
}

function normalize(path: string): string {
  const separator = WINDOWS ? "\\" : "/";
  const root = (WINDOWS ? /^(?:[A-Za-z]:)?[\\/]|^[A-Za-z]:/ : /^\//).exec(path)?.[0] ?? "";
  const out: string[] = [];
  for (const segment of path.slice(root.length).split(WINDOWS ? /[\\/]/ : "/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === ".." && out.length > 0 && out.at(-1) !== "..") out.pop();
    else if (segment !== ".." || root === "") out.push(segment);
  }
  const joined = root.replace(/[\\/]$/, separator) + out.join(separator);
  return joined === "" ? "." : joined;
}

// ---------------------------------------------------------------------------------------------
// The LLM host's top-level keys: model, providers, system_prompt, max_steps, hooks

type HostSettings = Pick<McpwireConfig, "model" | "providers" | "systemPrompt" | "maxSteps" | "hooks">;

/**
 * The host's keys, checked by hand so that every problem is positioned. A wrong value is a
 * ConfigError for the whole file (the run could not do what the file asks); an unknown key
 * inside them, or an unset `${VAR}` in a provider's base_url / api_key, is a warning.
 */
function hostSettings(context: Context, root: Record<string, unknown>): HostSettings {
  const settings: HostSettings = {};
  const fail = (path: Path, detail: string): never => {
    throw problem(context, context.parsed.locate(path), detail);
  };
  const warnUnknown = (path: Path, known: readonly string[]) => {
    const key = String(path.at(-1));
    const guess = suggest(key, known);
    context.warnings.push(problem(
      context,
      context.parsed.locate(path, "key"),
      `unknown key "${path.join(".")}" is ignored; ${guess ? `did you mean "${guess}"?` : `known keys: ${known.join(", ")}`}`,
    ));
  };
  const seconds = (value: unknown, path: Path): number => {
    if (typeof value !== "number" || !(value > 0) || !Number.isFinite(value)) {
      fail(path, `"${path.join(".")}" must be a number of seconds greater than 0; it is ${describe(value, context.json)}`);
    }
    return Math.round((value as number) * 1000);
  };
  const text = (value: unknown, path: Path, what: string): string => {
    if (typeof value !== "string" || value.trim() === "") fail(path, `"${path.join(".")}" must be ${what}; it is ${describe(value, context.json)}`);
    return value as string;
  };

  if (root.model !== undefined && root.model !== null) {
    settings.model = text(root.model, ["model"], 'a model string "provider/model", such as "ollama/qwen3" or "openai/gpt-4o"');
  }
  if (root.system_prompt !== undefined && root.system_prompt !== null) {
    settings.systemPrompt = text(root.system_prompt, ["system_prompt"], "a string");
  }
  if (root.max_steps !== undefined && root.max_steps !== null) {
    const value = root.max_steps;
    if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
      fail(["max_steps"], `"max_steps" must be a whole number of at least 1; it is ${describe(value, context.json)}`);
    }
    settings.maxSteps = value as number;
  }

  const providers = root.providers;
  if (providers !== undefined && providers !== null) {
    if (!isObject(providers)) fail(["providers"], `"providers" must be a mapping of provider names (openai, ollama, anthropic, google) to settings`);
    settings.providers = {};
    for (const [name, raw] of Object.entries(providers as Record<string, unknown>)) {
      const at = (key: string): Path => ["providers", name, key];
      if (!isObject(raw)) fail(["providers", name], `"providers.${name}" must be a mapping with base_url, api_key and/or timeout`);
      const entry = raw as Record<string, unknown>;
      const provider: ProviderSettings = {};
      for (const key of Object.keys(entry)) if (!(PROVIDER_KEYS as readonly string[]).includes(key)) warnUnknown(at(key), PROVIDER_KEYS);
      const expanded = (key: "base_url" | "api_key"): string | undefined => {
        const value = entry[key];
        if (value === undefined || value === null) return undefined;
        const written = text(value, at(key), "a string");
        try {
          return interpolate(written, context.env);
        } catch (error) {
          if (!(error instanceof InterpolationError)) throw error;
          context.warnings.push(problem(context, context.parsed.locate(at(key)), `"providers.${name}.${key}": ${error.message}; it is left unset`, {
            variable: error.variable,
          }));
          return undefined;
        }
      };
      const baseUrl = expanded("base_url");
      if (baseUrl !== undefined) {
        if (!isHttpUrl(baseUrl)) fail(at("base_url"), `"providers.${name}.base_url" must be an http:// or https:// URL; it is ${JSON.stringify(baseUrl)}`);
        provider.baseUrl = baseUrl;
      }
      const apiKey = expanded("api_key");
      if (apiKey !== undefined && apiKey !== "") provider.apiKey = apiKey;
      if (entry.timeout !== undefined) provider.timeoutMs = seconds(entry.timeout, at("timeout"));
      settings.providers[name] = provider;
    }
  }

  const hooks = root.hooks;
  if (hooks !== undefined && hooks !== null) {
    if (!isObject(hooks)) fail(["hooks"], `"hooks" must be a mapping of events (${HOOK_EVENTS.join(", ")}) to lists of commands`);
    const result: HooksConfig = {};
    for (const [event, list] of Object.entries(hooks as Record<string, unknown>)) {
      if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
        warnUnknown(["hooks", event], HOOK_EVENTS);
        continue;
      }
      if (!Array.isArray(list)) fail(["hooks", event], `"hooks.${event}" must be a list of { matcher, command, timeout }`);
      const commands: HookCommand[] = [];
      (list as unknown[]).forEach((raw, index) => {
        const path: Path = ["hooks", event, index];
        const where = `hooks.${event}[${index}]`;
        if (!isObject(raw)) fail(path, `"${where}" must be a mapping with "command" (and optional "matcher", "timeout")`);
        const entry = raw as Record<string, unknown>;
        for (const key of Object.keys(entry)) if (!(HOOK_KEYS as readonly string[]).includes(key)) warnUnknown([...path, key], HOOK_KEYS);
        const command: HookCommand = { command: text(entry.command, [...path, "command"], "a shell command") };
        if (entry.matcher !== undefined && entry.matcher !== null) {
          const matcher = String(text(entry.matcher, [...path, "matcher"], "a regular expression on tool names"));
          try {
            new RegExp(matcher);
          } catch (error) {
            fail([...path, "matcher"], `"${where}.matcher" is not a regular expression (${(error as Error).message})`);
          }
          command.matcher = matcher;
        }
        if (entry.timeout !== undefined) command.timeoutMs = seconds(entry.timeout, [...path, "timeout"]);
        commands.push(command);
      });
      result[event as keyof HooksConfig] = commands;
    }
    settings.hooks = result;
  }
  return settings;
}
