// `mcpwire task get|wait|cancel <server> <task-id>` and `mcpwire task list <server>`: a tool
// call running as a task on a configured server, known by its id (`mcpwire call --detach`
// prints it) — spec 2025-11-25 basic/utilities/tasks; the 2026-07-28 tasks extension, which has
// no tasks/list.

import type { JoinedSession } from "../../client/client-options.ts";
import { CapabilityError, TaskError, TaskFailedError } from "../../client/errors.ts";
import { SUPPORTED_PROTOCOL_VERSIONS } from "../../client/protocol-version.ts";
import type { TaskInfo } from "../../client/tasks/tasks.ts";
import { tasksOf } from "../../client/tasks/tasks-extension.ts";
import { durationText } from "../../common/duration.ts";
import { messageOf } from "../../common/error-text.ts";
import { fitLine } from "../../common/preview.ts";
import type { McpwireConfig } from "../../host/config/types.ts";
import type { McpManager } from "../../host/servers/manager.ts";
import { runtime } from "../../runtime/mod.ts";
import { parseArgs, secondsOption, UsageError } from "../args.ts";
import { EXIT } from "../exit-codes.ts";
import { lineOf, textOf, write, writeControl, writeJson } from "../output.ts";
import { ProgressDisplay } from "../progress.ts";
import { AD_HOC_USAGE } from "../session/ad-hoc-servers.ts";
import { configSource, parseLogLevel, SESSION_OPTIONS, stderrLine, TRACE_USAGE, withManager } from "../session/host-session.ts";
import { impliedServer, onlyServer, serverAndWords } from "../session/server-choice.ts";
import { renderTable } from "../table.ts";
import { resultText } from "../tools/tool-result-text.ts";

export const TASK_USAGE = `usage: mcpwire task get|wait|cancel <server> <task-id> [--config FILE] [--import APP[,APP]] [--json] [--timeout S] [--session ID]
       mcpwire task list <server> [--config FILE] [--import APP[,APP]] [--json]

A tool call that runs as a task on a configured server, by its task id (\`mcpwire call
--detach\` prints one):
  get      the task's status once: status, message, created, last updated, ttl, poll interval
  wait     poll the task to its end and print its result like \`mcpwire call\` (status on
           stderr; Ctrl-C cancels the task)
  cancel   cancel the task (tasks/cancel)
  list     the server's tasks (2025-11-25 servers that declare tasks.list; the 2026-07-28
           tasks extension has no list)

With one server given on the command line (--stdio, --http, --sse), <server> may be left out.
A server reached over stdio is a child of this command: a task it ran for an earlier command
ended with that command. Over HTTP a task outlives the command that started it, for its ttl,
and a server may keep it per session: \`call --detach\` then leaves its session open and prints
this command with --session, which joins that session (no initialize is sent).

--json             the task (get, cancel, list) or the whole result (wait) as JSON
--timeout S        wait: stop waiting after S seconds and cancel the task
--session ID       join the Streamable HTTP session ID (MCP-Session-Id) the task lives in, as
                   \`call --detach\` prints it; left open afterwards, unless wait saw the task end
--session-version V  the protocol version that session settled, when not 2025-11-25

${AD_HOC_USAGE}

${TRACE_USAGE}

exit codes: 0 success, 1 the task failed or its tool reported an error, 2 usage or config
            error, 3 the server could not be reached or does not know the task, 4 timeout,
            130 interrupted`;

/** What `mcpwire task` does: its first argument. */
export const ACTIONS = ["get", "wait", "cancel", "list"] as const;
type Action = (typeof ACTIONS)[number];

/** The options `mcpwire task` takes. */
export const TASK_OPTIONS = {
  ...SESSION_OPTIONS,
  json: { kind: "flag" },
  timeout: { kind: "string" },
  session: { kind: "string" },
  "session-version": { kind: "string" },
} as const;

export async function task(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, TASK_OPTIONS);
  if (args.flags.has("help")) {
    await write("stdout", TASK_USAGE + "\n");
    return 0;
  }
  const [action, ...words] = args.positional;
  if (action === undefined || !(ACTIONS as readonly string[]).includes(action)) {
    throw new UsageError(`task needs one of ${ACTIONS.join(", ")}${action === undefined ? "" : ` (got "${action}")`}: mcpwire task get <server> <task-id>`);
  }
  const source = configSource(args);
  // With one server on the command line, <server> may be left out (server-choice.ts serverAndWords).
  if (words.length === 0 && !(impliedServer(source) && action === "list")) {
    throw new UsageError(
      `task ${action} needs a server name (as in the config${impliedServer(source) ? "; left out, the one given with --stdio, --http or --sse" : ""})`,
    );
  }
  /** The server and task id the words give, or a UsageError. */
  const check = (server: string, rest: readonly string[]): string => {
    const [taskId, ...extra] = rest;
    if (action === "list" ? taskId !== undefined : taskId === undefined) {
      throw new UsageError(
        action === "list"
          ? `unexpected argument "${taskId}": task list takes a server only`
          : `task ${action} needs a task id: mcpwire task ${action} ${server} <task-id>`,
      );
    }
    if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
    return taskId ?? "";
  };
  // Checked before the config is read when the words name the server: their count says it.
  if (!impliedServer(source)) check(words[0]!, words.slice(1));
  let server = words[0] ?? "";
  let taskId = "";
  const timeoutMs = secondsOption("timeout", args.values.get("timeout"));
  const json = args.flags.has("json");

  const interrupt = new AbortController();
  let running: Promise<unknown> | undefined;
  const onInterrupt = async () => {
    interrupt.abort(new Error("interrupted (Ctrl-C)"));
    await running?.then(() => {}, () => {});
  };
  const session = joinedSession(args.values.get("session"), args.values.get("session-version"));
  // Only the named server starts; a name the config lacks is said by connected(), with the names it has.
  const onConfig = (config: McpwireConfig) => {
    const chosen = serverAndWords(config, words, (rest) => rest.length === (action === "list" ? 0 : 1));
    server = chosen.server ?? server;
    taskId = check(server, chosen.rest);
    const named = config.servers.find((each) => each.name === server);
    if (named === undefined) return;
    onlyServer(config, server);
    if (session === undefined) return;
    if (named.transport === "stdio") {
      throw new UsageError(`--session joins a Streamable HTTP session; server "${server}" runs over stdio, where a task ends with the command that started it`);
    }
    named.session = session;
  };
  const logLevel = parseLogLevel(args.values.get("log-level"));
  return await withManager({ ...source, showLogs: false, logLevel, onInterrupt, onConfig }, async (manager) => {
    const client = connected(manager, server);
    if (client === undefined) return EXIT.server;
    // A joined session is the detached task's: left open for the next command, unless wait saw the task end.
    let ended = false;
    try {
      running = act(action as Action, client, taskId, { json, timeoutMs, signal: interrupt.signal });
      const code = (await running) as number;
      ended = action === "wait";
      return code;
    } catch (error) {
      if (interrupt.signal.aborted) return EXIT.interrupted;
      stderrLine(`mcpwire task ${action}: ${lineOf(messageOf(error))}`);
      if (args.flags.has("debug") && error instanceof Error && error.stack) stderrLine(textOf(error.stack));
      if (error instanceof TaskError) {
        if (error.code === "timeout") return EXIT.timeout;
        if (error.code === "unsupported") return EXIT.usage;
        if (error.code === "task-cancelled") return EXIT.toolError;
      }
      if (error instanceof TaskFailedError) {
        ended = action === "wait";
        return EXIT.toolError;
      }
      if (error instanceof CapabilityError) return EXIT.usage;
      return EXIT.server;
    } finally {
      if (session !== undefined && !ended) client.keepSession();
    }
  });
}

/** --session ID [--session-version V]: the session to join; undefined without --session. */
function joinedSession(id: string | undefined, version: string | undefined): JoinedSession | undefined {
  if (id === undefined) {
    if (version !== undefined) throw new UsageError("--session-version goes with --session ID");
    return undefined;
  }
  // spec 2025-11-25 basic/transports (Session Management 1): a session id is visible ASCII.
  if (!/^[\x21-\x7e]+$/.test(id)) throw new UsageError(`--session takes a session id of visible ASCII characters (got "${id}")`);
  if (version !== undefined && !(SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(version)) {
    throw new UsageError(`--session-version must be one of ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")} (got "${version}")`);
  }
  return version === undefined ? { id } : { id, protocolVersion: version };
}

type Connected = NonNullable<ReturnType<McpManager["client"]>>;

/** The server's client, or undefined (said on stderr) when it is not configured or not connected. */
function connected(manager: McpManager, server: string): Connected | undefined {
  const status = manager.status().find((each) => each.name === server);
  if (status === undefined) {
    const names = manager.status().map((each) => `"${lineOf(each.name)}"`).join(", ");
    stderrLine(`mcpwire task: no server "${lineOf(server)}" in the config${names === "" ? "" : ` (it has ${names})`}`);
    return undefined;
  }
  const client = manager.client(server);
  if (client === undefined || status.state !== "ready") {
    stderrLine(`mcpwire task: server "${lineOf(server)}" is ${status.state}: ${lineOf(status.lastError ?? "no detail")}`);
    return undefined;
  }
  return client;
}

async function act(
  action: Action,
  client: Connected,
  taskId: string,
  options: { json: boolean; timeoutMs: number | undefined; signal: AbortSignal },
): Promise<number> {
  switch (action) {
    case "get": {
      const info = await tasksOf(client).resumeTask(taskId).status();
      if (options.json) await writeJson(info);
      else await write("stdout", describe(info));
      return EXIT.ok;
    }
    case "cancel": {
      const handle = tasksOf(client).resumeTask(taskId);
      await handle.cancel();
      const info = await handle.status().catch(() => undefined);
      if (options.json) await writeJson(info ?? { taskId, status: "cancelled" });
      else await write("stdout", `task ${lineOf(taskId)} cancelled${info === undefined ? "" : `: now ${lineOf(info.status)}`}\n`);
      return EXIT.ok;
    }
    case "list": {
      const tasks = await tasksOf(client).listTasks();
      if (options.json) await writeJson(tasks);
      else if (tasks.length === 0) await write("stdout", `${lineOf(client.serverInfo?.name ?? "the server")} lists no tasks\n`);
      else {
        const rows = tasks.map((info) => [lineOf(info.taskId), info.status, lineOf(info.createdAt ?? "-"), fitLine(lineOf(info.statusMessage ?? ""), 80)]);
        await write("stdout", renderTable(["TASK", "STATUS", "CREATED", "MESSAGE"], rows));
      }
      return EXIT.ok;
    }
    case "wait": {
      const progress = new ProgressDisplay((text) => void writeControl("stderr", text), runtime.isTerminal("stderr"));
      try {
        const result = await tasksOf(client).resumeTask(taskId).result({
          signal: options.signal,
          ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
          onTaskStatus: (update) => progress.task(update),
        });
        progress.finish();
        if (options.json) await writeJson(result);
        else {
          const text = resultText(result);
          await write("stdout", text.endsWith("\n") ? text : text + "\n");
        }
        return result.isError === true ? EXIT.toolError : EXIT.ok;
      } finally {
        progress.finish();
      }
    }
  }
}

/** A task as lines: its id and status, then what else the server said about it. */
function describe(info: TaskInfo): string {
  const lines = [`task ${lineOf(info.taskId)}: ${info.status}${info.statusMessage ? ` — ${lineOf(info.statusMessage)}` : ""}`];
  if (info.createdAt !== undefined) lines.push(`  created       ${lineOf(info.createdAt)}`);
  if (info.lastUpdatedAt !== undefined) lines.push(`  last updated  ${lineOf(info.lastUpdatedAt)}`);
  if (info.ttlMs !== undefined) lines.push(`  ttl           ${info.ttlMs === null ? "unlimited" : durationText(info.ttlMs)}`);
  if (info.pollIntervalMs !== undefined) lines.push(`  poll every    ${durationText(info.pollIntervalMs)}`);
  return lines.join("\n") + "\n";
}
