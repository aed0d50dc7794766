// One server entry of another app's config in mcpwire's keys: each app's names for the same
// things (Windsurf's `serverUrl`, Gemini CLI's `httpUrl` and millisecond `timeout`, Codex's
// `bearer_token_env_var`, …) and its variables (`${env:X}`, `$X`, VS Code's `${input:…}`) turned
// into what config/server.ts reads, with `${VAR}` where the app meant the environment.
// mcphost (mark3labs/mcphost internal/config/config.go, MCPServerConfig and GetTransportType;
// substitution.go): `type: local|remote|builtin`, `command` as an array (program first),
// `environment`, `url` + `headers` (a list of "Name: value"), `allowedTools` / `excludedTools`,
// `${env://VAR}` and `${env://VAR:-default}`; its legacy shape is `command` + `args` + `env`.

import { isObject, nameTable, ownValue, setOwn } from "../../common/json.ts";
import type { Env } from "./context.ts";
import type { ImportApp } from "./import-sources.ts";
import { resolvePath } from "./paths.ts";
import type { Path } from "./syntax.ts";

export interface ShapeContext {
  app: ImportApp;
  /** The project directory: `${workspaceFolder}`, and what a relative `cwd` is relative to. */
  cwd: string;
  home?: string;
  env: Env;
}

/** A server entry in mcpwire's keys, and what did not carry over. */
export interface Shaped {
  /** The entry as config/server.ts reads it (strings already in mcpwire's `${VAR}` syntax). */
  entry: Record<string, unknown>;
  /** mcpwire key path (dotted) → the app's key path it came from, where they differ (for positions). */
  sourceKeys: Record<string, Path>;
  /** Problems that keep the server from starting, at the app's key. `unknownShape`: nothing we can start. */
  problems: { key: Path; message: string; unknownShape?: boolean }[];
  /** Keys that mean nothing to mcpwire, at the app's key. */
  warnings: { key: Path; message: string }[];
  /** Set when the entry is left out on purpose (an mcphost `builtin` server): why, said as a warning. */
  skipped?: string;
}

/** What a `type` / `transport` value means; others are a shape we do not know. */
const TRANSPORTS: Readonly<Record<string, string>> = {
  stdio: "stdio",
  http: "http",
  "streamable-http": "http",
  streamableHttp: "http",
  "streamable_http": "http",
  sse: "sse",
  // mcphost: `local` runs a command over stdio, `remote` is Streamable HTTP; its legacy `transport: streamable`.
  local: "stdio",
  remote: "http",
  streamable: "http",
};

/** Keys each app may write that mcpwire does not use, ignored without a word (approval, UI, OAuth it discovers itself). */
const QUIET: Readonly<Record<ImportApp, readonly string[]>> = {
  "claude-desktop": [],
  "claude-code": ["oauth"],
  cursor: ["auth"],
  vscode: ["dev", "gallery", "version", "sandbox", "sandboxEnabled"],
  windsurf: ["alwaysAllow"],
  "gemini-cli": ["trust", "description", "oauth", "authProviderType", "extensionName", "targetAudience", "targetServiceAccount"],
  codex: ["oauth", "scopes", "default_tools_approval_mode", "tools", "oauth_resource"],
  mcphost: [],
};

/** The keys each app's server entries use for a stdio command or a URL, for "a shape we do not know". */
export const SHAPE_KEYS: Readonly<Record<ImportApp, string>> = {
  "claude-desktop": `"command" (or "url")`,
  "claude-code": `"command", or "url" with "type" http or sse`,
  cursor: `"command" or "url"`,
  vscode: `"command" (type stdio) or "url" (type http or sse)`,
  windsurf: `"command" or "serverUrl"`,
  "gemini-cli": `"command", "httpUrl" or "url"`,
  codex: `"command" or "url"`,
  mcphost: `"command" (type local) or "url" (type remote)`,
};

/** How each app writes variables in its strings. */
type Variables = "literal" | "shell" | "dollar" | "editor" | "mcphost";
const VARIABLES: Readonly<Record<ImportApp, Variables>> = {
  "claude-desktop": "literal", // Claude Desktop passes strings as written
  "claude-code": "shell", // ${VAR} and ${VAR:-default}, as mcpwire
  cursor: "editor", // ${env:NAME}, ${userHome}, ${workspaceFolder}, …
  vscode: "editor", // the same, plus ${input:…} prompts
  windsurf: "editor", // ${env:NAME}
  "gemini-cli": "dollar", // $VAR and ${VAR}
  codex: "literal", // env values are literal; variables are named by env_vars / *_env_var keys
  mcphost: "mcphost", // ${env://VAR} and ${env://VAR:-default}; any other $ is itself
};

/** Reads one server entry of `app`'s file (an object; the caller reports anything else). */
export function shapeServer(raw: Record<string, unknown>, context: ShapeContext): Shaped {
  const shaped: Shaped = { entry: {}, sourceKeys: nameTable(), problems: [], warnings: [] };
  const { app } = context;
  const text = (value: string, key: Path): string => convertVariables(value, key, context, shaped);
  const strings = (value: unknown, key: Path): unknown =>
    Array.isArray(value) ? value.map((item, index) => (typeof item === "string" ? text(item, [...key, index]) : item)) : value;
  const mapping = (value: unknown, key: Path): unknown => {
    if (!isObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(value)) setOwn(out, name, typeof item === "string" ? text(item, [...key, name]) : item);
    return out;
  };
  const put = (ours: string, value: unknown, from: Path) => {
    shaped.entry[ours] = value;
    if (from.join(".") !== ours) shaped.sourceKeys[ours] = from;
  };
  const addHeaders = (headers: Record<string, unknown>, from: Path) => {
    const current = isObject(shaped.entry.headers) ? shaped.entry.headers : {};
    shaped.entry.headers = { ...current, ...headers };
    for (const name of Object.keys(headers)) shaped.sourceKeys[`headers.${name}`] = from;
  };

  for (const [key, value] of Object.entries(raw)) {
    switch (key) {
      case "command":
        if (Array.isArray(value) && value.length > 0) {
          // mcphost: the program and its arguments in one list; `args` (legacy) would come after.
          const [program, ...rest] = strings(value, [key]) as unknown[];
          put("command", program, [key, 0]);
          put("args", [...rest, ...(Array.isArray(shaped.entry.args) ? shaped.entry.args : [])], [key]);
          continue;
        }
        put("command", typeof value === "string" ? text(value, [key]) : value, [key]);
        continue;
      case "args":
        // After an mcphost array `command`: its arguments first.
        put(
          "args",
          Array.isArray(value) && Array.isArray(shaped.entry.args) ? [...shaped.entry.args, ...(strings(value, [key]) as unknown[])] : strings(value, [key]),
          [key],
        );
        continue;
      case "env": {
        const env = mapping(value, [key]);
        // Codex's env_vars may have come first.
        put("env", isObject(env) && isObject(shaped.entry.env) ? { ...shaped.entry.env, ...env } : env, [key]);
        continue;
      }
      case "cwd": {
        // Relative to the project: these apps run from there (our own config's are relative to the file).
        // A literal app's `${` is text, not a variable: its path is resolved as written.
        const literal = typeof value === "string" && VARIABLES[app] === "literal";
        const cwd = typeof value === "string" ? text(literal ? resolvePath(context.cwd, value) : value, [key]) : value;
        put("cwd", typeof cwd === "string" && !literal && !cwd.includes("${") ? resolvePath(context.cwd, cwd) : cwd, [key]);
        continue;
      }
      case "url":
        put("url", typeof value === "string" ? text(value, [key]) : value, [key]);
        // Gemini CLI: `url` is an SSE endpoint (`httpUrl` is Streamable HTTP). Codex: Streamable HTTP only.
        if (app === "gemini-cli" && raw.type === undefined) put("type", "sse", [key]);
        if (app === "codex") put("type", "http", [key]);
        continue;
      case "headers":
      case "http_headers":
        if (Array.isArray(value)) {
          // mcphost: a list of "Name: value".
          const headers: Record<string, unknown> = {};
          for (const [index, line] of value.entries()) {
            const colon = typeof line === "string" ? line.indexOf(":") : -1;
            if (colon <= 0) {
              shaped.problems.push({ key: [key, index], message: `"${key}[${index}]" must be a header "Name: value"; it is ${JSON.stringify(line)}` });
              continue;
            }
            setOwn(headers, (line as string).slice(0, colon).trim(), text((line as string).slice(colon + 1).trim(), [key, index]));
          }
          addHeaders(headers, [key]);
        } else if (isObject(value)) addHeaders(mapping(value, [key]) as Record<string, unknown>, [key]);
        else put("headers", value, [key]);
        continue;
      case "type":
      case "transport": {
        if (app === "mcphost" && key === "type" && value === "builtin") {
          // mcphost's in-process servers (fs, bash, todo, fetch, …) are part of mcphost itself.
          const name = typeof raw.name === "string" ? ` "${raw.name}"` : "";
          shaped.skipped = `mcphost's builtin server${name} runs inside mcphost, and mcpwire has no such server; it is skipped ` +
            `(to have its tools, run an MCP server that offers them, as type local)`;
          continue;
        }
        if (typeof value === "string" && Object.hasOwn(TRANSPORTS, value)) {
          put("type", TRANSPORTS[value], [key]);
        } else {
          shaped.problems.push({
            key: [key],
            message: `"${key}" is ${JSON.stringify(value)}, a transport mcpwire does not know; it speaks stdio, http (Streamable HTTP) and sse`,
            unknownShape: true,
          });
        }
        continue;
      }
      case "enabled":
        put("enabled", value, [key]);
        continue;
      case "disabled":
        // Windsurf, Cline and others: `disabled: true` keeps the server off.
        if (typeof value === "boolean") put("enabled", !value, [key]);
        continue;
    }
    if (!shapeAppKey(app, key, value, raw, context, shaped, { put, addHeaders, text })) {
      if (QUIET[app].includes(key)) continue;
      shaped.warnings.push({ key: [key], message: `"${key}" means nothing to mcpwire; it is ignored` });
    }
  }
  if (shaped.skipped !== undefined) return shaped;
  if (shaped.entry.command === undefined && shaped.entry.url === undefined && !shaped.problems.some((item) => item.unknownShape)) {
    const keys = Object.keys(raw);
    shaped.problems.push({
      key: [],
      message: `has a shape mcpwire does not know: it needs ${SHAPE_KEYS[app]}; ${
        keys.length === 0 ? "it is empty" : `its keys are ${keys.map((key) => `"${key}"`).join(", ")}`
      }`,
      unknownShape: true,
    });
  }
  return shaped;
}

interface Helpers {
  put(ours: string, value: unknown, from: Path): void;
  addHeaders(headers: Record<string, unknown>, from: Path): void;
  text(value: string, key: Path): string;
}

/** An app's own keys; false when `key` is not one of them. */
function shapeAppKey(
  app: ImportApp,
  key: string,
  value: unknown,
  raw: Record<string, unknown>,
  context: ShapeContext,
  shaped: Shaped,
  helpers: Helpers,
): boolean {
  const { put, addHeaders, text } = helpers;
  switch (`${app} ${key}`) {
    case "windsurf serverUrl":
      put("url", typeof value === "string" ? text(value, [key]) : value, [key]);
      return true;
    case "windsurf disabledTools":
    case "gemini-cli excludeTools":
    case "mcphost excludedTools":
    case "codex disabled_tools":
      put("tools", { ...(isObject(shaped.entry.tools) ? shaped.entry.tools : {}), exclude: value }, [key]);
      shaped.sourceKeys["tools.exclude"] = [key];
      return true;
    case "gemini-cli includeTools":
    case "mcphost allowedTools":
    case "codex enabled_tools":
      put("tools", { ...(isObject(shaped.entry.tools) ? shaped.entry.tools : {}), include: value }, [key]);
      shaped.sourceKeys["tools.include"] = [key];
      return true;
    case "gemini-cli httpUrl":
      put("url", typeof value === "string" ? text(value, [key]) : value, [key]);
      if (raw.type === undefined) put("type", "http", [key]);
      return true;
    case "gemini-cli timeout":
      // Gemini CLI: the request timeout in milliseconds; ours is in seconds.
      put("timeout", typeof value === "number" ? value / 1000 : value, [key]);
      return true;
    case "codex tool_timeout_sec":
      put("timeout", value, [key]);
      return true;
    case "codex startup_timeout_sec":
      put("connect_timeout", value, [key]);
      return true;
    case "codex startup_timeout_ms":
      put("connect_timeout", typeof value === "number" ? value / 1000 : value, [key]);
      return true;
    case "codex bearer_token_env_var":
      if (typeof value === "string") addHeaders({ Authorization: `Bearer \${${value}}` }, [key]);
      return true;
    case "codex env_http_headers":
      // The header's value is the named variable's (Codex skips an unset one; here it disables the server, named).
      if (isObject(value)) addHeaders(Object.fromEntries(Object.entries(value).map(([name, variable]) => [name, `\${${String(variable)}}`])), [key]);
      return true;
    case "codex env_vars": {
      // Variables passed on from mcpwire's environment, when it has them.
      if (!Array.isArray(value)) return true;
      const env: Record<string, unknown> = isObject(shaped.entry.env) ? { ...shaped.entry.env } : {};
      for (const name of value) {
        if (typeof name === "string" && ownValue(context.env, name) !== undefined && ownValue(env, name) === undefined) setOwn(env, name, `\${${name}}`);
      }
      put("env", env, ["env"]);
      return true;
    }
    case "mcphost environment": {
      const env = isObject(value)
        ? Object.fromEntries(Object.entries(value).map(([name, item]) => [name, typeof item === "string" ? text(item, [key, name]) : item]))
        : value;
      put("env", isObject(env) && isObject(shaped.entry.env) ? { ...shaped.entry.env, ...env } : env, [key]);
      return true;
    }
    case "mcphost name":
    case "mcphost options":
      // A builtin server's own keys (it is skipped).
      return raw.type === "builtin";
    case "cursor envFile":
    case "vscode envFile":
      shaped.warnings.push({
        key: [key],
        message: `"envFile" is not read by mcpwire; the server gets no variables from it (put them in "env" or in mcpwire's environment)`,
      });
      return true;
    case "claude-code headersHelper":
      shaped.warnings.push({ key: [key], message: `"headersHelper" is not run by mcpwire; the server gets no headers from it` });
      return true;
  }
  return false;
}

/** An app's string in mcpwire's `${VAR}` syntax: its literal `$` kept, its variables translated. */
function convertVariables(value: string, key: Path, context: ShapeContext, shaped: Shaped): string {
  if (!value.includes("$")) return value;
  switch (VARIABLES[context.app]) {
    case "shell":
      return value;
    case "mcphost":
      // ${env://VAR} and ${env://VAR:-default} read the environment; any other $ is itself.
      return value.replace(
        /\$\{env:\/\/([A-Za-z_][A-Za-z0-9_]*)(:-[^}]*)?\}|\$/g,
        (_all, name?: string, fallback?: string) => name === undefined ? "$$" : `\${${name}${fallback ?? ""}}`,
      );
    case "literal":
      return literalText(value);
    case "dollar":
      // Gemini CLI: $VAR and ${VAR} name variables; any other $ is itself.
      return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)|\$/g, (_all, braced?: string, bare?: string) => {
        const name = braced ?? bare;
        return name === undefined ? "$$" : `\${${name}}`;
      });
    case "editor":
      return value.replace(/\$\{([^}]*)\}|\$/g, (_all, inner?: string) => {
        if (inner === undefined) return "$$";
        const resolved = editorVariable(inner, context);
        if (resolved !== undefined) return resolved;
        shaped.problems.push({ key, message: editorVariableProblem(inner, key, context) });
        return ""; // the server is disabled; nothing of it is used
      });
  }
}

/**
 * Text kept as written through interpolation: each `$` doubled, as interpolate.ts reads `$$`.
 * (Not `replaceAll("$", "$$")`: in a replacement string `$$` stands for one `$`.)
 */
function literalText(value: string): string {
  return value.split("$").join("$$");
}

/** `${env:NAME}`, `${userHome}`, `${workspaceFolder}`, … in mcpwire's syntax; undefined for one we cannot resolve. */
function editorVariable(inner: string, context: ShapeContext): string | undefined {
  const literal = literalText;
  const env = /^env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(inner);
  if (env) return `\${${env[1]}}`;
  switch (inner) {
    case "userHome":
      return context.home === undefined ? undefined : literal(context.home);
    case "workspaceFolder":
    case "workspaceRoot":
      return literal(context.cwd);
    case "workspaceFolderBasename":
      return literal(context.cwd.split(/[\\/]/).filter(Boolean).at(-1) ?? context.cwd);
    case "pathSeparator":
    case "/":
      return "/";
  }
  return undefined;
}

function editorVariableProblem(inner: string, key: Path, context: ShapeContext): string {
  const where = `"${key.map(String).join(".")}"`;
  if (inner.startsWith("input:")) {
    // VS Code: `${input:id}` is asked of the user in a prompt (the file's "inputs"); there is no answer to read.
    return `${where} uses \${${inner}}, a value VS Code asks for in a prompt (its "inputs"), which mcpwire cannot show; ` +
      `define this server in your mcpwire config with the value from the environment (e.g. "\${MY_TOKEN}"), or set it in the file`;
  }
  const app = context.app === "vscode" ? "VS Code" : context.app === "cursor" ? "Cursor" : "Windsurf";
  return `${where} uses \${${inner}}, a ${app} variable mcpwire cannot resolve (it knows \${env:NAME}, \${userHome}, \${workspaceFolder}, ` +
    `\${workspaceFolderBasename}, \${pathSeparator}); define this server in your mcpwire config instead`;
}
