// One server entry to a ServerConfig, in steps: the transport, the process keys (command, args,
// env, cwd), the HTTP keys (url, headers, auth), the limits and options, roots and sampling.
// A problem is reported against the entry's key and disables the server; `${VAR}` is
// interpolated where the user may keep a secret or a path in the environment.

import type { SamplingPolicy } from "../../client/sampling.ts";
import type { LoggingLevel } from "../../client/types.ts";
import { isObject, setOwn } from "../../common/json.ts";
import { isCredentialName } from "../secrets.ts";
import { type Context, describe, formatKey, problem } from "./context.ts";
import { extensionChoices } from "./extensions-key.ts";
import { interpolate, InterpolationError } from "./interpolate.ts";
import { directoryOf, resolvePath } from "./paths.ts";
import { HTTP_KEYS, STDIO_KEYS, TRANSPORT_ALIASES } from "./schema.ts";
import type { Path } from "./syntax.ts";
import { type ConfigError, DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_TOOL_TIMEOUT_MS, type ServerConfig, type TransportKind } from "./types.ts";

/** Builds the server called `name` from its entry; `problems` are the schema's findings plus this step's. */
export function buildServer(
  context: Context,
  serversKey: string,
  name: string,
  raw: unknown,
  schemaErrors: ConfigError[],
  badKeys: Set<string>,
): { server: ServerConfig; problems: ConfigError[] } {
  const entry = new ServerEntry(context, serversKey, name, raw, schemaErrors, badKeys);
  if (raw === null || raw === undefined) {
    // The schema's type error says "must be a mapping"; an empty entry deserves plainer words.
    entry.problems.length = 0;
    entry.report([], "key", `has no settings; give it "command" (a stdio server) or "url" (an http or sse server)`);
  }
  const transport = transportOf(entry);
  const server: ServerConfig = { ...newServerConfig(name, transport ?? (entry.has("url") ? "auto" : "stdio")), enabled: !entry.userDisabled };
  if (isObject(raw)) keepWritten(server, raw);
  readProcess(entry, server);
  readHttp(entry, server);
  readOptions(entry, server);
  readRoots(entry, server);
  readSampling(entry, server);
  readResults(entry, server);
  readSandbox(entry, server);
  if (entry.secrets.size > 0) server.secrets = [...entry.secrets];
  return { server, problems: entry.problems };
}

/**
 * Sets `server.written`, not enumerable: it is for `mcpwire export`, and stays out of what
 * serializes or compares a server (JSON, the sync bridge, deepEqual).
 */
export function keepWritten(server: ServerConfig, written: Readonly<Record<string, unknown>> | undefined): void {
  if (written !== undefined) Object.defineProperty(server, "written", { value: written, enumerable: false, writable: true, configurable: true });
}

export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** One server's entry as the steps read it: its keys, where they are written, its problems so far. */
class ServerEntry {
  readonly problems: ConfigError[];
  readonly entry: Record<string, unknown>;
  /** `enabled: false`: its unset variables are no error (it keeps the text as written and is not started). */
  readonly userDisabled: boolean;
  /** The values of the credential-named variables interpolated into this entry (ServerConfig.secrets). */
  readonly secrets = new Set<string>();

  constructor(
    readonly context: Context,
    readonly serversKey: string,
    readonly name: string,
    readonly raw: unknown,
    schemaErrors: ConfigError[],
    readonly badKeys: Set<string>,
  ) {
    this.problems = [...schemaErrors];
    this.entry = isObject(raw) ? raw : {};
    this.userDisabled = this.entry.enabled === false;
  }

  at(...key: Path): Path {
    return [this.serversKey, this.name, ...key];
  }

  /** A problem at `key` (its key or its value): it disables the server. */
  report(key: Path, which: "key" | "value", detail: string, variable?: string): void {
    this.problems.push(
      problem(this.context, this.context.parsed.locate(this.at(...key), which), detail, {
        server: this.name,
        key: key.length === 0 ? undefined : formatKey(key),
        variable,
      }),
    );
  }

  warn(key: Path, detail: string): void {
    this.context.warnings.push(
      problem(this.context, this.context.parsed.locate(this.at(...key), "key"), detail, { server: this.name, key: formatKey(key) }),
    );
  }

  /** Whether the entry writes `key` at all (even with a value the schema found wrong). */
  has(key: string): boolean {
    return this.entry[key] !== undefined;
  }

  /** The value at a top-level key, unless the schema found it wrong. */
  get(key: string): unknown {
    return this.badKeys.has(key) ? undefined : this.entry[key];
  }

  // `${VAR}` is interpolated in command, args, env, cwd, url, headers, auth and roots.
  /** The text interpolated, or undefined (and reported, unless the server is disabled) when it cannot be. */
  tryExpand(text: string, key: Path): string | undefined {
    try {
      return interpolate(text, this.context.env, (variable, value) => {
        if (isCredentialName(variable) && value !== "") this.secrets.add(value);
      });
    } catch (error) {
      if (!(error instanceof InterpolationError)) throw error;
      if (!this.userDisabled) {
        this.report(key, "value", `"${formatKey(key)}": ${error.message}; the server is disabled until then`, error.variable);
      }
      return undefined;
    }
  }

  expand(text: string, key: Path): string {
    return this.tryExpand(text, key) ?? text;
  }

  /** A string, or a number or boolean as written in the file (`PORT: 8080`, `VERSION: 1.10`), interpolated. */
  scalar(value: unknown, key: Path): string {
    return typeof value === "string" ? this.expand(value, key) : this.context.parsed.sourceOf(this.at(...key)) ?? String(value);
  }

  /** A path as written, relative to the config file's directory (not to wherever mcpwire runs). */
  path(text: string): string {
    return resolvePath(directoryOf(this.context.file), text);
  }
}

/**
 * `transport`, or `.mcp.json`'s `type`, or inferred from command / url. A url alone is `auto`:
 * spec 2025-11-25 basic/transports ("Backwards Compatibility") has the client try Streamable
 * HTTP and fall back to the legacy SSE transport; `http` / `sse` force one. Keys of the other
 * kind of server are warned about.
 */
function transportOf(entry: ServerEntry): TransportKind | undefined {
  const named = (["transport", "type"] as const)
    .map((key) => ({ key, value: entry.get(key), kind: transportKind(entry.get(key)) }))
    .filter((declared) => declared.kind !== undefined);
  const [first, second] = named;
  if (first !== undefined && second !== undefined && first.kind !== second.kind) {
    entry.report(["type"], "value", `"transport: ${first.value}" and "type: ${second.value}" disagree; keep one`);
  }
  const hasCommand = entry.has("command");
  const hasUrl = entry.has("url");
  let transport: TransportKind | undefined = first?.kind;
  if (transport === undefined && isObject(entry.raw)) {
    if (hasCommand && hasUrl) {
      entry.report([], "key", `has both "command" and "url"; remove one, or say which with transport: stdio, http or sse`);
    } else if (hasCommand) {
      transport = "stdio";
    } else if (hasUrl) {
      transport = "auto";
    } else if (!entry.badKeys.has("transport") && !entry.badKeys.has("type")) {
      entry.report(
        [],
        "key",
        `has neither "command" (to run a stdio server) nor "url" (to reach an http or sse server); add one`,
      );
    }
  } else if (first?.kind === "stdio" && !hasCommand) {
    entry.report([first.key], "value", `transport "stdio" needs "command": the program to run`);
  } else if (first !== undefined && transport !== "stdio" && !hasUrl) {
    entry.report([first.key], "value", `transport "${transport}" needs "url": the server's endpoint`);
  }
  if (transport !== undefined) {
    for (const key of transport === "stdio" ? HTTP_KEYS : STDIO_KEYS) {
      const kind = transport === "auto" ? "http/sse" : transport;
      if (entry.has(key)) entry.warn([key], `"${key}" does not apply to a ${kind} server; it is ignored`);
    }
  }
  return transport;
}

function transportKind(value: unknown): TransportKind | undefined {
  return typeof value === "string" && Object.hasOwn(TRANSPORT_ALIASES, value) ? TRANSPORT_ALIASES[value] : undefined;
}

/** command, args, env, cwd: what a stdio server runs. */
function readProcess(entry: ServerEntry, server: ServerConfig): void {
  const command = entry.get("command");
  if (typeof command === "string") server.command = entry.expand(command, ["command"]);
  const args = entry.get("args");
  if (Array.isArray(args)) server.args = args.map((arg, index) => entry.scalar(arg, ["args", index]));
  const env = entry.get("env");
  if (isObject(env)) {
    for (const [key, value] of Object.entries(env)) {
      if (key === "" || key.includes("=") || key.includes("\0")) {
        entry.report(["env", key], "key", `"env" has a variable name ${JSON.stringify(key)}; a name must be non-empty, without "="`);
        continue;
      }
      setOwn(server.env, key, entry.scalar(value, ["env", key]));
    }
  }
  const cwd = entry.get("cwd");
  if (typeof cwd === "string") server.cwd = entry.path(entry.expand(cwd, ["cwd"]));
}

/** url, headers, auth: how an http or sse server is reached. */
function readHttp(entry: ServerEntry, server: ServerConfig): void {
  const url = entry.get("url");
  if (typeof url === "string") {
    const expanded = entry.tryExpand(url, ["url"]);
    server.url = expanded ?? url;
    if (expanded !== undefined && server.transport !== "stdio" && !isHttpUrl(expanded)) {
      entry.report(["url"], "value", `"url" must be an http:// or https:// URL; it is ${describe(expanded, entry.context.json)}`);
    }
  }
  const headers = entry.get("headers");
  if (isObject(headers)) {
    for (const [key, value] of Object.entries(headers)) setOwn(server.headers, key, entry.scalar(value, ["headers", key]));
  }
  const auth = entry.get("auth");
  if (auth === false) server.auth = { enabled: false };
  if (isObject(auth)) {
    // OAuth (issue 8): ${VAR} works here, so a secret can stay in the environment
    server.auth = { enabled: true };
    if (typeof auth.client_id === "string") server.auth.clientId = entry.expand(auth.client_id, ["auth", "client_id"]);
    if (typeof auth.client_secret === "string") server.auth.clientSecret = entry.expand(auth.client_secret, ["auth", "client_secret"]);
    if (typeof auth.issuer === "string") server.auth.issuer = entry.expand(auth.issuer, ["auth", "issuer"]);
    if (typeof auth.client_metadata_url === "string") server.auth.clientMetadataUrl = entry.expand(auth.client_metadata_url, ["auth", "client_metadata_url"]);
    if (typeof auth.redirect_port === "number") server.auth.redirectPort = auth.redirect_port;
  }
}

/** tools, timeout, connect_timeout, naming, log_level, protocol, extensions, tasks, pinning. */
function readOptions(entry: ServerEntry, server: ServerConfig): void {
  const tools = entry.get("tools");
  if (isObject(tools)) {
    if (Array.isArray(tools.include)) server.tools.include = tools.include.map(String);
    if (Array.isArray(tools.exclude)) server.tools.exclude = tools.exclude.map(String);
  }
  const timeout = entry.get("timeout");
  if (typeof timeout === "number") server.timeoutMs = Math.round(timeout * 1000);
  const connectTimeout = entry.get("connect_timeout");
  if (typeof connectTimeout === "number") server.connectTimeoutMs = Math.round(connectTimeout * 1000);
  const naming = entry.get("naming");
  if (typeof naming === "string") server.naming = naming;
  const logLevel = entry.get("log_level");
  if (typeof logLevel === "string") server.logLevel = logLevel as LoggingLevel;
  const protocol = entry.get("protocol");
  if (protocol === "auto" || protocol === "modern" || protocol === "legacy") server.protocol = protocol;
  const extensions = entry.get("extensions");
  if (isObject(extensions)) {
    server.extensions = extensionChoices(extensions, "extensions", {
      problem: (name, detail) => entry.report(["extensions", name], "key", detail),
      warning: (name, detail) => entry.warn(["extensions", name], detail),
    });
  }
  const tasks = entry.get("tasks");
  if (tasks === "auto" || tasks === "always" || tasks === "never") server.tasks = tasks;
  const pinning = entry.get("pinning");
  if (pinning === "off" || pinning === "warn" || pinning === "hold") server.pinning = pinning;
}

/** roots: paths (relative ones, like a relative cwd, against the config file's directory) or file:// URIs. */
function readRoots(entry: ServerEntry, server: ServerConfig): void {
  const roots = entry.get("roots");
  if (!Array.isArray(roots)) return;
  server.roots = [];
  for (const [index, root] of roots.entries()) {
    const text = entry.expand(String(root), ["roots", index]);
    if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(text)) {
      // spec 2025-11-25 client/roots ("Root"): the uri MUST be a file:// URI for now.
      if (!text.startsWith("file://") || !URL.canParse(text)) {
        entry.report(["roots", index], "value", `"roots[${index}]" must be a path or a file:// URI; it is ${describe(text, entry.context.json)}`);
        continue;
      }
      server.roots.push(text);
    } else {
      server.roots.push(entry.path(text));
    }
  }
}

/** sampling: the policy for the server's sampling requests, and the model serving them (issue 9). */
function readSampling(entry: ServerEntry, server: ServerConfig): void {
  const sampling = entry.get("sampling");
  if (!isObject(sampling)) return;
  const policy: SamplingPolicy = {};
  if (typeof sampling.max_tokens === "number") policy.maxTokens = sampling.max_tokens;
  if (typeof sampling.requests_per_minute === "number") policy.requestsPerMinute = sampling.requests_per_minute;
  if (Array.isArray(sampling.models)) policy.models = sampling.models.map(String);
  if (typeof sampling.timeout === "number") policy.timeoutMs = Math.round(sampling.timeout * 1000);
  if (typeof sampling.tools === "boolean") policy.tools = sampling.tools;
  server.sampling = policy;
  if (typeof sampling.model === "string") server.samplingModel = sampling.model;
}

/** results: whether this server's long results and binary content go to result files, and where (issue 18). */
function readResults(entry: ServerEntry, server: ServerConfig): void {
  const results = entry.get("results");
  if (typeof results === "boolean") server.results = { enabled: results };
  if (!isObject(results)) return;
  server.results = { enabled: results.enabled !== false };
  if (typeof results.directory === "string") {
    const text = entry.tryExpand(results.directory, ["results", "directory"]);
    if (text !== undefined) server.results.directory = entry.path(homePath(text, entry.context.env));
  }
}

/** sandbox: what a stdio server may read, write and reach when run in a sandbox (issue 29, host/sandbox/sandbox.ts). */
function readSandbox(entry: ServerEntry, server: ServerConfig): void {
  const sandbox = entry.get("sandbox");
  if (sandbox === undefined || sandbox === false || server.transport !== "stdio") return;
  if (sandbox === true || sandbox === "default" || sandbox === "prefer") {
    server.sandbox = { profile: sandbox === "prefer" ? "prefer" : "default", write: [], network: false, env: [], prefer: sandbox === "prefer" };
    return;
  }
  if (!isObject(sandbox)) return;
  const paths = (key: "read" | "write"): string[] | undefined => {
    const list = sandbox[key];
    if (!Array.isArray(list)) return undefined;
    return list.map((item, index) => entry.path(homePath(entry.expand(String(item), ["sandbox", key, index]), entry.context.env)));
  };
  const network = sandbox.network;
  if (Array.isArray(network)) {
    // bubblewrap gives a process either no network or all of it: a host list would need a filtering proxy.
    entry.report(
      ["sandbox", "network"],
      "value",
      `"sandbox.network" lists hosts, which the sandbox cannot enforce (bubblewrap turns the network off or leaves it on); ` +
        `write network: true to allow every host, or false for none`,
    );
  }
  const read = paths("read");
  server.sandbox = {
    profile: "custom",
    ...(read === undefined ? {} : { read }),
    write: paths("write") ?? [],
    network: network === true,
    env: Array.isArray(sandbox.env) ? sandbox.env.map(String) : [],
    prefer: sandbox.prefer === true,
  };
}

/** `~/x` as $HOME/x (a directory written for the user's shell habits); anything else as it is. */
export function homePath(text: string, env: Readonly<Record<string, string | undefined>>): string {
  const home = env.HOME ?? env.USERPROFILE;
  return (text === "~" || text.startsWith("~/")) && home ? home + text.slice(1) : text;
}

/** A server as an entry with no keys but its name makes it: no arguments, variables, headers or filters; enabled; the default timeouts. */
export function newServerConfig(name: string, transport: TransportKind): ServerConfig {
  return {
    name,
    transport,
    args: [],
    env: {},
    headers: {},
    tools: {},
    enabled: true,
    timeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
    connectTimeoutMs: DEFAULT_CONNECT_TIMEOUT_MS,
  };
}
