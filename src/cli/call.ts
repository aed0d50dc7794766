// `mcpwire call <name> [json-args]`: one tool call through the registry, as a host makes it,
// with progress on stderr and an exit code a script can branch on.

import type { CallToolResult, JsonObject } from "../client/types.ts";
import { terminalText } from "../common/terminal-text.ts";
import { blockText, formatToolResultText, isCallToolResult } from "../registry/result-format.ts";
import { ToolCallError } from "../registry/tool-registry.ts";
import type { RegisteredTool } from "../registry/types.ts";
import { runtime } from "../runtime/mod.ts";
import { parseArgs, UsageError } from "./args.ts";
import type { McpManager } from "../host/manager.ts";
import { parseElicitMode, parseLogLevel, stderrLine, withManager } from "./host-session.ts";
import { boundedText, DEEP_MARKER, DOCUMENT_BOUNDS, deeperThan, lineOf, redacted, RESULT_BOUNDS, textOf, write, writeControl, writeJson } from "./output.ts";
import { ProgressDisplay } from "./progress.ts";
import { messageOf } from "../common/error-text.ts";

export const CALL_USAGE = `usage: mcpwire call <registered-name> [json-args] [--config FILE] [--json] [--timeout S]
                    [--log-level LEVEL] [--elicit prompt|decline|accept-defaults] [--detach]

Starts the configured servers and calls one tool by its registered name (see
\`mcpwire tools\`) with a JSON object of arguments (default {}). Prints the result's text,
or the whole result with --json (the text has its control characters shown as escapes such
as \\x1b; --json carries them exactly). Progress goes to stderr (a bar on a terminal), and so
do the servers' log messages, as "[server] level: message".

--log-level LEVEL  asks every server that declares logging for LEVEL and above (debug,
                   info, notice, warning, error, critical, alert, emergency); overrides
                   the config's log_level
--elicit MODE      how a server's request for input is answered: prompt (ask field by
                   field on stderr, reading stdin; the default on a terminal), decline
                   (the default otherwise), accept-defaults (accept with the schema's defaults)

--detach           start the call as a task, print its task id and exit (the task runs on;
                   see \`mcpwire task\`); a tool the server answers at once prints its result

A tool the server runs as a task (2025-11-25 execution.taskSupport, the server's tasks config
key) shows its status on stderr like progress; Ctrl-C cancels the task (tasks/cancel).
A server asking to sample a model is declined (code -1): mcpwire has no model yet.

exit codes: 0 success, 1 the tool reported an error (isError), 2 usage or config error,
            3 the server could not be reached or failed during the call, 4 timeout,
            130 interrupted (Ctrl-C; a task is cancelled first)`;

export const EXIT = { ok: 0, toolError: 1, usage: 2, server: 3, timeout: 4, interrupted: 130 } as const;

function parseToolArgs(text: string | undefined): JsonObject {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`the arguments are not valid JSON (${(error as Error).message}); pass an object like '{"message":"hi"}'`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new UsageError(`the arguments must be a JSON object like '{"message":"hi"}', not ${Array.isArray(value) ? "an array" : JSON.stringify(value)}`);
  }
  return value as JsonObject;
}

export async function call(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, {
    config: { kind: "string" },
    json: { kind: "flag" },
    timeout: { kind: "string" },
    "log-level": { kind: "string" },
    elicit: { kind: "string" },
    detach: { kind: "flag" },
    help: { kind: "flag" },
    debug: { kind: "flag" },
  });
  if (args.flags.has("help")) {
    await write("stdout", CALL_USAGE + "\n");
    return 0;
  }
  const [name, argsText, ...extra] = args.positional;
  if (name === undefined) throw new UsageError("call needs a tool name: mcpwire call <registered-name> [json-args]");
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}" (put all tool arguments in one JSON object)`);
  const toolArgs = parseToolArgs(argsText);
  const timeoutText = args.values.get("timeout");
  let timeoutMs: number | undefined;
  if (timeoutText !== undefined) {
    const seconds = Number(timeoutText);
    if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError(`--timeout must be a positive number of seconds (got "${timeoutText}")`);
    timeoutMs = seconds * 1000;
  }

  const logLevel = parseLogLevel(args.values.get("log-level"));
  const elicit = parseElicitMode(args.values.get("elicit"));

  // Ctrl-C cancels a call that runs as a task (tasks/cancel) before the servers are closed.
  const interrupt = new AbortController();
  let running: Promise<unknown> | undefined;
  const onInterrupt = async () => {
    interrupt.abort(new Error("interrupted (Ctrl-C)"));
    if (running !== undefined) await settledWithin(running, INTERRUPT_GRACE_MS);
  };
  return await withManager({ configPath: args.values.get("config"), logLevel, elicit, onInterrupt }, async (manager) => {
    const registry = manager.registry;
    if (!registry.has(name)) {
      const down = manager.status().filter((status) => status.state !== "ready" && status.state !== "disabled");
      if (down.length > 0) {
        for (const status of down) stderrLine(`mcpwire call: server "${lineOf(status.name)}" is ${status.state}: ${lineOf(status.lastError ?? "no detail")}`);
        stderrLine(`mcpwire call: no tool "${name}" is registered, and the servers above are not ready; it may be theirs`);
        return EXIT.server;
      }
      const similar = registry.tools().map((tool) => tool.name).filter((candidate) => candidate.includes(name) || name.includes(candidate));
      stderrLine(
        `mcpwire call: no tool "${lineOf(name)}" is registered` +
          (similar.length > 0 ? `; did you mean ${similar.slice(0, 5).map(lineOf).join(", ")}?` : "; `mcpwire tools` lists them"),
      );
      return EXIT.usage;
    }
    const progress = new ProgressDisplay((text) => void writeControl("stderr", text), runtime.isTerminal("stderr"));
    const tool = registry.tools().find((each) => each.name === name);
    const who = describeCall(name, tool);
    let result: unknown;
    try {
      if (args.flags.has("detach")) {
        const detached = await detach(manager, tool, toolArgs, timeoutMs);
        if (detached === undefined) return EXIT.server;
        if (typeof detached === "string") return EXIT.ok;
        result = detached.result;
      } else {
        running = registry.call(name, toolArgs, {
          timeoutMs,
          signal: interrupt.signal,
          onProgress: (update) => progress.update(update),
          onTaskStatus: (update) => progress.task(update),
        });
        result = await running;
      }
    } catch (error) {
      progress.finish();
      // A registry error names the tool and its server; anything else (a failure no layer
      // below expected) gets the names here.
      const message = messageOf(error);
      stderrLine(`mcpwire call: ${error instanceof ToolCallError ? "" : `${who}: `}${lineOf(message)}`);
      if (args.flags.has("debug") && error instanceof Error && error.stack) stderrLine(textOf(error.stack));
      if (interrupt.signal.aborted) return EXIT.interrupted;
      if (error instanceof ToolCallError) {
        if (error.kind === "timeout") return EXIT.timeout;
        if (error.kind === "invalid-arguments") return EXIT.usage;
      }
      return EXIT.server;
    }
    progress.finish();
    // A server chooses how deep its result is; past the bound the output marks what it left out.
    if (deeperThan(result, DOCUMENT_BOUNDS.maxDepth)) {
      stderrLine(
        `mcpwire call: ${who}: the result is nested deeper than ${DOCUMENT_BOUNDS.maxDepth} levels; ` +
          `what lies deeper is shown as "${DEEP_MARKER}"${args.flags.has("json") ? "" : " (--json shows the result as JSON)"}`,
      );
    }
    if (args.flags.has("json")) {
      await writeJson(result);
    } else {
      const text = resultText(result);
      await write("stdout", text.endsWith("\n") ? text : text + "\n");
    }
    return isCallToolResult(result) && result.isError === true ? EXIT.toolError : EXIT.ok;
  });
}

/** How long Ctrl-C waits for a task's tasks/cancel before the servers are closed. */
const INTERRUPT_GRACE_MS = 5000;

/** Resolves when `promise` settles or `ms` pass, whichever is first; never rejects. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([promise.then(() => {}, () => {}), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/**
 * --detach: starts the tool as a task and prints its id (stdout) with how to follow it
 * (stderr). Returns the id; the direct answer when the server gave one at once (printed as a
 * result by the caller); undefined when it could not start.
 */
async function detach(
  manager: McpManager,
  tool: RegisteredTool | undefined,
  toolArgs: JsonObject,
  timeoutMs: number | undefined,
): Promise<string | { result: unknown } | undefined> {
  if (tool?.origin.kind !== "mcp") {
    stderrLine(`mcpwire call: --detach needs an MCP tool; "${lineOf(tool?.name ?? "")}" is not one`);
    return undefined;
  }
  const { server, tool: original } = tool.origin;
  const client = manager.client(server);
  if (client === undefined) {
    stderrLine(`mcpwire call: server "${lineOf(server)}" is not connected`);
    return undefined;
  }
  const task = await client.startToolTask(original, toolArgs, { task: true, ...(timeoutMs !== undefined ? { timeoutMs } : {}) });
  if (task.direct) {
    stderrLine(`mcpwire call: server "${lineOf(server)}" answered tool "${lineOf(original)}" at once, without a task; its result follows`);
    return { result: await task.result() };
  }
  await write("stdout", `${lineOf(task.taskId)}\n`);
  const stdio = manager.status().find((status) => status.name === server)?.transport === "stdio";
  stderrLine(
    `mcpwire call: task ${lineOf(task.taskId)} started on server "${lineOf(server)}"; ` +
      `follow it with: mcpwire task wait ${lineOf(server)} ${lineOf(task.taskId)}` +
      (stdio ? ` (server "${lineOf(server)}" runs over stdio as a child of this command, so the task ends when it exits)` : ""),
  );
  return task.taskId;
}

/** `tool "echo" of server "everything"`, or the registered name when nothing more is known. */
function describeCall(name: string, tool: RegisteredTool | undefined): string {
  if (tool?.origin.kind === "mcp") return `server "${lineOf(tool.origin.server)}", tool "${lineOf(tool.origin.tool)}"`;
  return `tool "${lineOf(name)}"`;
}

/**
 * A result as text: a CallToolResult's content blocks (and structuredContent unless a text block
 * repeats it), anything else as JSON. A result nested past the bound keeps its content blocks
 * and shows structuredContent as bounded JSON, the deep part marked.
 */
export function resultText(result: unknown): string {
  if (typeof result === "string") return textOf(result);
  if (!isCallToolResult(result)) return terminalText(boundedText(result, { ...RESULT_BOUNDS, indent: 2 }));
  if (!deeperThan(result, RESULT_BOUNDS.maxDepth)) return textOf(formatToolResultText(result));
  const deep: CallToolResult = result;
  const parts = deep.content.map((block) => (deeperThan(block, RESULT_BOUNDS.maxDepth) ? boundedText(block, RESULT_BOUNDS) : redacted(blockText(block))));
  if (deep.structuredContent !== undefined) parts.push(boundedText(deep.structuredContent, RESULT_BOUNDS));
  return terminalText(parts.join("\n"));
}
