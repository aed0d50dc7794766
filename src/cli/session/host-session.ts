// What the host verbs (servers, tools, call) share: load the config, start the manager,
// show what the servers say on stderr, and always shut everything down.

import type { ClientHandlers, SamplingHandler } from "../../client/handlers.ts";
import { SamplingRejectedError } from "../../client/sampling.ts";
import { type Implementation, LOGGING_LEVELS, type LoggingLevel } from "../../client/types.ts";
import { messageOf } from "../../common/error-text.ts";
import { within } from "../../common/timing.ts";
import { ALL_APPS, IMPORT_APPS, resolveImportApps, unknownAppText } from "../../host/config/import-sources.ts";
import { loadConfig } from "../../host/config/load.ts";
import { ConfigError, type McpwireConfig, type ServerConfig } from "../../host/config/types.ts";
import { SandboxError } from "../../host/sandbox/sandbox-availability.ts";
import { redactorFor } from "../../host/secrets.ts";
import { type ManagerEvents, McpManager } from "../../host/servers/manager.ts";
import { followToolLists } from "../../host/servers/tool-list-recorder.ts";
import { PinLockFile, pinLockFileOf } from "../../host/store/pin-lock-file.ts";
import { defaultToolListCache } from "../../host/store/tool-list-cache.ts";
import { openTraceFile, type TraceFile } from "../../host/trace/trace-file.ts";
import { type PinningMode, ToolPins } from "../../registry/tool-pins.ts";
import { STDOUT_CLOSED_EXIT } from "../../runtime/interrupts.ts";
import { runtime } from "../../runtime/mod.ts";
import type { TraceSink } from "../../transport/trace-event.ts";
import { type ParsedArgs, UsageError } from "../args.ts";
import { cliElicitationHandlers, ELICIT_MODES, type ElicitMode } from "../interactive/elicit-prompt.ts";
import { askAboutHeldTools, canAskAboutHeldTools } from "../interactive/pin-prompt.ts";
import { cliProjectTrust } from "../interactive/project-trust-prompt.ts";
import { dataLine, lineOf, useRedactor, write } from "../output.ts";
import { interruptProgress } from "../progress.ts";
import { OTEL_PACKAGES, type OtlpExport, startOtlpExport } from "../trace/otel-export.ts";
import { formatTraceEvent, type TraceMode } from "../trace/trace-lines.ts";
import { VERSION } from "../version.ts";
import { AD_HOC_OPTIONS, adHocServers, withCommandLineServers } from "./ad-hoc-servers.ts";
import { startServers } from "./startup-status.ts";

export const CLI_CLIENT_INFO: Implementation = { name: "mcpwire", title: "mcpwire CLI", version: VERSION };

/** One line on stderr (after an open progress bar's line), redacted and with control characters visible. */
export function stderrLine(text: string): void {
  interruptProgress();
  void write("stderr", text + "\n");
}

/** `file:line:col: message`, as far as the error knows its place. */
export function describeConfigError(error: ConfigError): string {
  if (error.file === undefined) return error.message;
  if (error.message.includes(error.file)) return error.message;
  // Already positioned as the file was named to the user (`mcpwire.yaml:4:5: …`, `~/.cursor/mcp.json:3:7: …`).
  if (error.line !== undefined && error.message.includes(`:${error.line}:${error.column}: `)) return error.message;
  const place = [error.file, error.line, error.column].filter((part) => part !== undefined).join(":");
  return `${place}: ${error.message}`;
}

/** The problems that disabled servers, in file order. */
export function configErrors(config: McpwireConfig): ConfigError[] {
  return config.errors ?? config.servers.flatMap((server) => (server.error ? [server.error] : []));
}

export interface SessionOptions {
  configPath?: string;
  /** `--import`: apps whose servers are imported too (see importOption). */
  imports?: string[];
  /** `--trust-project`: use the project's configs (./mcpwire.yaml, ./.mcp.json, ./.cursor/…) for this run unasked. */
  trustProject?: boolean;
  /** Print server log notifications and stderr-worthy events. Default true. */
  showLogs?: boolean;
  /** `--log-level`: sent to every server that declares logging, over any `log_level` in the config. */
  logLevel?: LoggingLevel;
  /** How elicitation requests are answered. Default: prompt when stdin is a terminal, else decline. */
  elicit?: ElicitMode;
  /** Runs after the config is loaded and before any server starts (run / chat resolve their model here). */
  onConfig?: (config: McpwireConfig) => void | Promise<void>;
  /** Per server, what serves its sampling requests (run / chat: a provider for `sampling.model`); absent: declined. */
  sampling?: (server: ServerConfig, config: McpwireConfig) => SamplingHandler | undefined;
  /** Long results and binary content saved as files, per the config's `results:` (run / chat). */
  resultFiles?: boolean;
  /** Runs on the first Ctrl-C before the servers are closed (call: cancels its task); bound it yourself. */
  onInterrupt?: () => Promise<void>;
  /** `--trace[=full]` and `--trace-file FILE`: trace every server (transport/trace-event.ts). */
  trace?: TraceSettings;
  /** `--stdio`, `--http`, `--sse`: servers given on the command line, started after the config's (cli/session/ad-hoc-servers.ts). */
  commandLineServers?: ServerConfig[];
  /** `--otel`: spans exported with OTLP/HTTP (cli/trace/otel-export.ts); the config's `telemetry:` key does the same. */
  otel?: boolean;
  /** Tool pinning where the config does not set it (registry/tool-pins.ts). Default `hold`. */
  pinning?: PinningMode;
  /** run / chat: on a terminal, ask about each tool held back by its pin after the servers started (cli/interactive/pin-prompt.ts). */
  askHeldTools?: boolean;
  /** Start no server before `body`: the verb starts those it needs (call: cli/session/tool-owner.ts). Default: every enabled server. */
  lazy?: boolean;
  /** The verb uses the LLM host's keys (run, chat): their problems (config.hostProblems) are said; the other verbs leave them unsaid. */
  hostKeys?: boolean;
  /**
   * A list verb (servers, tools, resources, prompts, skills): a server that fails to start is not
   * tried again unless MCPWIRE_CONNECT_RETRIES says so; a listing says at once which servers
   * it could not reach (server-reach.ts) rather than wait out 7 s of back-off for each.
   */
  listing?: boolean;
}

/** Where a session's trace goes: readable lines on stderr (`stderr`), JSON Lines in a file (`file`), or both. */
export interface TraceSettings {
  stderr?: TraceMode;
  file?: string;
}

/** The option every verb that loads the config takes besides --config: `--import NAME[,NAME]`, repeatable. */
export const IMPORT_OPTION = { kind: "list", values: [...IMPORT_APPS, ALL_APPS] } as const;

/**
 * The options of every verb that starts the configured servers: where the config is, the
 * apps imported, the servers' log level, --help and --debug. Each verb adds its own.
 */
export const SESSION_OPTIONS = {
  ...AD_HOC_OPTIONS,
  config: { kind: "string", values: "file" },
  import: IMPORT_OPTION,
  "trust-project": { kind: "flag" },
  "log-level": { kind: "string", values: LOGGING_LEVELS },
  trace: { kind: "optional", values: ["full"] },
  "trace-file": { kind: "string", values: "file" },
  otel: { kind: "flag" },
  help: { kind: "flag" },
  debug: { kind: "flag" },
} as const;

/** What `--trace` and `--trace-file` do, for each verb's usage text. */
export const TRACE_USAGE = `--trace[=full]     print every message, HTTP exchange, process and lifecycle event to stderr
                   as it happens (→ sent, ← received, ↳ the request an answer answers);
                   --trace=full pretty-prints each message's JSON
--trace-file FILE  write the same events as JSON Lines to FILE (mode 0600), one per line as
                   it happens; credentials are redacted in both
--otel             OpenTelemetry: a span per MCP request (and model request, tool call),
                   trace context sent to the servers, exported with OTLP/HTTP to
                   OTEL_EXPORTER_OTLP_ENDPOINT (default http://localhost:4318); needs
                   npm install ${OTEL_PACKAGES.join(" ")}`;

/** `--trace[=full]` and `--trace-file FILE` as TraceSettings; undefined when neither was given. */
export function traceOption(args: ParsedArgs): TraceSettings | undefined {
  const mode = args.values.get("trace");
  const file = args.values.get("trace-file");
  if (mode === undefined && file === undefined) return undefined;
  if (mode !== undefined && mode !== "" && mode !== "full") throw new UsageError(`--trace takes no value or =full (got "--trace=${mode}")`);
  if (file === "") throw new UsageError("--trace-file needs a file name");
  return {
    ...(mode === undefined ? {} : { stderr: mode === "full" ? "full" : "short" }),
    ...(file === undefined ? {} : { file }),
  } satisfies TraceSettings;
}

/** Where the config comes from, as every verb's options say: --config, --import, --trust-project. */
export function configSource(args: ParsedArgs): Pick<SessionOptions, "configPath" | "imports" | "trustProject" | "trace" | "commandLineServers" | "otel"> {
  const trace = traceOption(args);
  const servers = adHocServers(args);
  return {
    ...(servers.length === 0 ? {} : { commandLineServers: servers }),
    configPath: args.values.get("config"),
    imports: importOption(args),
    trustProject: args.flags.has("trust-project"),
    ...(trace === undefined ? {} : { trace }),
    ...(args.flags.has("otel") ? { otel: true } : {}),
  };
}

/**
 * Loads the config as every verb does: a project's config (found in the working directory, or a
 * project file of an import) only once approved — on a terminal the user is asked; without one
 * it is refused with the command that approves it (host/config/project-trust.ts).
 */
export function loadCliConfig(source: Pick<SessionOptions, "configPath" | "imports" | "trustProject">): Promise<McpwireConfig> {
  return loadConfig({ path: source.configPath, imports: source.imports, trust: cliProjectTrust(source.trustProject === true) });
}

/**
 * The config with the command line's servers after its own; with such servers and no --config,
 * no config file found is an empty config, not an error.
 */
export async function loadSessionConfig(options: SessionOptions): Promise<McpwireConfig> {
  const servers = options.commandLineServers ?? [];
  if (servers.length === 0) return await loadCliConfig(options);
  let config: McpwireConfig;
  try {
    config = await loadCliConfig(options);
  } catch (error) {
    if (!(error instanceof ConfigError && error.code === "config-not-found" && options.configPath === undefined)) throw error;
    config = { servers: [], warnings: [], errors: [] };
  }
  return withCommandLineServers(config, servers);
}

/** `--import` values as app names (commas split them); an unknown one is a UsageError with a guess. */
export function importOption(args: ParsedArgs): string[] | undefined {
  const values = args.lists.get("import");
  if (values === undefined) return undefined;
  const names = values.flatMap((value) => value.split(",")).map((name) => name.trim()).filter((name) => name !== "");
  if (names.length === 0) throw new UsageError("--import needs an app name, such as --import cursor or --import claude-desktop,cursor");
  const { unknown } = resolveImportApps(names);
  if (unknown[0] !== undefined) throw new UsageError(`--import: ${unknownAppText(unknown[0].name, unknown[0].guess)}`);
  return names;
}

/** Checks a `--log-level` value. */
export function parseLogLevel(value: string | undefined): LoggingLevel | undefined {
  if (value === undefined) return undefined;
  if (!(LOGGING_LEVELS as readonly string[]).includes(value)) {
    throw new UsageError(`--log-level must be one of ${LOGGING_LEVELS.join(", ")} (got "${value}")`);
  }
  return value as LoggingLevel;
}

/** Checks an `--elicit` value. */
export function parseElicitMode(value: string | undefined): ElicitMode | undefined {
  if (value === undefined) return undefined;
  if (!(ELICIT_MODES as readonly string[]).includes(value)) {
    throw new UsageError(`--elicit must be one of ${ELICIT_MODES.join(", ")} (got "${value}")`);
  }
  return value as ElicitMode;
}

/** What the CLI says when a server asks it to sample: it has no model (yet). */
export const NO_MODEL_MESSAGE = "mcpwire call has no model to sample with; mcpwire run and mcpwire chat answer sampling with the server's sampling.model";

/**
 * Why `server`'s sampling request finds no model here, and the config that gives it one: its
 * `sampling.model`, which only `mcpwire run` and `chat` use — named when set, asked for when not.
 */
export function noModelMessage(server: ServerConfig, config: Pick<McpwireConfig, "file">): string {
  const who = `server "${server.name}"`;
  if (server.samplingModel !== undefined) {
    return `mcpwire call has no model to sample with; mcpwire run and mcpwire chat answer ${who}'s sampling with its sampling.model (${server.samplingModel})`;
  }
  const where = server.origin === undefined && config.file !== undefined ? ` in ${config.file}` : "";
  return `mcpwire call has no model to sample with, and ${who} has no sampling.model configured: ` +
    `add sampling: { model: provider/model } (e.g. ollama/qwen3) to ${who}${where}, then mcpwire run or mcpwire chat answer its sampling with that model`;
}

/**
 * A sampling handler that declines with -1 (spec 2025-11-25 client/sampling "Error Handling":
 * user rejection) and `message`, which the server gets and stderr shows.
 */
export function decliningSampling(message: string): SamplingHandler {
  return (_request, context) => {
    stderrLine(`mcpwire: ${lineOf(context.server)} asked to sample a model (sampling/createMessage); declined: ${lineOf(message)}`);
    return Promise.reject(new SamplingRejectedError(message));
  };
}

/**
 * The handlers every CLI session gives its servers. Sampling is declined with -1 (spec
 * 2025-11-25 client/sampling "Error Handling": user rejection) since there is no model
 * (withManager names each server's missing config instead of NO_MODEL_MESSAGE);
 * elicitation prompts on a terminal, otherwise declines unless told to accept the defaults.
 */
export function cliHandlers(elicit: ElicitMode | undefined): ClientHandlers {
  const lines = runtime.stdinLines();
  const mode = elicit ?? (lines.isTerminal ? "prompt" : "decline");
  const why = elicit === "decline"
    ? "--elicit decline"
    : "stdin is not a terminal (run on a terminal to answer; or pass --elicit accept-defaults for a form's defaults, or --elicit prompt to read answers from stdin)";
  return {
    sampling: decliningSampling(NO_MODEL_MESSAGE),
    elicitation: cliElicitationHandlers(
      mode,
      {
        lines,
        echo: !lines.isTerminal,
        write: (text) => {
          interruptProgress();
          void write("stderr", text);
        },
      },
      (text) => stderrLine(`mcpwire: ${text}`),
      why,
    ),
  };
}

/** The variable that sets the first delay (ms, doubling after) before a server that failed to start or died is started again. */
export const RECONNECT_DELAY_VARIABLE = "MCPWIRE_RECONNECT_DELAY_MS";

/** MCPWIRE_RECONNECT_DELAY_MS as the manager's `reconnectDelay.initialMs`; undefined when unset (the manager's 1 s). */
function reconnectDelayMs(): number | undefined {
  const text = runtime.env()[RECONNECT_DELAY_VARIABLE]?.trim();
  if (text === undefined || text === "") return undefined;
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new UsageError(`${RECONNECT_DELAY_VARIABLE} must be a whole number of milliseconds (got "${text}"); unset it for the default of 1000`);
  }
  return Number(text);
}

/** The variable that sets how many times a server that failed to start is tried again (the manager's connectRetries). */
export const CONNECT_RETRIES_VARIABLE = "MCPWIRE_CONNECT_RETRIES";

/** MCPWIRE_CONNECT_RETRIES; when unset, none for a list verb and the manager's 3 for the others (undefined). */
function connectRetries(listing: boolean): number | undefined {
  const text = runtime.env()[CONNECT_RETRIES_VARIABLE]?.trim();
  if (text === undefined || text === "") return listing ? 0 : undefined;
  if (!/^\d{1,3}$/.test(text)) {
    throw new UsageError(
      `${CONNECT_RETRIES_VARIABLE} must be a whole number of retries up to 999 (got "${text}"); unset it for the default (3, none for a list verb)`,
    );
  }
  return Number(text);
}

/**
 * Loads the config (ConfigError propagates: exit 2), starts every enabled server (unless
 * `lazy`) with the startup status line on a terminal, runs `body`, and closes the manager
 * whatever happens. Config warnings go to stderr. The tools each server lists go to the
 * tool-list cache.
 */
export async function withManager<T>(options: SessionOptions, body: (manager: McpManager, config: McpwireConfig) => Promise<T>): Promise<T> {
  const config = await loadSessionConfig(options);
  // run / chat: a results.directory that names an unset variable stops them (the others do not use it).
  const hostError = options.hostKeys === true ? config.hostProblems?.errors[0] : undefined;
  if (hostError !== undefined) throw hostError;
  // Before anything holds the process open (stdin for prompts): a trace file that cannot be made ends the verb at once.
  const trace = await openTrace(options.trace);
  // From here on every output knows the config's secrets (header values, env values, API keys);
  // the manager adds what it learns later (tokens) to the same Redactor.
  const redactor = redactorFor(config);
  useRedactor(redactor);
  for (const warning of config.warnings) stderrLine(`warning: ${describeConfigError(warning)}`);
  if (options.hostKeys === true) { for (const warning of config.hostProblems?.warnings ?? []) stderrLine(`warning: ${describeConfigError(warning)}`); }
  // Per-server problems disable only that server; the others still start.
  for (const error of configErrors(config)) {
    stderrLine(`error: ${describeConfigError(error)}${error.server ? ` (server "${error.server}" is disabled)` : ""}`);
  }
  if (options.logLevel !== undefined) {
    for (const server of config.servers) server.logLevel = options.logLevel;
  }
  await options.onConfig?.(config);
  const base = cliHandlers(options.elicit);
  const sampling = options.sampling;
  // A server's sampling request finds a model only where the verb gives one (run, chat); the
  // others decline it with the config that server lacks.
  const handlers = (server: ServerConfig): ClientHandlers => {
    const handler = sampling?.(server, config);
    return { ...base, sampling: handler ?? decliningSampling(noModelMessage(server, config)) };
  };
  const initialMs = reconnectDelayMs();
  const retries = connectRetries(options.listing === true);
  // --otel or the config's telemetry: key: spans exported with OTLP/HTTP (the packages are the user's).
  const otel = options.otel === true ? "--otel" : config.telemetry?.enabled === true ? "the config's telemetry: key" : undefined;
  const exported = otel === undefined ? undefined : await startOtlpExport(otel, runtime.env(), config);
  // Tool pins: the config's lock file, read once up front, so a damaged one stops the verb before anything starts.
  const lockFile = pinLockFileOf(config, runtime.env());
  const pins = new ToolPins(lockFile === undefined ? {} : { store: new PinLockFile(lockFile) });
  await pins.held();
  const manager = new McpManager(config, {
    pins,
    ...(options.pinning === undefined ? {} : { pinning: options.pinning }),
    clientInfo: CLI_CLIENT_INFO,
    handlers,
    redactor,
    resultFiles: options.resultFiles === true,
    ...(initialMs !== undefined ? { reconnectDelay: { initialMs } } : {}),
    ...(retries !== undefined ? { connectRetries: retries } : {}),
    ...(trace === undefined ? {} : { trace: trace.sink }),
    ...(exported === undefined ? {} : { telemetry: exported.telemetry }),
  });
  useRedactor(manager.redactor);
  if (options.showLogs !== false || options.logLevel !== undefined) {
    // A log's data is the server's: one line, bounded in depth and size, shown whatever it holds.
    manager.on("log", ({ server, level, logger, data }) => {
      stderrLine(`[${lineOf(server)}] ${lineOf(level)}: ${logger ? `${lineOf(logger)}: ` : ""}${dataLine(data)}`);
    });
  }
  manager.registry.on("warning", ({ message }) => stderrLine(`warning: ${lineOf(message)}`));
  // sandbox: prefer ran a server without the sandbox it asked for (issue 29): always said.
  manager.on("problem", ({ message, error }) => {
    if (error instanceof SandboxError) stderrLine(`warning: ${lineOf(message)}`);
  });
  const held: ManagerEvents["toolheld"][] = [];
  manager.on("toolheld", (event) => {
    if (!event.offered) held.push(event);
  });
  let interrupted = false;
  runtime.onInterrupt((signal) => {
    // Ctrl-C or SIGTERM: 130; stdout closed by its reader (`… | head`): 141, as SIGPIPE (runtime/interrupts.ts).
    const code = signal === "SIGPIPE" ? STDOUT_CLOSED_EXIT : 130;
    if (interrupted) runtime.exit(code); // a second Ctrl-C: at once
    interrupted = true;
    sessionInterrupted = true;
    const before = options.onInterrupt?.().catch(() => {}) ?? Promise.resolve();
    // The spans of the servers' closing too go out before the exit (bounded: otel-export.ts).
    void before.then(() => manager.close()).then(() => flushSpans(exported)).then(() => runtime.flush()).finally(() => runtime.exit(code));
  });
  // Every listing of a server's tools is remembered for the next run (host/store/tool-list-cache.ts).
  const cache = defaultToolListCache();
  const recorder = cache === undefined ? undefined : followToolLists(manager, config, cache);
  try {
    if (options.lazy !== true) {
      await startServers(manager, manager.status().filter((status) => status.state !== "disabled").map((status) => status.name));
    }
    if (options.askHeldTools === true && held.length > 0 && canAskAboutHeldTools()) await askAboutHeldTools(manager, pins, held);
    return await body(manager, config);
  } finally {
    // Ctrl-C: the handler above closes the servers and exits 130; what the verb made of the
    // closing (a watch's "server closed", exit 3) must not end the process first.
    if (interrupted) await new Promise<never>(() => {});
    // Before the close, which withdraws every tool: that is not a listing to remember.
    recorder?.stop();
    await manager.close();
    if (recorder !== undefined) await within(recorder.settled(), CACHE_WRITE_GRACE_MS);
    trace?.close();
    await flushSpans(exported);
  }
}

/** The spans still buffered sent (bounded), and a warning when some were lost. */
async function flushSpans(exported: OtlpExport | undefined): Promise<void> {
  const warning = await exported?.shutdown();
  if (warning !== undefined) stderrLine(`warning: ${lineOf(warning)}`);
}

/** How long a verb that is done waits for its tool lists to be written to the cache. */
const CACHE_WRITE_GRACE_MS = 2000;

let sessionInterrupted = false;

/** Whether Ctrl-C has ended this process's session (its servers are closing): a verb then says nothing of their closing. */
export function interruptedSession(): boolean {
  return sessionInterrupted;
}

/** The sink of a session's trace: lines on stderr, a JSON Lines file, or both; undefined without a trace. */
export async function openTrace(settings: TraceSettings | undefined): Promise<{ sink: TraceSink; close(): void } | undefined> {
  if (settings === undefined) return undefined;
  let file: TraceFile | undefined;
  try {
    file = settings.file === undefined ? undefined : await openTraceFile(settings.file);
  } catch (error) {
    throw new UsageError(`--trace-file ${settings.file}: cannot write it (${messageOf(error)}); give a file in a directory you can write`, "usage", {
      cause: error,
    });
  }
  const mode = settings.stderr;
  return {
    sink: (event) => {
      file?.sink(event);
      if (mode !== undefined) stderrLine(formatTraceEvent(event, mode));
    },
    close: () => {
      file?.close();
      if (file?.failure !== undefined) stderrLine(`mcpwire: warning: the trace file ${lineOf(file.path)} stopped: ${lineOf(file.failure)}`);
    },
  };
}
