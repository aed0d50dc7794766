// What a project's config file would do if it were trusted, read from its text and its parsed
// value alone: the servers with their commands and URLs, the variables it would read, the apps it
// imports, the providers and hooks it sets. Nothing is expanded or run (config/project-trust.ts
// shows this to the user before the file is used).

import { isObject } from "../../common/json.ts";
import { clipText } from "../../common/preview.ts";
import type { ImportApp } from "./import-apps.ts";

/** One server of a project file, as written (no `${VAR}` expanded). */
export interface ProjectServerSummary {
  name: string;
  /** The program a stdio server runs, and its arguments. */
  command?: string;
  args: string[];
  /** The endpoint of an HTTP server. */
  url?: string;
}

/** A project config file as the user is asked to approve it. */
export interface ProjectConfigSummary {
  /** Absolute path. */
  file: string;
  /** How messages name it: `./.mcp.json`, `./.cursor/mcp.json`. */
  display: string;
  /** `sha256:<hex>` of the file's text (UTF-8): an approval holds for exactly these bytes. */
  digest: string;
  /** The app whose file it is (an import); absent for mcpwire's own config (`mcpwire.yaml`, `.mcp.json`). */
  app?: ImportApp;
  servers: ProjectServerSummary[];
  /** The environment variables its strings name (`${NAME}`, `${env:NAME}`, Codex's `env_vars`, …), sorted. */
  variables: string[];
  /** `imports:`: apps whose project files would be read too (each asks for its own approval). */
  imports: string[];
  /** `providers:` with a base_url: where `mcpwire run` / `chat` would send that provider's API key. */
  providers: { name: string; baseUrl: string }[];
  /** `hooks:`: shell commands `mcpwire run` / `chat` would run. */
  hooks: string[];
  /** Why the servers could not be listed (the file does not parse), when they could not. */
  problem?: string;
}

/** Where the servers' mapping is, per format: ours (`mcp_servers` / `mcpServers`) or an app's path. */
export interface SummaryInput {
  file: string;
  display: string;
  digest: string;
  text: string;
  /** The parsed file (undefined when it does not parse; then `problem` says why). */
  value: unknown;
  problem?: string;
  app?: ImportApp;
  /** Where an app keeps its servers (`["servers"]`, `["mcp_servers"]`); default ours. */
  serversPath?: readonly string[];
}

/** The cap on servers, hooks and providers listed, and on the characters of one string shown. */
const MAX_ITEMS = 100;
const MAX_CHARS = 500;

export function summarizeProject(input: SummaryInput): ProjectConfigSummary {
  const { value, app } = input;
  const root = isObject(value) ? value : {};
  const serversPath = input.serversPath ?? (Object.hasOwn(root, "mcp_servers") ? ["mcp_servers"] : ["mcpServers"]);
  const servers: ProjectServerSummary[] = [];
  const mapping = at(root, serversPath);
  for (const [name, raw] of Object.entries(isObject(mapping) ? mapping : {}).slice(0, MAX_ITEMS)) {
    const entry = isObject(raw) ? raw : {};
    const url = [entry.url, entry.httpUrl, entry.serverUrl].find((item) => typeof item === "string");
    servers.push({
      name: clip(name),
      ...(typeof entry.command === "string" ? { command: clip(entry.command) } : {}),
      args: Array.isArray(entry.args) ? entry.args.slice(0, MAX_ITEMS).map((arg) => clip(typeof arg === "string" ? arg : JSON.stringify(arg) ?? "")) : [],
      ...(typeof url === "string" ? { url: clip(url) } : {}),
    });
  }
  const summary: ProjectConfigSummary = {
    file: input.file,
    display: input.display,
    digest: input.digest,
    ...(app === undefined ? {} : { app }),
    servers,
    variables: variablesOf(input.text, app, mapping),
    imports: app === undefined ? importsOf(root.imports) : [],
    providers: app === undefined ? providersOf(root.providers) : [],
    hooks: app === undefined ? hooksOf(root.hooks) : [],
    ...(input.problem === undefined ? {} : { problem: input.problem }),
  };
  return summary;
}

/**
 * The variables a file's strings name, the way its app reads them (more rather than fewer: a
 * name in a comment or after `$$` is listed too). Ours and Claude Code: `${NAME}`,
 * `${NAME:-default}`; Cursor, VS Code, Windsurf: `${env:NAME}`; Gemini CLI: `$NAME` and
 * `${NAME}`; mcphost: `${env://NAME}`; Codex: `env_vars`, `bearer_token_env_var`, `env_http_headers`.
 */
function variablesOf(text: string, app: ImportApp | undefined, servers: unknown): string[] {
  const names = new Set<string>();
  const pattern = app === "cursor" || app === "vscode" || app === "windsurf"
    ? /\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g
    : app === "gemini-cli"
    ? /\$\{?([A-Za-z_][A-Za-z0-9_]*)/g
    : app === "mcphost"
    ? /\$\{env:\/\/([A-Za-z_][A-Za-z0-9_]*)/g
    : app === "claude-desktop" || app === "codex"
    ? undefined
    : /\$\{([A-Za-z_][A-Za-z0-9_]*)(?=:-|\})/g;
  if (pattern !== undefined) { for (const [, name] of text.matchAll(pattern)) if (name !== undefined) names.add(name); }
  if (app === "codex" && isObject(servers)) {
    for (const entry of Object.values(servers)) {
      if (!isObject(entry)) continue;
      if (Array.isArray(entry.env_vars)) { for (const name of entry.env_vars) if (typeof name === "string") names.add(name); }
      if (typeof entry.bearer_token_env_var === "string") names.add(entry.bearer_token_env_var);
      if (isObject(entry.env_http_headers)) { for (const name of Object.values(entry.env_http_headers)) if (typeof name === "string") names.add(name); }
    }
  }
  return [...names].slice(0, MAX_ITEMS).map(clip).sort();
}

function importsOf(value: unknown): string[] {
  const list = typeof value === "string" ? [value] : Array.isArray(value) ? value : [];
  return list.filter((item): item is string => typeof item === "string").slice(0, MAX_ITEMS).map(clip);
}

function providersOf(value: unknown): { name: string; baseUrl: string }[] {
  if (!isObject(value)) return [];
  const out: { name: string; baseUrl: string }[] = [];
  for (const [name, entry] of Object.entries(value).slice(0, MAX_ITEMS)) {
    if (isObject(entry) && typeof entry.base_url === "string") out.push({ name: clip(name), baseUrl: clip(entry.base_url) });
  }
  return out;
}

function hooksOf(value: unknown): string[] {
  if (!isObject(value)) return [];
  const out: string[] = [];
  for (const list of Object.values(value)) {
    if (!Array.isArray(list)) continue;
    for (const hook of list) {
      // Ours ({ command }) or Claude Code's / mcphost's ({ matcher, hooks: [{ command }] }).
      const commands = isObject(hook) && Array.isArray(hook.hooks) ? hook.hooks : [hook];
      for (const item of commands) if (isObject(item) && typeof item.command === "string" && out.length < MAX_ITEMS) out.push(clip(item.command));
    }
  }
  return out;
}

function at(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) node = isObject(node) && Object.hasOwn(node, key) ? node[key] : undefined;
  return node;
}

function clip(text: string): string {
  return clipText(text, MAX_CHARS);
}
