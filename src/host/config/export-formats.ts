// mcpwire's servers in another app's own format (`mcpwire export`), the reverse of
// import-shapes.ts: each app's keys, transports and variable syntax. A `${VAR}` is written back
// as the app's own variable (VS Code's `${env:VAR}`, Claude Code's `${VAR}`, Codex's `env_vars`),
// never as its value; where the app has no way to name a variable, the field is left out with a
// warning. A field the app cannot express is left out with a warning too, never silently.

import { isObject, setOwn } from "../../common/json.ts";
import { type InterpolationPart, interpolationParts } from "./interpolate.ts";
import { isAbsolutePath } from "./paths.ts";
import type { ServerConfig } from "./types.ts";

/** The apps `mcpwire export --to` writes for. */
export const EXPORT_APPS = ["claude-desktop", "cursor", "vscode", "claude-code", "codex", "gemini-cli"] as const;
/** An app `mcpwire export` writes for. */
export type ExportApp = (typeof EXPORT_APPS)[number];

/** How messages name each app. */
export const APP_LABELS: Readonly<Record<ExportApp, string>> = {
  "claude-desktop": "Claude Desktop",
  cursor: "Cursor",
  vscode: "VS Code",
  "claude-code": "Claude Code",
  codex: "Codex",
  "gemini-cli": "Gemini CLI",
};

/** Where the servers are in the app's file: `mcpServers` (JSON), VS Code's `servers`, Codex's `[mcp_servers.NAME]` (TOML). */
export const SERVERS_KEY: Readonly<Record<ExportApp, string>> = {
  "claude-desktop": "mcpServers",
  cursor: "mcpServers",
  vscode: "servers",
  "claude-code": "mcpServers",
  codex: "mcp_servers",
  "gemini-cli": "mcpServers",
};

/** One server in the app's keys. */
export interface ExportedServer {
  name: string;
  entry: Record<string, unknown>;
}

/** What exportServers made: the entries, one line per thing left out, and the values that must not appear in the output. */
export interface ExportResult {
  servers: ExportedServer[];
  warnings: string[];
  /** Values a `${VAR}` resolved to in headers and env (8 characters or more): the caller checks that none is in what it writes. */
  resolvedSecrets: string[];
}

/** How each app writes a variable in a string (import-shapes.ts reads the same syntaxes back). */
type Variables = "none" | "shell" | "editor" | "dollar";
const VARIABLES: Readonly<Record<ExportApp, Variables>> = {
  "claude-desktop": "none", // strings passed as written
  cursor: "editor", // ${env:NAME}
  vscode: "editor",
  "claude-code": "shell", // ${VAR} and ${VAR:-default}
  codex: "none", // variables only through env_vars, bearer_token_env_var, env_http_headers
  "gemini-cli": "dollar", // $VAR and ${VAR}
};

/** Which of mcpwire's keys (besides command, args, env, url, headers, transport, enabled) each app has a place for. */
const EXTRA_KEYS: Readonly<Record<ExportApp, readonly string[]>> = {
  "claude-desktop": [],
  cursor: [],
  // VS Code's stdio server definition has a working directory (vscode.McpStdioServerDefinition `cwd`).
  vscode: ["cwd"],
  "claude-code": [],
  codex: ["cwd", "tools", "timeout", "connect_timeout"],
  "gemini-cli": ["cwd", "tools", "timeout"],
};

/** The keys every entry is made of; the rest of mcpwire's keys are checked against EXTRA_KEYS. */
const CORE_KEYS = ["command", "args", "env", "url", "headers", "transport", "type", "enabled"];

/** The servers in `app`'s keys, in order; a server the app cannot run at all is left out with a warning. */
export function exportServers(app: ExportApp, servers: readonly ServerConfig[]): ExportResult {
  const result: ExportResult = { servers: [], warnings: [], resolvedSecrets: [] };
  for (const server of servers) {
    const entry = new EntryWriter(app, server, result).build();
    if (entry !== undefined) result.servers.push({ name: server.name, entry });
  }
  return result;
}

/** One server's entry, its warnings going to the result. */
class EntryWriter {
  readonly label: string;
  readonly written: Readonly<Record<string, unknown>>;

  constructor(readonly app: ExportApp, readonly server: ServerConfig, readonly result: ExportResult) {
    this.label = APP_LABELS[app];
    this.written = server.written ?? {};
  }

  warn(detail: string): void {
    this.result.warnings.push(`server "${this.server.name}": ${detail}`);
  }

  build(): Record<string, unknown> | undefined {
    const { server, app, label } = this;
    const userDisabled = this.written.enabled === false;
    // A problem other than an unset variable (which the reference written back does not need) keeps it out.
    if (server.error !== undefined && server.error.variable === undefined && !userDisabled) {
      this.warn(`is left out: it has a problem in the config (${server.error.message})`);
      return undefined;
    }
    if (userDisabled && app !== "codex") {
      this.warn(`is left out: it is disabled (enabled: false), and ${label} has no way to say so`);
      return undefined;
    }
    const entry: Record<string, unknown> = {};
    if (server.transport === "stdio") {
      if (!this.stdio(entry)) return undefined;
    } else if (!this.http(entry)) return undefined;
    if (userDisabled) entry.enabled = false; // Codex: `enabled = false`
    this.options(entry);
    for (const key of Object.keys(this.written)) {
      if (CORE_KEYS.includes(key) || EXTRA_KEYS[app].includes(key) || key === "cwd") continue; // cwd: said by cwd()
      if (server.transport === "stdio" ? key === "url" || key === "headers" || key === "auth" : key === "cwd") continue; // ignored by mcpwire too
      if ((key === "protocol" || key === "tasks") && this.written[key] === "auto") continue; // the default: nothing is lost
      this.warn(`"${key}" is left out: ${label} has no such setting`);
    }
    return entry;
  }

  stdio(entry: Record<string, unknown>): boolean {
    const { server } = this;
    const command = this.text(server.command ?? "", this.written.command);
    if (typeof command !== "string") {
      this.warn(`is left out: its command ${command.why}`);
      return false;
    }
    if (this.app === "vscode") entry.type = "stdio";
    entry.command = command;
    const writtenArgs = Array.isArray(this.written.args) ? this.written.args : [];
    const args: string[] = [];
    for (const [index, arg] of server.args.entries()) {
      const text = this.text(arg, writtenArgs[index]);
      if (typeof text !== "string") {
        // An argument left out would change what the server does: the server is left out.
        this.warn(`is left out: its argument ${index} ${text.why}`);
        return false;
      }
      args.push(text);
    }
    if (args.length > 0) entry.args = args;
    const writtenEnv = isObject(this.written.env) ? this.written.env : {};
    if (this.app === "codex") {
      this.codexEnv(entry, writtenEnv);
    } else {
      const env: Record<string, string> = {};
      for (const [name, value] of Object.entries(server.env)) {
        const text = this.string(`env.${name}`, value, writtenEnv[name], true);
        if (text !== undefined) setOwn(env, name, text);
      }
      if (Object.keys(env).length > 0) entry.env = env;
    }
    if (server.cwd !== undefined) this.cwd(entry);
    return true;
  }

  cwd(entry: Record<string, unknown>): void {
    const { server } = this;
    if (!EXTRA_KEYS[this.app].includes("cwd")) {
      this.warn(`"cwd" is left out: ${this.label} has no working directory setting (the server starts where ${this.label} starts it)`);
      return;
    }
    const written = this.written.cwd;
    const parts = typeof written === "string" ? partsOf(written) : undefined;
    const variable = parts?.some((part) => "variable" in part) === true;
    // Relative to the config file's directory in mcpwire; a relative one with a variable cannot be made absolute here.
    if (variable && typeof written === "string" && !written.startsWith("${") && !isAbsolutePath(written)) {
      this.warn(`"cwd" is left out: it is relative and uses a variable (${written}); write it as an absolute path in ${this.label}`);
      return;
    }
    const text = this.string("cwd", server.cwd ?? "", variable ? written : undefined);
    if (text !== undefined) entry.cwd = text;
  }

  http(entry: Record<string, unknown>): boolean {
    const { server, app } = this;
    const kind = server.transport; // http, sse or auto
    if (app === "claude-desktop") {
      this.warn(
        `is left out: Claude Desktop's file runs only stdio servers (add ${kind === "sse" ? "an SSE" : "an HTTP"} server in its Settings → Connectors)`,
      );
      return false;
    }
    if (app === "codex" && kind === "sse") {
      this.warn(`is left out: Codex speaks Streamable HTTP only, not the legacy HTTP+SSE transport`);
      return false;
    }
    const url = this.text(server.url ?? "", this.written.url);
    if (typeof url !== "string") {
      this.warn(`is left out: its url ${url.why}`);
      return false;
    }
    switch (app) {
      case "claude-code":
      case "vscode":
        entry.type = kind === "sse" ? "sse" : "http";
        entry.url = url;
        break;
      case "cursor":
        // Cursor works out Streamable HTTP or SSE from the url itself.
        if (kind !== "auto") this.warn(`"transport: ${kind}" is left out: Cursor works out the transport of a url itself`);
        entry.url = url;
        break;
      case "gemini-cli":
        // Gemini CLI: `httpUrl` is Streamable HTTP, `url` an SSE endpoint.
        entry[kind === "sse" ? "url" : "httpUrl"] = url;
        break;
      case "codex":
        entry.url = url;
        break;
    }
    const writtenHeaders = isObject(this.written.headers) ? this.written.headers : {};
    if (app === "codex") {
      this.codexHeaders(entry, writtenHeaders);
      return true;
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(server.headers)) {
      const text = this.string(`headers.${name}`, value, writtenHeaders[name], true);
      if (text !== undefined) setOwn(headers, name, text);
    }
    if (Object.keys(headers).length > 0) entry.headers = headers;
    return true;
  }

  /** tools, timeout, connect_timeout where the app has them. */
  options(entry: Record<string, unknown>): void {
    const { server, app } = this;
    const written = this.written;
    if (isObject(written.tools) && EXTRA_KEYS[app].includes("tools")) {
      const [include, exclude] = app === "codex" ? ["enabled_tools", "disabled_tools"] : ["includeTools", "excludeTools"];
      if (server.tools.include !== undefined) entry[include] = [...server.tools.include];
      if (server.tools.exclude !== undefined) entry[exclude] = [...server.tools.exclude];
    }
    if (written.timeout !== undefined && EXTRA_KEYS[app].includes("timeout")) {
      // Gemini CLI's `timeout` is in milliseconds; Codex's tool_timeout_sec in seconds, as ours.
      if (app === "gemini-cli") entry.timeout = server.timeoutMs;
      else entry.tool_timeout_sec = server.timeoutMs / 1000;
    }
    if (written.connect_timeout !== undefined && EXTRA_KEYS[app].includes("connect_timeout")) entry.startup_timeout_sec = server.connectTimeoutMs / 1000;
  }

  /** Codex: literal values in `env`, a variable passed on under its own name in `env_vars`. */
  codexEnv(entry: Record<string, unknown>, writtenEnv: Record<string, unknown>): void {
    const env: Record<string, string> = {};
    const passed: string[] = [];
    for (const [name, value] of Object.entries(this.server.env)) {
      const parts = typeof writtenEnv[name] === "string" ? partsOf(writtenEnv[name] as string) : undefined;
      const [only] = parts ?? [];
      if (parts?.length === 1 && only !== undefined && "variable" in only && only.variable === name && only.fallback === undefined) {
        passed.push(name);
        continue;
      }
      const text = this.string(`env.${name}`, value, writtenEnv[name], true, `(Codex passes a variable on only under its own name, in env_vars)`);
      if (text !== undefined) setOwn(env, name, text);
    }
    if (Object.keys(env).length > 0) entry.env = env;
    if (passed.length > 0) entry.env_vars = passed;
  }

  /** Codex: `Authorization: Bearer ${X}` as bearer_token_env_var, a header that is one variable in env_http_headers, literal ones in http_headers. */
  codexHeaders(entry: Record<string, unknown>, writtenHeaders: Record<string, unknown>): void {
    const literal: Record<string, string> = {};
    const fromEnv: Record<string, string> = {};
    for (const [name, value] of Object.entries(this.server.headers)) {
      const parts = typeof writtenHeaders[name] === "string" ? partsOf(writtenHeaders[name] as string) : undefined;
      const [first, second] = parts ?? [];
      if (
        name.toLowerCase() === "authorization" && parts?.length === 2 && first !== undefined && "text" in first && first.text === "Bearer " &&
        second !== undefined && "variable" in second && second.fallback === undefined
      ) {
        entry.bearer_token_env_var = second.variable;
        continue;
      }
      if (parts?.length === 1 && first !== undefined && "variable" in first && first.fallback === undefined) {
        setOwn(fromEnv, name, first.variable);
        continue;
      }
      const text = this.string(`headers.${name}`, value, writtenHeaders[name], true, `(Codex names a variable only for a whole header, or "Bearer \${VAR}")`);
      if (text !== undefined) setOwn(literal, name, text);
    }
    if (Object.keys(literal).length > 0) entry.http_headers = literal;
    if (Object.keys(fromEnv).length > 0) entry.env_http_headers = fromEnv;
  }

  /**
   * A string field in the app's syntax: from its written form when that names a variable (the
   * reference, never the value), else the value itself; or why the app cannot express it.
   * `secret`: a value a variable gave is remembered, to be checked absent from the output.
   */
  text(value: string, written: unknown, secret = false): string | { why: string } {
    let parts: InterpolationPart[] = [{ text: value }];
    if (typeof written === "string") {
      const found = partsOf(written);
      if (found === undefined) return { why: `has a \${…} that is not a variable reference` };
      if (found.some((part) => "variable" in part)) {
        parts = found;
        if (secret && value.length >= 8 && value !== written) this.result.resolvedSecrets.push(value);
      }
    }
    const rendered = render(parts, VARIABLES[this.app]);
    return typeof rendered === "string" ? rendered : { why: rendered.why.replaceAll("{app}", this.label) };
  }

  /** text(), with a warning naming the field when it is left out. */
  string(field: string, value: string, written: unknown, secret = false, hint = ""): string | undefined {
    const text = this.text(value, written, secret);
    if (typeof text === "string") return text;
    this.warn(`"${field}" is left out: ${text.why}${hint === "" ? "" : ` ${hint}`}`);
    return undefined;
  }
}

function partsOf(text: string): InterpolationPart[] | undefined {
  try {
    return interpolationParts(text);
  } catch {
    return undefined;
  }
}

/**
 * Pieces in the app's variable syntax, or why they cannot be: a variable where the app has
 * none (only its value could be written, which is never done), a default where the app has
 * none, or a literal `$` the app would read as the start of a variable.
 */
function render(parts: readonly InterpolationPart[], variables: Variables): string | { why: string } {
  let out = "";
  /** Offsets in `out` of literal `$` characters. */
  const dollars: number[] = [];
  for (const part of parts) {
    if ("text" in part) {
      for (let at = part.text.indexOf("$"); at !== -1; at = part.text.indexOf("$", at + 1)) dollars.push(out.length + at);
      out += part.text;
      continue;
    }
    const reference = `\${${part.variable}${part.fallback === undefined ? "" : `:-${part.fallback}`}}`;
    if (variables === "none") {
      return {
        why: `comes from ${reference}, and {app}'s file has no variables, so only the value could be written (that is never done); set it in {app} yourself`,
      };
    }
    if (part.fallback !== undefined && variables !== "shell") {
      return { why: `uses ${reference}, and {app}'s variables have no default; set ${part.variable} or write the value in {app} yourself` };
    }
    out += variables === "editor" ? `\${env:${part.variable}}` : variables === "shell" ? reference : `\${${part.variable}}`;
  }
  for (const at of dollars) {
    const next = out[at + 1] ?? "";
    const taken = variables === "shell" ? /[{$]/ : variables === "editor" ? /\{/ : variables === "dollar" ? /[{A-Za-z_]/ : /(?!)/;
    if (taken.test(next)) return { why: `has a literal "$${next}", which {app} would read as a variable` };
  }
  return out;
}

/** The servers as a document of their own: JSON with the app's servers key, or Codex's TOML tables. */
export async function exportDocument(app: ExportApp, servers: readonly ExportedServer[]): Promise<string> {
  const table: Record<string, unknown> = {};
  for (const { name, entry } of servers) setOwn(table, name, entry);
  if (app !== "codex") return JSON.stringify({ [SERVERS_KEY[app]]: table }, null, 2) + "\n";
  if (servers.length === 0) return "";
  const { stringify } = await import("smol-toml");
  return stringify({ mcp_servers: table }) + "\n";
}
