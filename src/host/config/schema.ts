// The JSON Schema (2020-12) of an mcpwire config file, YAML (`mcp_servers:`) or JSON
// (`mcpServers`), and the words config/schema-messages.ts uses to say what each key expects.

import { DEFAULT_HOOK_TIMEOUT_MS, HOOK_EVENTS } from "../../agent/hooks.ts";
import { DEFAULT_MAX_DESCRIPTION_BYTES, DEFAULT_MAX_TOOL_SCHEMA_BYTES } from "../../agent/tool-definition-cap.ts";
import { DEFAULT_TOOL_SEARCH_MAX_BYTES, DEFAULT_TOOL_SEARCH_MAX_TOOLS, DEFAULT_TOOL_SEARCH_RESULTS, TOOL_SEARCH_MODES } from "../../agent/tool-search.ts";
import { type JsonObject, LOGGING_LEVELS } from "../../client/types.ts";
import { DEFAULT_MAX_RESULT_AGE_MS, DEFAULT_MAX_RESULT_FILES } from "../../registry/result-files.ts";
import { EXTENSIONS_EXPECTED } from "./extensions-key.ts";
import { IMPORT_APPS } from "./import-apps.ts";

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
  "sandbox",
  "pinning",
] as const;

/** The keys of a server's `sandbox` mapping (issue 29). */
export const SANDBOX_KEYS = ["read", "write", "network", "env", "prefer"] as const;

/** The keys of a server's `results` mapping (result files, issue 18). */
export const SERVER_RESULTS_KEYS = ["enabled", "directory"] as const;

/** The keys of a server's `sampling` mapping (the policy around the client's sampling handler). */
export const SAMPLING_KEYS = ["max_tokens", "requests_per_minute", "models", "timeout", "tools"] as const;
// `sampling.model` (the provider/model serving the requests, issue 9) is in SERVER_SCHEMA too.

/** Top-level keys of the LLM host (`mcpwire run` / `chat`); config/host-settings.ts checks them by hand, with positions. */
export const HOST_KEYS = [
  "model",
  "providers",
  "system_prompt",
  "max_steps",
  "hooks",
  "tool_search",
  "tool_definitions",
  "results",
  "extensions",
  "telemetry",
  "pinning",
] as const;
/** The keys of `tool_search:` (issue 18). */
export const TOOL_SEARCH_KEYS = ["mode", "max_tools", "max_schema_bytes", "max_results"] as const;
/** The keys of `tool_definitions:` (issue 24): what a model is offered of each tool, at most. */
export const TOOL_DEFINITIONS_KEYS = ["max_description_bytes", "max_schema_bytes"] as const;
/** The keys of the top-level `results:` (issue 18). */
export const RESULTS_KEYS = ["enabled", "directory", "max_files", "max_age_days"] as const;
/** The keys of the top-level `telemetry:` (OpenTelemetry, issue 30). */
export const TELEMETRY_KEYS = ["enabled", "capture_arguments", "capture_results"] as const;
/** The keys of one `providers:` entry. */
export const PROVIDER_KEYS = ["base_url", "api_key", "timeout"] as const;
/** The keys of one hook command. */
export const HOOK_KEYS = ["matcher", "command", "timeout"] as const;

/** Keys of a stdio server, and of an http / sse server: the others' keys are ignored with a warning. */
export const STDIO_KEYS: readonly string[] = ["command", "args", "env", "cwd", "sandbox"];
export const HTTP_KEYS: readonly string[] = ["url", "headers", "auth"];

/** The keys of a server's `auth` mapping (OAuth, issue 8). */
export const AUTH_KEYS = ["client_id", "client_secret", "issuer", "client_metadata_url", "redirect_port"] as const;

/** Top-level keys holding the servers: YAML configs use the first, `.mcp.json` files the second. */
export const SERVERS_KEYS = ["mcp_servers", "mcpServers"] as const;

/** What `pinning` (top level and per server) expects. */
export const PINNING_EXPECTED = '"hold" (a new or changed tool is held back until accepted), "warn" (offered, with a warning) or "off"';

/** The values of `pinning`. */
export const PINNING_MODES = ["off", "warn", "hold"] as const;

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
  sandbox: '"default", "prefer", false, or a mapping with read, write, network, env and/or prefer',
  "sandbox.read": "an array of paths the server may read",
  "sandbox.write": "an array of paths the server may read and write",
  "sandbox.network": "true or false",
  "sandbox.env": "an array of variable names",
  "sandbox.prefer": "true or false",
  pinning: PINNING_EXPECTED,
};

/** Strings, and numbers or booleans written where a string is meant (`PORT: 8080`): kept as written. */
const SCALAR = { type: ["string", "number", "boolean"] };
const STRING_ARRAY = { type: "array", items: { type: "string" } };
const SECONDS = { type: "number", exclusiveMinimum: 0 };

/** An example value of each server key, for the config reference (`mcpwire help config`). */
const SERVER_EXAMPLES: Readonly<Record<string, unknown>> = {
  command: "npx",
  args: ["-y", "@modelcontextprotocol/server-memory"],
  env: { MEMORY_FILE_PATH: "${HOME}/memory.jsonl" },
  cwd: "servers/files",
  url: "https://example.com/mcp",
  headers: { "X-Api-Version": "2" },
  auth: { client_id: "mcpwire-cli", redirect_port: 8976 },
  transport: "http",
  type: "http",
  tools: { exclude: ["delete_*"] },
  enabled: false,
  timeout: 120,
  connect_timeout: 180,
  naming: "{server}__{tool}",
  log_level: "warning",
  protocol: "legacy",
  tasks: "never",
  pinning: "warn",
  roots: ["~/projects", "docs"],
  extensions: { apps: false },
  sampling: { model: "ollama/qwen3", max_tokens: 1024 },
  results: { directory: "results" },
  sandbox: { read: ["~/notes"], write: ["~/notes/drafts"], network: false },
};

/** The same properties, each with its example. */
function withExamples(properties: Record<string, JsonObject>): JsonObject {
  return Object.fromEntries(
    Object.entries(properties).map(([key, schema]) => [key, key in SERVER_EXAMPLES ? { ...schema, examples: [SERVER_EXAMPLES[key]] } : schema]),
  ) as JsonObject;
}

/** One entry of `mcp_servers` / `mcpServers`. Typed as a plain JSON object: JSR needs explicit types on exports. */
export const SERVER_SCHEMA: Readonly<JsonObject> = {
  type: "object",
  properties: withExamples({
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
    pinning: {
      enum: [...PINNING_MODES],
      description: "tool pinning for this server (over the top-level pinning): hold, warn or off",
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
    sandbox: {
      // One shape for the three forms (no anyOf): an unknown key of the mapping is then a warning naming it, as elsewhere.
      type: ["string", "boolean", "object"],
      if: { type: "string" },
      then: { enum: ["default", "prefer"] },
      properties: {
        read: {
          ...STRING_ARRAY,
          description: "paths it may read besides its own program and the system's files (default: its roots, its cwd and the paths its arguments name)",
        },
        write: { ...STRING_ARRAY, description: "paths it may read and write (besides a private /tmp)" },
        network: {
          anyOf: [{ type: "boolean" }, STRING_ARRAY],
          description: "true: every host; false (default): none. A list of hosts cannot be enforced by bubblewrap and is refused",
        },
        env: { ...STRING_ARRAY, description: "variables of mcpwire's environment passed in by name (beside the safe baseline and env)" },
        prefer: { type: "boolean", description: "run unsandboxed with a warning where no sandbox can be had (default false: it does not start)" },
      },
      additionalProperties: false,
      description: "stdio: run the server in a sandbox (bubblewrap, Linux): default (read its own program, its roots, its cwd and the paths " +
        "its arguments name; write a private /tmp and home; no network), prefer (the same, unsandboxed with a warning where no sandbox can be had), " +
        "or a mapping; relative paths resolve against the config file's directory",
    },
  }),
  additionalProperties: false,
} as const;

const SERVERS = { type: ["object", "null"], additionalProperties: SERVER_SCHEMA } as const;

// The providers' names and timeout, as src/agent/providers/ has them (host/mod.ts loads no provider;
// test/cli/config-reference.test.ts checks they agree).
export const SCHEMA_PROVIDER_NAMES = ["ollama", "openai", "anthropic", "google"] as const;
const PROVIDER_TIMEOUT_SECONDS = 300;

/** One `providers:` entry (ProviderSettings). */
const PROVIDER_SCHEMA = {
  type: "object",
  properties: {
    base_url: {
      type: "string",
      description: "the API's base URL: an OpenAI-compatible server (LM Studio, vLLM, llama.cpp), a proxy, a remote Ollama; ${VAR} works",
      examples: ["http://127.0.0.1:1234/v1"],
    },
    api_key: { type: "string", description: "the API key; write ${VAR} (e.g. ${OPENAI_API_KEY}), not the key itself" },
    timeout: { ...SECONDS, default: PROVIDER_TIMEOUT_SECONDS, description: "seconds to wait for the API's bytes", examples: [600] },
  },
  additionalProperties: false,
};

/** One hook command of ours: `{ matcher, command, timeout }`. */
const HOOK_COMMAND = {
  type: "object",
  properties: {
    matcher: { type: "string", description: "a regular expression on tool names (PreToolUse, PostToolUse); default: every tool", examples: ["^mcp_fs_"] },
    command: { type: "string", minLength: 1, description: "the shell command; the event as JSON on its stdin", examples: ["./check-call.sh"] },
    timeout: { ...SECONDS, default: DEFAULT_HOOK_TIMEOUT_MS / 1000, description: "seconds before the command is stopped", examples: [10] },
  },
  required: ["command"],
  additionalProperties: false,
};

/** Claude Code's and mcphost's nested form: `{ matcher, hooks: [{ type: command, command, timeout }] }` (host-settings.ts). */
const HOOK_GROUP = {
  type: "object",
  properties: {
    matcher: { type: "string" },
    hooks: {
      type: "array",
      items: {
        type: "object",
        properties: { type: { const: "command" }, command: { type: "string", minLength: 1 }, timeout: SECONDS },
        required: ["command"],
        additionalProperties: false,
      },
    },
  },
  required: ["hooks"],
  additionalProperties: false,
};

const HOOK_SCHEMA = { type: "array", items: { anyOf: [HOOK_COMMAND, HOOK_GROUP] } };

const COUNT = (minimum: number) => ({ type: "integer", minimum });

/** The host's keys (`mcpwire run` / `chat`) as documented; config/host-settings.ts checks them, with positions. */
const HOST_SCHEMAS = {
  model: { type: "string", minLength: 1, description: "the model run and chat use: provider/model", examples: ["ollama/qwen3"] },
  providers: {
    type: "object",
    propertyNames: { enum: [...SCHEMA_PROVIDER_NAMES] },
    additionalProperties: PROVIDER_SCHEMA,
    description: `settings per provider (${SCHEMA_PROVIDER_NAMES.join(", ")})`,
    examples: [{ openai: { base_url: "http://127.0.0.1:1234/v1" } }],
  },
  system_prompt: { type: "string", description: "the system prompt of run and chat", examples: ["Answer briefly."] },
  max_steps: { ...COUNT(1), default: 20, description: "model requests per prompt, at most", examples: [40] },
  hooks: {
    type: "object",
    propertyNames: { enum: [...HOOK_EVENTS] },
    additionalProperties: HOOK_SCHEMA,
    description: `commands run at ${HOOK_EVENTS.join(", ")}; a PreToolUse hook exiting 2 blocks the call; ` +
      "Claude Code's nested form { matcher, hooks: [{ type: command, command, timeout }] } too",
    examples: [{ PreToolUse: [{ matcher: "^mcp_fs_", command: "./check-call.sh" }] }],
  },
  tool_search: {
    anyOf: [
      { type: "boolean" },
      { enum: [...TOOL_SEARCH_MODES] },
      {
        type: "object",
        properties: {
          mode: { enum: [...TOOL_SEARCH_MODES], default: "auto", description: "auto: search past the budget; always; off" },
          max_tools: { ...COUNT(0), default: DEFAULT_TOOL_SEARCH_MAX_TOOLS, description: "tools offered directly, at most (auto)" },
          max_schema_bytes: { ...COUNT(0), default: DEFAULT_TOOL_SEARCH_MAX_BYTES, description: "bytes of tool definitions offered directly, at most (auto)" },
          max_results: { ...COUNT(1), default: DEFAULT_TOOL_SEARCH_RESULTS, description: "tools one search returns, at most" },
        },
        additionalProperties: false,
      },
    ],
    default: "auto",
    description: "a search tool instead of every tool definition: true (always), false (off), a mode, or limits",
    examples: [{ mode: "auto", max_tools: 60 }],
  },
  tool_definitions: {
    anyOf: [
      { const: false },
      {
        type: "object",
        properties: {
          max_description_bytes: { ...COUNT(256), default: DEFAULT_MAX_DESCRIPTION_BYTES, description: "a tool's description offered to the model, at most" },
          max_schema_bytes: { ...COUNT(256), default: DEFAULT_MAX_TOOL_SCHEMA_BYTES, description: "a tool's input schema offered to the model, at most" },
        },
        additionalProperties: false,
      },
    ],
    description: "what a model is offered of each tool, at most; false: no cap",
    examples: [{ max_description_bytes: 4096 }],
  },
  telemetry: {
    anyOf: [
      { type: "boolean" },
      {
        type: "object",
        properties: {
          enabled: { type: "boolean", default: true, description: "spans per request and trace context sent to servers" },
          capture_arguments: { type: "boolean", default: false, description: "tool arguments on spans, through the redactor" },
          capture_results: { type: "boolean", default: false, description: "tool results on spans, through the redactor" },
        },
        additionalProperties: false,
      },
    ],
    default: false,
    description: "OpenTelemetry: a span per MCP request and model request, trace context sent to servers; needs @opentelemetry/api installed",
    examples: [true, { capture_arguments: true }],
  },
  results: {
    anyOf: [
      { type: "boolean" },
      {
        type: "object",
        properties: {
          enabled: { type: "boolean", default: true, description: "long results and binary content go to files" },
          directory: { type: "string", minLength: 1, description: "where result files go (relative: to the config file)" },
          max_files: { ...COUNT(1), default: DEFAULT_MAX_RESULT_FILES, description: "result files kept, at most" },
          max_age_days: { type: "number", exclusiveMinimum: 0, default: DEFAULT_MAX_RESULT_AGE_MS / 86_400_000, description: "days a result file is kept" },
        },
        additionalProperties: false,
      },
    ],
    default: true,
    description: "run / chat: long tool results and binary content saved to files the model is told about",
    examples: [{ directory: "results", max_files: 50 }],
  },
  extensions: {
    type: "object",
    additionalProperties: { type: "boolean" },
    description: "extensions on (default) or off for every server: tasks, skills, apps or an identifier → true / false",
    examples: [{ apps: false }],
  },
  pinning: {
    enum: [...PINNING_MODES],
    description: "tool definitions pinned on first use (mcpwire.lock.json): hold (default for run, chat and McpManager; inspect: warn) " +
      "keeps a new or changed tool from models and calls until `mcpwire pin accept`; warn offers it with a warning; off records nothing",
    examples: ["warn"],
  },
  imports: {
    anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }],
    description: `other apps whose servers are added: ${IMPORT_APPS.join(", ")}, or all`,
    examples: [["claude-desktop", "cursor"]],
  },
} as const;

export const CONFIG_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  title: "mcpwire config",
  type: "object",
  properties: {
    $schema: { type: "string", description: "the schema editors complete the file with" },
    mcp_servers: { ...SERVERS, description: "the servers by name (YAML spelling)" },
    mcpServers: { ...SERVERS, description: "the servers by name (JSON / .mcp.json spelling)" },
    // Problems with the host's keys, the top-level extensions and imports are reported by
    // host-settings.ts, extensions-key.ts and imports.ts (positioned); parse.ts leaves ajv's aside.
    ...HOST_SCHEMAS,
  },
  additionalProperties: false,
} as const;
