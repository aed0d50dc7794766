// The JSON Schema (2020-12) of an mcpwire config file, YAML (`mcp_servers:`) or JSON
// (`mcpServers`), and the words config/schema-messages.ts uses to say what each key expects.

import { type JsonObject, LOGGING_LEVELS } from "../../client/types.ts";
import { EXTENSIONS_EXPECTED } from "./extensions-key.ts";

/**
 * Values of `transport` and of `.mcp.json`'s `type`, and the transport each one means.
 * `auto` is also what a `url` without either gets.
 */
export const TRANSPORT_ALIASES: Readonly<Record<string, "stdio" | "http" | "sse" | "auto">> = {
  stdio: "stdio",
  http: "http",
  "streamable-http": "http",
  streamableHttp: "http",
  sse: "sse",
  auto: "auto",
};

/** The keys a server entry may have, in the order messages list them. */
export const SERVER_KEYS = [
  "command",
  "args",
  "env",
  "cwd",
  "url",
  "headers",
  "transport",
  "type",
  "tools",
  "enabled",
  "timeout",
  "connect_timeout",
  "naming",
  "log_level",
  "roots",
  "sampling",
  "auth",
  "protocol",
  "results",
  "extensions",
  "tasks",
] as const;

/** The keys of a server's `results` mapping (result files, issue 18). */
export const SERVER_RESULTS_KEYS = ["enabled", "directory"] as const;

/** The keys of a server's `sampling` mapping (the policy around the client's sampling handler). */
export const SAMPLING_KEYS = ["max_tokens", "requests_per_minute", "models", "timeout", "tools"] as const;
// `sampling.model` (the provider/model serving the requests, issue 9) is in SERVER_SCHEMA too.

/** Top-level keys of the LLM host (`mcpwire run` / `chat`); config/host-settings.ts checks them by hand, with positions. */
export const HOST_KEYS = ["model", "providers", "system_prompt", "max_steps", "hooks", "tool_search", "tool_definitions", "results", "extensions"] as const;
/** The keys of `tool_search:` (issue 18). */
export const TOOL_SEARCH_KEYS = ["mode", "max_tools", "max_schema_bytes", "max_results"] as const;
/** The keys of `tool_definitions:` (issue 24): what a model is offered of each tool, at most. */
export const TOOL_DEFINITIONS_KEYS = ["max_description_bytes", "max_schema_bytes"] as const;
/** The keys of the top-level `results:` (issue 18). */
export const RESULTS_KEYS = ["enabled", "directory", "max_files", "max_age_days"] as const;
/** The keys of one `providers:` entry. */
export const PROVIDER_KEYS = ["base_url", "api_key", "timeout"] as const;
/** The keys of one hook command. */
export const HOOK_KEYS = ["matcher", "command", "timeout"] as const;

/** Keys of a stdio server, and of an http / sse server: the others' keys are ignored with a warning. */
export const STDIO_KEYS: readonly string[] = ["command", "args", "env", "cwd"];
export const HTTP_KEYS: readonly string[] = ["url", "headers", "auth"];

/** The keys of a server's `auth` mapping (OAuth, issue 8). */
export const AUTH_KEYS = ["client_id", "client_secret", "issuer", "client_metadata_url", "redirect_port"] as const;

/** Top-level keys holding the servers: YAML configs use the first, `.mcp.json` files the second. */
export const SERVERS_KEYS = ["mcp_servers", "mcpServers"] as const;

/** What a key expects, for "… must be <expected>" messages. Keys are dotted paths within a server. */
export const EXPECTED: Readonly<Record<string, string>> = {
  command: "a string: the program to run",
  args: "an array of strings",
  env: "a mapping of variable names to strings",
  cwd: "a string: the directory to start the server in",
  url: "a string: the server's http:// or https:// URL",
  headers: "a mapping of header names to strings",
  transport: 'one of "stdio", "http", "sse" or "auto"',
  type: 'one of "stdio", "http", "streamable-http", "sse" or "auto"',
  tools: "a mapping with include and/or exclude",
  "tools.include": "an array of tool names or * globs",
  "tools.exclude": "an array of tool names or * globs",
  enabled: "true or false",
  timeout: "a number of seconds greater than 0",
  connect_timeout: "a number of seconds greater than 0",
  naming: 'a name format containing {tool}, such as "mcp_{server}_{tool}" or "{server}__{tool}"',
  log_level: `one of ${LOGGING_LEVELS.map((level) => `"${level}"`).join(", ")}`,
  protocol: '"auto", "modern" or "legacy"',
  tasks: '"auto" (tools that require a task run as one), "always" (tools that allow a task run as one) or "never"',
  roots: "an array of absolute paths, paths relative to the config file, or file:// URIs",
  sampling: "a mapping with max_tokens, requests_per_minute, models, timeout, tools and/or model",
  "sampling.max_tokens": "a whole number of tokens greater than 0",
  "sampling.requests_per_minute": "a whole number greater than 0",
  "sampling.models": "an array of model names",
  "sampling.timeout": "a number of seconds greater than 0",
  "sampling.tools": "true or false",
  auth: "false, or a mapping with client_id, client_secret, issuer, client_metadata_url and/or redirect_port",
  "auth.client_id": "a string: a client id registered with the authorization server",
  "auth.client_secret": "a string (use ${VAR}): the registered client's secret",
  "auth.issuer": "a string: the authorization server (issuer URL) client_id belongs to",
  "auth.client_metadata_url": "a string: the https URL of the client's Client ID Metadata Document",
  "auth.redirect_port": "a whole number from 1 to 65535: the loopback port of the OAuth redirect",
  "sampling.model": 'a model string "provider/model", such as "ollama/qwen3" or "openai/gpt-4o"',
  results: "true, false, or a mapping with enabled and/or directory",
  "results.enabled": "true or false",
  "results.directory": "a string: the directory this server's result files go to",
  extensions: EXTENSIONS_EXPECTED,
};

/** Strings, and numbers or booleans written where a string is meant (`PORT: 8080`): kept as written. */
const SCALAR = { type: ["string", "number", "boolean"] };
const STRING_ARRAY = { type: "array", items: { type: "string" } };
const SECONDS = { type: "number", exclusiveMinimum: 0 };

/** One entry of `mcp_servers` / `mcpServers`. Typed as a plain JSON object: JSR needs explicit types on exports. */
export const SERVER_SCHEMA: Readonly<JsonObject> = {
  type: "object",
  properties: {
    command: { type: "string", minLength: 1, description: "stdio: the program to run (found on PATH)" },
    args: { type: "array", items: SCALAR, description: "stdio: its arguments" },
    env: {
      type: "object",
      additionalProperties: SCALAR,
      description: "stdio: variables added to the safe baseline environment (they win over it)",
    },
    cwd: { type: "string", minLength: 1, description: "stdio: working directory; relative to the config file's directory" },
    url: { type: "string", minLength: 1, description: "http / sse / auto: the endpoint" },
    headers: { type: "object", additionalProperties: SCALAR, description: "http / sse / auto: sent with every request" },
    auth: {
      anyOf: [
        { const: false },
        {
          type: "object",
          properties: {
            client_id: { type: "string", minLength: 1 },
            client_secret: { type: "string" },
            issuer: { type: "string", minLength: 1 },
            client_metadata_url: { type: "string", minLength: 1 },
            redirect_port: { type: "integer", minimum: 1, maximum: 65535 },
          },
          additionalProperties: false,
        },
      ],
      description: "http / sse / auto: OAuth (on by default); false turns it off; a pre-registered client, a CIMD URL, the redirect port",
    },
    transport: {
      enum: Object.keys(TRANSPORT_ALIASES),
      description: "stdio for a command and auto (Streamable HTTP, else legacy SSE) for a url when absent",
    },
    type: { enum: Object.keys(TRANSPORT_ALIASES), description: "the .mcp.json spelling of transport" },
    tools: {
      type: "object",
      properties: { include: STRING_ARRAY, exclude: STRING_ARRAY },
      additionalProperties: false,
      description: "which of the server's tools to register: exact names or * globs; include wins",
    },
    enabled: { type: "boolean", description: "default true" },
    timeout: { ...SECONDS, description: "tool-call timeout in seconds, default 300" },
    connect_timeout: { ...SECONDS, description: "spawn + initialize timeout in seconds, default 60" },
    naming: { type: "string", pattern: "\\{tool\\}", description: "registered-name format, default mcp_{server}_{tool}" },
    log_level: { enum: [...LOGGING_LEVELS], description: "sent as logging/setLevel after connect, when the server declares logging" },
    protocol: {
      enum: ["auto", "modern", "legacy"],
      description: "the era: auto (server/discover, then the initialize handshake), modern (2026-07-28 only), legacy (handshake only)",
    },
    tasks: {
      enum: ["auto", "always", "never"],
      description:
        "which tools run as tasks (2025-11-25 execution.taskSupport): auto (default: those that require it), always (those that allow it), never (tools that require a task are not offered)",
    },
    roots: {
      type: "array",
      items: { type: "string", minLength: 1 },
      description: "directories offered to the server (roots/list); relative paths resolve against the config file's directory",
    },
    extensions: {
      type: "object",
      additionalProperties: { type: "boolean" },
      description: "extensions on (default) or off for this server: tasks, skills, apps or an identifier → true / false",
    },
    sampling: {
      type: "object",
      properties: {
        max_tokens: { type: "integer", exclusiveMinimum: 0 },
        requests_per_minute: { type: "integer", exclusiveMinimum: 0 },
        models: STRING_ARRAY,
        timeout: SECONDS,
        tools: { type: "boolean" },
        model: { type: "string", minLength: 1 },
      },
      additionalProperties: false,
      description: "policy around the host's sampling handler: token cap, rate limit, model allowlist, timeout (s), tools",
    },
    results: {
      anyOf: [
        { type: "boolean" },
        {
          type: "object",
          properties: { enabled: { type: "boolean" }, directory: { type: "string", minLength: 1 } },
          additionalProperties: false,
        },
      ],
      description: "run / chat: false keeps this server's long results and binary content out of result files; directory: its own",
    },
  },
  additionalProperties: false,
} as const;

const SERVERS = { type: ["object", "null"], additionalProperties: SERVER_SCHEMA } as const;

export const CONFIG_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  title: "mcpwire config",
  type: "object",
  properties: {
    $schema: { type: "string" },
    mcp_servers: SERVERS,
    mcpServers: SERVERS,
    // The host's keys (HOST_KEYS) are checked by config/host-settings.ts, which positions each problem.
    model: {},
    providers: {},
    system_prompt: {},
    max_steps: {},
    hooks: {},
    tool_search: {},
    tool_definitions: {},
    results: {},
    // Top-level extensions (every server) are checked by config/extensions-key.ts, positioned.
    extensions: {},
    // Other apps' servers to import (config/imports.ts checks the names, with positions).
    imports: {},
  },
  additionalProperties: false,
} as const;
