// Hooks, as mcphost (and Claude Code) users know them: shell commands the host runs at
// PreToolUse, PostToolUse, UserPromptSubmit and Stop, with the event as JSON on stdin.
// Exit 0: go on. Exit 2: block, stderr is the reason. Any other exit: reported, not blocking.

import type { JsonObject } from "../client/types.ts";
import { durationText } from "../common/duration.ts";
import { messageOf } from "../common/error-text.ts";
import { McpwireError, type McpwireErrorOptions } from "../common/mcpwire-error.ts";
import { within } from "../common/timing.ts";
import { runtime } from "../runtime/mod.ts";
import type { ChildProcess } from "../runtime/types.ts";

export const HOOK_EVENTS = ["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop"] as const;
/** The event a hook runs at: `PreToolUse`, `PostToolUse`, `UserPromptSubmit` or `Stop`. */
export type HookEventName = typeof HOOK_EVENTS[number];

/** Hook commands run at most this long by default; then their process group is killed. */
export const DEFAULT_HOOK_TIMEOUT_MS = 60_000;

/** One configured command. */
export interface HookCommand {
  /** A regular expression on the registered tool name (tool events only); absent, "" or "*": every tool. */
  matcher?: string;
  /** A shell command line (`sh -c`). */
  command: string;
  /** Milliseconds before the command is killed. Config key `timeout` is in seconds. Default 60 s. */
  timeoutMs?: number;
}

/** `hooks:` of a config: the commands of each event, in the order they run. */
export type HooksConfig = Partial<Record<HookEventName, HookCommand[]>>;

/** What the host knows at the event; written to the command's stdin in mcphost's snake_case keys. */
export interface HookInput {
  /** The registered tool name (PreToolUse, PostToolUse). */
  toolName?: string;
  /** The tool's arguments (PreToolUse, PostToolUse). */
  toolInput?: JsonObject;
  /** What the tool returned, as the model sees it (PostToolUse). */
  toolResponse?: string;
  /** The user's prompt (UserPromptSubmit). */
  prompt?: string;
  /** The model's final answer (Stop). */
  response?: string;
}

/** A hook that failed without blocking: a non-zero exit other than 2, a timeout, a command that would not start. */
export interface HookProblem {
  event: HookEventName;
  command: string;
  message: string;
}

export interface HookOutcome {
  /** A command exited with 2. */
  blocked: boolean;
  /** Its stderr (trimmed), when it blocked. */
  reason?: string;
  /** The command that blocked. */
  command?: string;
}

/** Options of Hooks: the working directory, environment, session and model the commands are told, and where problems go. */
export interface HooksOptions {
  /** Working directory of the commands. Default: ours. */
  cwd?: string;
  /** Their environment. Default: a copy of ours (hooks are the user's own commands). */
  env?: Record<string, string>;
  /** Told of every problem (the CLI prints it); problems never block. */
  onProblem?: (problem: HookProblem) => void;
  /** Written to stdin as session_id. */
  sessionId?: string;
  /** Written to stdin as model. */
  model?: string;
}

/** HookConfigError's one code: a configured hook cannot be used. */
export type HookConfigErrorCode = "invalid-hook";

/** A hook config that cannot be used (a matcher that is not a regular expression, …); `code` "invalid-hook". */
export class HookConfigError extends McpwireError<HookConfigErrorCode> {
  override readonly name = "HookConfigError";
  constructor(message: string, options?: McpwireErrorOptions) {
    super(message, "invalid-hook", options);
  }
}

interface Prepared {
  command: string;
  matcher?: RegExp;
  timeoutMs: number;
}

/** The configured hooks, ready to run. */
export class Hooks {
  readonly #byEvent = new Map<HookEventName, Prepared[]>();
  readonly #options: HooksOptions;

  constructor(config: HooksConfig, options: HooksOptions = {}) {
    this.#options = options;
    for (const event of HOOK_EVENTS) {
      const commands = config[event] ?? [];
      this.#byEvent.set(event, commands.map((hook, index) => prepare(event, index, hook)));
    }
  }

  /** Whether any command is configured for `event`. */
  has(event: HookEventName): boolean {
    return (this.#byEvent.get(event)?.length ?? 0) > 0;
  }

  /**
   * Runs the commands of `event` that match, one after another; the first that exits with 2
   * blocks and the rest do not run. Never rejects: problems go to onProblem. A command runs
   * as the leader of its own process group, and whatever it leaves running in that group when
   * it exits (or times out) is killed: a hook is a check, not a way to start a daemon.
   */
  async run(event: HookEventName, input: HookInput): Promise<HookOutcome> {
    const commands = this.#byEvent.get(event) ?? [];
    for (const hook of commands) {
      if (hook.matcher !== undefined && input.toolName !== undefined && !hook.matcher.test(input.toolName)) continue;
      const outcome = await this.#runOne(event, hook, input);
      if (outcome.blocked) return outcome;
    }
    return { blocked: false };
  }

  async #runOne(event: HookEventName, hook: Prepared, input: HookInput): Promise<HookOutcome> {
    const report = (message: string) => this.#options.onProblem?.({ event, command: hook.command, message });
    const stdin = JSON.stringify(stdinOf(event, input, this.#options)) + "\n";
    const stderr: Uint8Array[] = [];
    let child: ChildProcess;
    const shell = runtime.os === "windows" ? { command: "cmd.exe", args: ["/d", "/s", "/c", hook.command] } : { command: "sh", args: ["-c", hook.command] };
    try {
      child = await runtime.spawn({
        ...shell,
        env: this.#options.env ?? runtime.env(),
        cwd: this.#options.cwd,
        onStdout: () => {},
        onStderr: (chunk) => {
          if (stderr.reduce((sum, part) => sum + part.length, 0) < 16_384) stderr.push(chunk);
        },
      });
    } catch (error) {
      report(`${event} hook "${hook.command}" could not be started: ${messageOf(error)}; check the command in hooks.${event}`);
      return { blocked: false };
    }
    // A command that does not read stdin closes the pipe; that is its business, not an error.
    child.write(stdin, (error) => {
      if (error === undefined) child.closeStdin();
    });
    try {
      // exited never rejects: within says only whether it came in time.
      if (!(await within(child.exited, hook.timeoutMs))) {
        child.signalGroup("SIGKILL");
        await child.exited;
        report(
          `${event} hook "${hook.command}" did not finish within ${durationText(hook.timeoutMs)} and was killed (with its process group); ` +
            `it did not block; raise its timeout or make it faster`,
        );
        return { blocked: false };
      }
      const status = await child.exited;
      const text = decode(stderr).trim();
      if (status.code === 0) return { blocked: false };
      if (status.code === 2) {
        return {
          blocked: true,
          reason: text === "" ? `blocked by the ${event} hook "${hook.command}" (it gave no reason on stderr)` : text,
          command: hook.command,
        };
      }
      const how = status.code === null ? `was ended by ${status.signal}` : `exited with code ${status.code}`;
      report(`${event} hook "${hook.command}" ${how}${text === "" ? "" : `: ${text}`}; it did not block (only exit code 2 blocks)`);
      return { blocked: false };
    } finally {
      if (child.groupAlive()) child.signalGroup("SIGKILL");
      await child.dispose();
    }
  }
}

function prepare(event: HookEventName, index: number, hook: HookCommand): Prepared {
  if (typeof hook.command !== "string" || hook.command.trim() === "") {
    throw new HookConfigError(`hooks.${event}[${index}]: "command" must be a non-empty shell command`);
  }
  let matcher: RegExp | undefined;
  if (hook.matcher !== undefined && hook.matcher !== "" && hook.matcher !== "*") {
    try {
      matcher = new RegExp(hook.matcher);
    } catch (error) {
      throw new HookConfigError(
        `hooks.${event}[${index}]: matcher ${JSON.stringify(hook.matcher)} is not a regular expression (${messageOf(error)}); ` +
          `use a tool-name pattern such as "mcp_everything_.*" or "echo|get-sum"`,
        { cause: error },
      );
    }
  }
  const timeoutMs = hook.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
  if (!(timeoutMs > 0) || !Number.isFinite(timeoutMs)) {
    throw new HookConfigError(`hooks.${event}[${index}]: timeout must be a number of seconds greater than 0`);
  }
  return { command: hook.command, matcher, timeoutMs };
}

function stdinOf(event: HookEventName, input: HookInput, options: HooksOptions): JsonObject {
  const value: JsonObject = { hook_event_name: event, timestamp: new Date().toISOString() };
  if (options.sessionId !== undefined) value.session_id = options.sessionId;
  if (options.model !== undefined) value.model = options.model;
  if (input.toolName !== undefined) value.tool_name = input.toolName;
  if (input.toolInput !== undefined) value.tool_input = input.toolInput;
  if (input.toolResponse !== undefined) value.tool_response = input.toolResponse;
  if (input.prompt !== undefined) value.prompt = input.prompt;
  if (input.response !== undefined) value.response = input.response;
  return value;
}

function decode(chunks: Uint8Array[]): string {
  const decoder = new TextDecoder();
  return chunks.map((chunk) => decoder.decode(chunk, { stream: true })).join("") + decoder.decode();
}

/** No hooks (`--no-hooks`, or none configured). */
export const NO_HOOKS = new Hooks({});
