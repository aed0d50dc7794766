// The configuration of a host, as loaded from YAML (`mcp_servers:`) or JSON (`mcpServers`),
// after interpolation and defaults. Finding, parsing and validating a file live beside it in config/.

import type { HooksConfig } from "../../agent/hooks.ts";
import type { ToolDefinitionLimits } from "../../agent/tool-definition-cap.ts";
import type { ToolSearchOptions } from "../../agent/tool-search.ts";
import type { ServerAuthSettings } from "../../auth/server-auth.ts";
import type { JoinedSession } from "../../client/client-options.ts";
import type { ProtocolChoice } from "../../client/protocol-version.ts";
import type { SamplingPolicy } from "../../client/sampling.ts";
import type { LoggingLevel } from "../../client/types.ts";
import { McpwireError } from "../../common/mcpwire-error.ts";
import type { PinningMode } from "../../registry/tool-pins.ts";
import type { TaskMode } from "../../registry/types.ts";
import type { ProjectConfigSummary } from "./project-summary.ts";

/**
 * How a server is reached: `stdio` (a child process), `http` (Streamable HTTP, 2025-11-25),
 * `sse` (the legacy HTTP+SSE transport, 2024-11-05), or `auto` — a `url` whose transport the
 * config does not name: Streamable HTTP first, legacy SSE when the server refuses it (spec
 * 2025-11-25 basic/transports, "Backwards Compatibility").
 */
export type TransportKind = "stdio" | "http" | "sse" | "auto";

/**
 * Why a config could not be used: `invalid-config` (its content: syntax, types, an unset
 * variable, a name clash), `config-not-found` (no config file where one was looked for),
 * `unreadable-config` (a config file that exists but cannot be read), `untrusted-project` (a
 * project's config the user has not approved, see config/project-trust.ts; `project` says what
 * it holds), `trust-store` (the file of approvals cannot be read or written).
 */
export type ConfigErrorCode = "invalid-config" | "config-not-found" | "unreadable-config" | "untrusted-project" | "trust-store";

/** A configuration problem, positioned in its file where we know the place. */
export class ConfigError extends McpwireError<ConfigErrorCode> {
  override readonly name = "ConfigError";
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
  /** The server the problem belongs to, when it belongs to one. */
  readonly server?: string;
  /** The key path within the server, e.g. "env.API_KEY". */
  readonly key?: string;
  /** The unset variable, when an unset `${VAR}` is the problem. */
  readonly variable?: string;
  /** For `untrusted-project`: what the file would run and read, read without running or reading anything. */
  readonly project?: ProjectConfigSummary;

  constructor(
    message: string,
    code: ConfigErrorCode,
    where: {
      file?: string;
      line?: number;
      column?: number;
      server?: string;
      key?: string;
      variable?: string;
      project?: ProjectConfigSummary;
      cause?: unknown;
    } = {},
  ) {
    super(message, code, where);
    this.file = where.file;
    this.line = where.line;
    this.column = where.column;
    this.server = where.server;
    this.key = where.key;
    this.variable = where.variable;
    this.project = where.project;
  }
}

/** One server of a config file, checked and interpolated. */
export interface ServerConfig {
  /** The key under mcp_servers / mcpServers. */
  name: string;
  /** As configured: `auto` when a `url` has no `transport` / `type`. */
  transport: TransportKind;
  // stdio
  command?: string;
  args: string[];
  /** The server's own variables (interpolated); the safe baseline is added by host/env.ts. */
  env: Record<string, string>;
  /**
   * The values of the credential-named `${VAR}`s (`${GITHUB_TOKEN}`, `${DB_PASSWORD}`)
   * interpolated into this server's keys, wherever they went (an argument, the command, the
   * URL): kept out of every output (host/secrets.ts). Absent when there are none.
   */
  secrets?: string[];
  cwd?: string;
  // http / sse
  url?: string;
  headers: Record<string, string>;
  /** Config key `auth` (http / sse): OAuth settings; `auth: false` turns OAuth off. Absent: on, defaults. */
  auth?: ServerAuthSettings;
  tools: { include?: string[]; exclude?: string[] };
  /** False when the config says so, or when a ConfigError disabled the server (see `error`). */
  enabled: boolean;
  /** Tool-call timeout, ms. Config key `timeout` in seconds; default 300 s. */
  timeoutMs: number;
  /** Connect (spawn + initialize) timeout, ms. Config key `connect_timeout` in seconds; default 60 s. */
  connectTimeoutMs: number;
  /** Registered-name format, e.g. `{server}__{tool}`; default `mcp_{server}_{tool}`. */
  naming?: string;
  /** Config key `log_level`: sent as logging/setLevel after connect when the server declares logging. */
  logLevel?: LoggingLevel;
  /**
   * Config key `protocol`: which era to speak — `auto` (default: server/discover first, the
   * initialize handshake when the server is not modern), `modern` (2026-07-28), `legacy`.
   */
  protocol?: ProtocolChoice;
  /**
   * Join this Streamable HTTP session instead of starting one (ClientOptions.session): set by
   * `mcpwire task --session ID` to follow a task `call --detach` left running; never read from a file.
   */
  session?: JoinedSession;
  /**
   * Config key `tasks`: which tools run as tasks — `auto` (default: a tool whose
   * execution.taskSupport is "required"), `always` (also "optional" ones), `never` (none;
   * "required" tools are not offered, and the 2026-07-28 tasks extension is turned off).
   */
  tasks?: TaskMode;
  /**
   * Config key `pinning`: this server's tool pinning (registry/tool-pins.ts), over the top-level
   * `pinning`: `hold`, `warn` or `off`. Absent: the top level's, else the program's default.
   */
  pinning?: PinningMode;
  /**
   * Config key `roots`: absolute paths (relative ones resolved against the config file's
   * directory) or file:// URIs; the client offers them to the server (declares `roots`).
   */
  roots?: string[];
  /** Config key `sampling`: the policy around the host's sampling handler (timeout in ms). */
  sampling?: SamplingPolicy;
  /** Config key `sampling.model`: the `provider/model` that serves this server's sampling requests. */
  samplingModel?: string;
  /**
   * Config key `results`: `false` keeps this server's long results and binary content out of
   * result files (the cut string and descriptions only); `{ directory }` gives it its own
   * directory. Absent: the top-level `results:` setting.
   */
  results?: { enabled: boolean; directory?: string };
  /**
   * Config key `extensions` (merged over the top level's): extension identifier → on/off. The
   * extensions mcpwire implements are on unless turned off (host/config/extensions-key.ts).
   */
  extensions?: Record<string, boolean>;
  /**
   * Config key `sandbox` (stdio): run the server in a sandbox (host/sandbox/sandbox.ts; bubblewrap on
   * Linux) with what it may read, write and reach. Absent (or `sandbox: false`): no sandbox.
   */
  sandbox?: SandboxSettings;
  /** Why this server is disabled, when a config problem disabled it. */
  error?: ConfigError;
  /**
   * The entry as written, in mcpwire's keys (an imported server's after its app's keys were
   * renamed), before `${VAR}` was expanded: what `mcpwire export` writes back. Absent for a
   * server given on the command line. Not enumerable (config/server.ts keepWritten).
   */
  written?: Readonly<Record<string, unknown>>;
  /** Where an imported server came from (another app's config file); absent for the config's own servers. */
  origin?: ServerOrigin;
}

/**
 * A server's `sandbox:` key: `default` (its own program, its roots and the directories its
 * arguments name readable; a private /tmp writable; no network), `prefer` (the same, but run
 * unsandboxed with a warning where no sandbox can be had), or a mapping of paths and network.
 */
export interface SandboxSettings {
  /** The profile as written: `default`, `prefer`, or `custom` (a mapping). */
  profile: "default" | "prefer" | "custom";
  /**
   * Paths the server may read (absolute), besides the system's files and its own program.
   * Absent: the default's, its roots and the directories its arguments name.
   */
  read?: string[];
  /** Paths it may read and write (absolute), besides its private /tmp. */
  write: string[];
  /** Whether it may use the network (its own network namespace, empty, when false). */
  network: boolean;
  /** Variables of mcpwire's own environment passed in by name, beside the safe baseline and its `env`. */
  env: string[];
  /** Run it unsandboxed, with a warning, where no sandbox can be had (`sandbox: prefer`, or `prefer: true`). */
  prefer: boolean;
}

/** The app and file an imported server was read from (config/imports.ts). */
export interface ServerOrigin {
  /** The app as `imports:` and `--import` name it: `claude-desktop`, `cursor`, `codex`, … */
  app: string;
  /** The file, absolute. */
  file: string;
}

/** A parsed config file: the servers, and the host settings beside them. */
export interface McpwireConfig {
  servers: ServerConfig[];
  /** The file it came from, when it came from one. */
  file?: string;
  /** Unknown keys and other non-fatal problems, positioned. */
  warnings: ConfigError[];
  /** Every problem that disabled a server, in file order (each server's `error` is its first). */
  errors?: ConfigError[];
  /** Top-level `model:`: the `provider/model` of `mcpwire run` / `mcpwire chat` (e.g. `openai/gpt-4o`). */
  model?: string;
  /** Top-level `providers:`: per provider name (`openai`, `ollama`, …) where its API is and with which key. */
  providers?: Record<string, ProviderSettings>;
  /** Top-level `system_prompt:`. */
  systemPrompt?: string;
  /** Top-level `max_steps:`: model requests per prompt, at most. */
  maxSteps?: number;
  /** Top-level `hooks:`: commands run at PreToolUse, PostToolUse, UserPromptSubmit and Stop. */
  hooks?: HooksConfig;
  /** Top-level `tool_search:` (run / chat): past a budget of tools, the model searches for the ones it needs. */
  toolSearch?: ToolSearchOptions;
  /** Top-level `tool_definitions:` (run / chat): what a model is offered of each tool, at most; false: no cap. */
  toolDefinitions?: ToolDefinitionLimits | false;
  /** Top-level `results:` (run / chat): where long results and binary content are saved as files, and for how long. */
  results?: ResultsSettings;
  /** Top-level `telemetry:`: OpenTelemetry spans and trace context (docs/telemetry.md). */
  telemetry?: TelemetrySettings;
  /** Top-level `extensions:`: identifier → on/off for every server (a server's own entry wins). */
  extensions?: Record<string, boolean>;
  /** Top-level `imports:`: the apps whose servers are imported too (`cursor`, `claude-desktop`, … or `all`). */
  imports?: string[];
  /**
   * Top-level `pinning:`: tool definitions pinned on first use — `hold` keeps a new or changed
   * tool from models and calls until accepted, `warn` offers it with a warning, `off` records
   * nothing. A server's own `pinning` wins. Absent: the program's default (run, chat and
   * McpManager `hold`, inspect `warn`).
   */
  pinning?: PinningMode;
  /**
   * Problems with keys only the LLM host (`mcpwire run` / `chat`) uses, which the other verbs
   * leave unsaid: `warnings` (an unset `${VAR}` in a provider's base_url / api_key: it is left
   * unset) and `errors` (an unset `${VAR}` in `results.directory`: the results setting is left
   * out, and a host that saves result files must not start).
   */
  hostProblems?: { warnings: ConfigError[]; errors: ConfigError[] };
}

/** The top-level `telemetry:` key: true, false, or { enabled, capture_arguments, capture_results }. */
export interface TelemetrySettings {
  enabled: boolean;
  /** Config key `capture_arguments`: tool arguments on spans, redacted. Default false. */
  captureArguments?: boolean;
  /** Config key `capture_results`: tool results on spans, redacted. Default false. */
  captureResults?: boolean;
}

/** The top-level `results:` key. */
export interface ResultsSettings {
  /** `results: false` (or `enabled: false`): no files; a long result is cut to its head and tail. */
  enabled: boolean;
  /** Config key `directory`; default `$XDG_CACHE_HOME/mcpwire/results` (`~/.cache/mcpwire/results`). */
  directory?: string;
  /** Config key `max_files`: our files kept at most (default 200). */
  maxFiles?: number;
  /** Config key `max_age_days`, in ms: older files are deleted (default 7 days). */
  maxAgeMs?: number;
}

/** One entry of `providers:` (`${VAR}` works in base_url and api_key). */
export interface ProviderSettings {
  /** Config key `base_url`: an OpenAI-compatible server, a proxy, a remote Ollama. */
  baseUrl?: string;
  /** Config key `api_key`, usually `${OPENAI_API_KEY}` and the like. */
  apiKey?: string;
  /** Config key `timeout` in seconds: how long to wait for the API's bytes. */
  timeoutMs?: number;
}

export const DEFAULT_TOOL_TIMEOUT_MS = 300_000;
export const DEFAULT_CONNECT_TIMEOUT_MS = 60_000;
