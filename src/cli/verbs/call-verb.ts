// `mcpwire call <name> [key=value… | json-object | --args-file F]`: one tool call through the registry, as a host makes it,
// with progress on stderr and an exit code a script can branch on.

import type { JoinedSession } from "../../client/client-options.ts";
import { tasksOf } from "../../client/tasks/tasks-extension.ts";
import type { JsonObject } from "../../client/types.ts";
import { messageOf } from "../../common/error-text.ts";
import { within } from "../../common/timing.ts";
import type { McpwireConfig, ServerConfig } from "../../host/config/types.ts";
import type { McpManager } from "../../host/servers/manager.ts";
import { defaultToolListCache } from "../../host/store/tool-list-cache.ts";
import { toolName } from "../../registry/naming.ts";
import { isCallToolResult } from "../../registry/result-format.ts";
import { didYouMean, suggestNames } from "../../registry/suggest.ts";
import { ToolCallError } from "../../registry/tool-call-error.ts";
import type { ToolRegistry } from "../../registry/tool-registry.ts";
import type { RegisteredTool } from "../../registry/types.ts";
import { runtime } from "../../runtime/mod.ts";
import { parseArgs, secondsOption, UsageError } from "../args.ts";
import { EXIT } from "../exit-codes.ts";
import { ELICIT_MODES } from "../interactive/elicit-prompt.ts";
import { DEEP_MARKER, deeperThan, DOCUMENT_BOUNDS, lineOf, textOf, write, writeControl, writeJson } from "../output.ts";
import { ProgressDisplay } from "../progress.ts";
import { AD_HOC_USAGE, isAdHoc } from "../session/ad-hoc-servers.ts";
import { followCommand } from "../session/follow-command.ts";
import { configSource, parseElicitMode, parseLogLevel, SESSION_OPTIONS, stderrLine, TRACE_USAGE, withManager } from "../session/host-session.ts";
import { startServers } from "../session/startup-status.ts";
import { findToolOwner, namingFit, namingPattern, type OwnerSearch } from "../session/tool-owner.ts";
import { CallArgumentsError, type GivenArguments, parseArgumentWords, readArgumentsFile, typeArguments } from "../tools/call-arguments.ts";
import { resultText, shownPart } from "../tools/tool-result-text.ts";

export const CALL_USAGE = `usage: mcpwire call <registered-name> [key=value… | 'json-object' | --args-file FILE|-]
                    [--config FILE] [--import APP[,APP]] [--json] [--timeout S] [--log-level LEVEL]
                    [--elicit prompt|decline|accept-defaults] [--detach]
                    [--stdio "CMD ARGS…" | --http URL | --sse URL [--name NAME]]…

Calls one tool by its registered name (see \`mcpwire tools\`, or \`mcpwire tools --signatures\`
for its parameters), starting only the server that owns it: the one a name mcp_<server>_<tool>
names; else the one the tool-list cache says lists it (\$XDG_CACHE_HOME/mcpwire/tools.json,
written by every verb that lists a server's tools; MCPWIRE_TOOL_CACHE=off turns it off); else
the servers one at a time in config order until one has it. On a terminal a status line says
which servers are starting and for how long. With one server given
on the command line and none configured, the tool's own name works too
(\`mcpwire call --stdio "npx -y @modelcontextprotocol/server-everything" echo message=hi\`).
The arguments are
  key=value words  typed by the tool's input schema: a=2 b=40 flag=true name=hi
                   tags=[x,y] or tags='["x","y"]', nested='{"k":1}' or nested={k:1};
                   a string parameter keeps 2 as "2"; key:=JSON takes a JSON value as written
  one JSON object  '{"a":2,"b":40}'
  --args-file F    a file holding one JSON object; - reads it from stdin
(none: {}). A value that does not fit its type, a repeated key or a missing required argument
is an error before anything is sent; a misspelt tool name gets the nearest registered names,
and a misspelt parameter the nearest one its schema lists.
Prints the result's text content for people (its structuredContent, pretty-printed, only when
it has no text), or the whole result with --json for machines (the text has its control
characters shown as escapes such as \\x1b; --json carries them exactly). Progress goes to
stderr (a bar on a terminal), and so do the servers' log messages, as "[server] level: message".

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
A server asking to sample a model is declined (code -1), naming what is missing: the server's
sampling.model, which only mcpwire run and mcpwire chat answer with.

${AD_HOC_USAGE}

${TRACE_USAGE}

exit codes: 0 success, 1 the tool reported an error (isError), 2 usage or config error,
            3 the server could not be reached or failed during the call, 4 timeout,
            130 interrupted (Ctrl-C; a task is cancelled first)`;

/**
 * With one server, given on the command line and no other (`mcpwire call --stdio "…" echo`), a
 * tool's own name names its registered one; otherwise, and when `name` is registered, `name`.
 */
function ownToolName(name: string, config: McpwireConfig, registry: ToolRegistry): string {
  const [only, ...others] = config.servers;
  if (only === undefined || others.length > 0 || !isAdHoc(only)) return name;
  const tools = registry.tools();
  if (tools.some((tool) => tool.name === name)) return name;
  const own = tools.find((tool) => tool.origin.kind === "mcp" && tool.origin.server === only.name && tool.origin.tool === name);
  // A tool held back by its pin goes by its own name too, so that the refusal says it is held.
  return own?.name ?? registry.heldTools().find((held) => held.server === only.name && held.tool === name)?.name ?? name;
}

/** The options `mcpwire call` takes. */
export const CALL_OPTIONS = {
  ...SESSION_OPTIONS,
  json: { kind: "flag" },
  timeout: { kind: "string" },
  elicit: { kind: "string", values: ELICIT_MODES },
  "args-file": { kind: "string", values: "file" },
  detach: { kind: "flag" },
} as const;

export async function call(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, CALL_OPTIONS);
  if (args.flags.has("help")) {
    await write("stdout", CALL_USAGE + "\n");
    return 0;
  }
  const [givenName, ...words] = args.positional;
  if (givenName === undefined) throw new UsageError("call needs a tool name: mcpwire call <registered-name> [key=value…]");
  // The arguments' form is checked (and an args file read) before any server starts.
  const given = await givenArguments(words, args.values.get("args-file"));
  const timeoutMs = secondsOption("timeout", args.values.get("timeout"));

  const logLevel = parseLogLevel(args.values.get("log-level"));
  const elicit = parseElicitMode(args.values.get("elicit"));

  // Ctrl-C cancels a call that runs as a task (tasks/cancel) before the servers are closed.
  const interrupt = new AbortController();
  let running: Promise<unknown> | undefined;
  const onInterrupt = async () => {
    interrupt.abort(new Error("interrupted (Ctrl-C)"));
    if (running !== undefined) await within(running, INTERRUPT_GRACE_MS);
  };
  return await withManager({ ...configSource(args), logLevel, elicit, onInterrupt, lazy: true }, async (manager, config) => {
    const registry = manager.registry;
    // Only the server that owns the tool is started (tool-owner.ts); the others are not spawned.
    const cache = defaultToolListCache();
    const search = await findToolOwner(manager, config.servers, givenName, cache, (server) => startServers(manager, [server]));
    const enabled = manager.status().filter((status) => status.state !== "disabled").map((status) => status.name);
    // One server given on the command line and none configured: it is the only one, and takes the tool's own name.
    const [only] = enabled;
    if (enabled.length === 1 && only !== undefined && !search.asked.includes(only)) {
      search.asked.push(only);
      await startServers(manager, [only]);
    }
    const name = ownToolName(givenName, config, registry);
    if (!registry.has(name)) {
      // Held back by its pin (a new or changed definition): said as such, with the commands that show and accept it.
      const held = registry.heldTools().find((each) => each.name === name);
      if (held === undefined) return unknownTool(manager, config, name, search, enabled);
      stderrLine(`mcpwire call: ${lineOf(held.message)}`);
      return EXIT.usage;
    }
    const tool = registry.tools().find((each) => each.name === name);
    const who = describeCall(name, tool);
    // Typed by the tool's schema and checked before anything is sent.
    let toolArgs: JsonObject;
    try {
      const typed = typeArguments(given, tool?.inputSchema, who);
      for (const warning of typed.warnings) stderrLine(`mcpwire call: warning: ${lineOf(warning)}`);
      toolArgs = typed.args;
    } catch (error) {
      if (!(error instanceof CallArgumentsError)) throw error;
      stderrLine(`mcpwire call: ${lineOf(error.message)}`);
      return EXIT.usage;
    }
    const progress = new ProgressDisplay((text) => void writeControl("stderr", text), runtime.isTerminal("stderr"));
    // What the tool's server does wrong during the call (a result the protocol does not allow,
    // a line that is not JSON-RPC) is survived by the client and said here as a warning.
    const server = tool?.origin.kind === "mcp" ? tool.origin.server : undefined;
    const stopWarning = manager.on("problem", (problem) => {
      if (problem.server === server) stderrLine(`mcpwire call: warning: ${lineOf(problem.message)}`);
    });
    let result: unknown;
    try {
      if (args.flags.has("detach")) {
        const detached = await detach(manager, tool, toolArgs, timeoutMs, (server, taskId, session) => {
          const owner = config.servers.find((each) => each.name === server);
          return owner === undefined ? `mcpwire task wait ${lineOf(server)} ${lineOf(taskId)}` : followCommand(args, owner, taskId, session);
        });
        if (detached === undefined) return EXIT.server;
        if (typeof detached === "string") return EXIT.ok;
        result = detached.result;
      } else {
        running = registry.call(name, toolArgs, {
          // A person named the tool: MCP Apps visibility (which keeps app-only tools from a model) does not apply.
          caller: "user",
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
        if (error.code === "timeout") return EXIT.timeout;
        if (error.code === "invalid-arguments") return EXIT.usage;
      }
      return EXIT.server;
    } finally {
      stopWarning();
    }
    progress.finish();
    // A server chooses how deep its result is; past the bound the output marks what it left out.
    if (deeperThan(args.flags.has("json") ? result : shownPart(result), DOCUMENT_BOUNDS.maxDepth)) {
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

/**
 * No server that could own `name` has it. A needed server that is not ready may be its owner
 * (exit 3, as for any unavailable server); otherwise, first, the nearest names among the tools of
 * the servers asked and those in the tool-list cache (for a bare tool name no server's naming
 * makes and nothing near: the names the unlisted servers would give it), then, in plain words,
 * the servers whose tools are known neither way (not started for this: a misspelt name does not
 * wait for every server), exit 2.
 */
function unknownTool(manager: McpManager, config: McpwireConfig, name: string, search: OwnerSearch, enabled: readonly string[]): number {
  const registry = manager.registry;
  const down = manager.status().filter((status) => search.asked.includes(status.name) && status.state !== "ready");
  if (down.length > 0) {
    for (const status of down) stderrLine(`mcpwire call: server "${lineOf(status.name)}" is ${status.state}: ${lineOf(status.lastError ?? "no detail")}`);
    stderrLine(`mcpwire call: no tool "${lineOf(name)}" is registered, and the servers above are not ready; it may be theirs`);
    return EXIT.server;
  }
  const unlisted = config.servers.filter((server) =>
    enabled.includes(server.name) && !search.asked.includes(server.name) && !search.cachedServers.includes(server.name)
  );
  const known = new Set([...registry.tools().map((tool) => tool.name), ...search.cachedNames]);
  let near = didYouMean(suggestNames(name, [...known]));
  // A bare tool name (`echo`) that no server's naming makes: what each unlisted server would call it.
  if (near === "" && unlisted.length > 0 && config.servers.every((server) => namingFit(server, name) === undefined)) {
    const asTheirs = unlisted.slice(0, MAX_NAMED_SERVERS).map((server) =>
      `"${lineOf(toolName(server.name, name, server.naming))}" (server "${lineOf(server.name)}")`
    );
    near = `did you mean ${asTheirs.slice(0, -1).join(", ")}${asTheirs.length > 1 ? " or " : ""}${asTheirs[asTheirs.length - 1]}?`;
  }
  stderrLine(`mcpwire call: no tool "${lineOf(name)}" is registered; ${near === "" ? "" : `${near} `}\`mcpwire tools\` lists them`);
  if (unlisted.length > 0) {
    const one = unlisted.length === 1;
    const patterns = unlisted.slice(0, MAX_NAMED_SERVERS).map((server) => `"${lineOf(namingPattern(server))}"`);
    stderrLine(
      `mcpwire call: ${serverList(unlisted)} ${one ? "was" : "were"} not started to look for it: ${one ? "its" : "their"} tools are named ` +
        `${patterns.join(", ")}${unlisted.length > MAX_NAMED_SERVERS ? ", …" : ""}, and no earlier run listed them; ` +
        "`mcpwire tools` starts every server and lists all their tools",
    );
  }
  return EXIT.usage;
}

/** The most servers named one by one in the unknown-tool message. */
const MAX_NAMED_SERVERS = 5;

/** `server "a"`, or `servers "a", "b"` (at most MAX_NAMED_SERVERS, then how many more). */
function serverList(servers: readonly ServerConfig[]): string {
  const named = servers.slice(0, MAX_NAMED_SERVERS).map((server) => `"${lineOf(server.name)}"`).join(", ");
  const more = servers.length > MAX_NAMED_SERVERS ? ` and ${servers.length - MAX_NAMED_SERVERS} more` : "";
  return `server${servers.length === 1 ? "" : "s"} ${named}${more}`;
}

/** The arguments as given on the command line: key=value words, one JSON object, or an args file. */
function givenArguments(words: string[], argsFile: string | undefined): Promise<GivenArguments> | GivenArguments {
  if (argsFile === undefined) return parseArgumentWords(words);
  if (words.length > 0) {
    throw new CallArgumentsError(`--args-file cannot be combined with arguments on the command line (got "${words[0]}"); give one or the other`, "mixed-forms");
  }
  return readArgumentsFile(argsFile);
}

/** How long Ctrl-C waits for a task's tasks/cancel before the servers are closed. */
const INTERRUPT_GRACE_MS = 5000;

/**
 * --detach: starts the tool as a task and prints its id (stdout) with the command that follows
 * it (stderr; `follow` makes it). Over Streamable HTTP the session stays open when this command
 * ends (no DELETE): a server may keep tasks per session, as server-everything does, and the
 * printed command joins it. Returns the id; the direct answer when the server gave one at once
 * (printed as a result by the caller); undefined when it could not start.
 */
async function detach(
  manager: McpManager,
  tool: RegisteredTool | undefined,
  toolArgs: JsonObject,
  timeoutMs: number | undefined,
  follow: (server: string, taskId: string, session: JoinedSession | undefined) => string,
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
  const task = await tasksOf(client).startToolTask(original, toolArgs, { task: true, ...(timeoutMs !== undefined ? { timeoutMs } : {}) });
  if (task.direct) {
    stderrLine(`mcpwire call: server "${lineOf(server)}" answered tool "${lineOf(original)}" at once, without a task; its result follows`);
    return { result: await task.result() };
  }
  await write("stdout", `${lineOf(task.taskId)}\n`);
  const stdio = manager.status().find((status) => status.name === server)?.transport === "stdio";
  // spec 2025-11-25 basic/transports (Session Management 5): a client SHOULD end a session it no
  // longer needs; the detached task still needs this one, so it is left open.
  const session = stdio ? undefined : client.keepSession();
  stderrLine(
    `mcpwire call: task ${lineOf(task.taskId)} started on server "${lineOf(server)}"; ` +
      `follow it with: ${lineOf(follow(server, task.taskId, session))}` +
      (stdio ? ` (server "${lineOf(server)}" runs over stdio as a child of this command, so the task ends when it exits)` : ""),
  );
  return task.taskId;
}

/** `tool "echo" of server "everything"`, or the registered name when nothing more is known. */
function describeCall(name: string, tool: RegisteredTool | undefined): string {
  if (tool?.origin.kind === "mcp") return `server "${lineOf(tool.origin.server)}", tool "${lineOf(tool.origin.tool)}"`;
  return `tool "${lineOf(name)}"`;
}
