// `mcpwire trace show FILE`, `mcpwire trace diff A B` and `mcpwire trace html FILE -o OUT`:
// reading a trace that `--trace-file` wrote (host/trace/trace-reader.ts), later or on another machine.
// `show` prints the readable view `--trace` prints live (trace-lines.ts), filtered, and with
// `--explain` says what each method is for (method-guide.ts); `diff` says what changed between
// two recordings of a server (trace-diff.ts); `html` draws it as a page (trace-html.ts). A
// trace file is untrusted: every string of it reaches the terminal through output.ts (control
// characters made visible), and the reader bounds its size and depth.

import { messageOf } from "../../common/error-text.ts";
import { readTrace, type Trace, TraceReadError } from "../../host/trace/trace-reader.ts";
import { runtime } from "../../runtime/mod.ts";
import type { MessageTraceEvent, TraceEvent } from "../../transport/trace-event.ts";
import { parseArgs, UsageError } from "../args.ts";
import { lineOf, write, writeJson } from "../output.ts";
import { methodGuide } from "../trace/method-guide.ts";
import { diffText, diffTraces, traceServers } from "../trace/trace-diff.ts";
import { formatTraceEvent } from "../trace/trace-lines.ts";

export const TRACE_VERB_USAGE = `usage: mcpwire trace show FILE [--server NAME] [--method M] [--grep TEXT] [--kind K]… [--explain] [--full]
       mcpwire trace diff A B [--server NAME] [--json]
       mcpwire trace html FILE -o OUT.html

Reads a trace that --trace-file wrote (JSON Lines, one event a line):
  show     the same readable lines --trace prints: → sent, ← received, ↳ the request an
           answer answers, ⇄ HTTP, • process and lifecycle steps
  diff     what changed between two recordings of a server: its protocol version, identity and
           capabilities (initialize or server/discover), its tools, prompts, resources and
           resource templates (added, removed, changed: the JSON paths that differ), and the
           results of tools/call for the same tool and arguments
  html     a sequence diagram in one self-contained HTML file (mcpwire trace html --help)

show:
--server NAME      only the events of this server
--method M         only the messages of method M (an answer goes with the method it answers);
                   a prefix ending in / or * takes a family: --method 'tools/*'
--grep TEXT        only the events whose JSON holds TEXT (a message: the message; any case)
--kind K           only events of kind message, http, process or lifecycle (repeatable)
--explain          under the first message of each method shown, what it is for in MCP and
                   the spec section that defines it
--full             each message's JSON pretty-printed under its line (like --trace=full)

diff:
--server NAME      the server to compare, when a trace holds several
--json             the differences as JSON

Lines of the file that are not events (a crash leaves half a line at the end) are skipped,
with a warning on stderr.

exit codes: show, html: 0 done, 2 usage or a file that cannot be read; diff: 0 the same,
            1 they differ, 2 usage or a file that cannot be read`;

/** The kinds --kind takes. */
const KINDS = ["message", "http", "process", "lifecycle"] as const;
/** Problems of a file printed one a line; past this, a count. */
const SHOWN_PROBLEMS = 5;
/** Lines written at once: a large trace is not held twice in memory as text. */
const FLUSH_LINES = 500;
/** The indentation of an --explain line: under the arrow of the line above. */
const EXPLAIN_INDENT = " ".repeat(13);

export async function trace(argv: readonly string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === "--help" || sub === "help") {
    await write("stdout", TRACE_VERB_USAGE + "\n");
    return 0;
  }
  try {
    if (sub === "show") return await show(rest);
    if (sub === "diff") return await diff(rest);
    if (sub === "html") return await traceHtml(rest);
  } catch (error) {
    if (!(error instanceof TraceReadError)) throw error;
    await write("stderr", `mcpwire: ${error.message}\n`);
    return 2;
  }
  throw new UsageError(`trace needs show, diff or html${sub === undefined ? "" : ` (got "${sub}")`}: mcpwire trace show FILE`);
}

/** Reads a trace and warns on stderr of the lines skipped: at most SHOWN_PROBLEMS, then a count. */
async function readWithWarnings(path: string): Promise<Trace> {
  const read = await readTrace(path);
  const lines = read.problems.slice(0, SHOWN_PROBLEMS).map((problem) =>
    `mcpwire: warning: ${lineOf(path)}:${problem.line}: skipped: ${lineOf(problem.message)}\n`
  );
  const more = read.problems.length - SHOWN_PROBLEMS;
  if (more > 0) lines.push(`mcpwire: warning: ${lineOf(path)}: ${more} more line${more === 1 ? "" : "s"} skipped\n`);
  if (lines.length > 0) await write("stderr", lines.join(""));
  return read;
}

/** One positional argument, or a UsageError naming it. */
function positionals(args: string[], names: string[], verb: string): string[] {
  if (args.length !== names.length) {
    throw new UsageError(
      `trace ${verb} takes ${names.join(" ")} (got ${args.length} argument${args.length === 1 ? "" : "s"}): mcpwire trace ${verb} ${names.join(" ")}`,
    );
  }
  return args;
}

/** Whether a message of `method` is one --method M takes: M itself, or a family `tools/*`, `tools/`. */
export function methodMatches(pattern: string, method: string | undefined): boolean {
  if (method === undefined) return false;
  if (pattern.endsWith("*")) return method.startsWith(pattern.slice(0, -1));
  if (pattern.endsWith("/")) return method.startsWith(pattern);
  return method === pattern;
}

/** The method a message event goes with: its own, or the method of the request it answers. */
function methodOf(event: MessageTraceEvent): string | undefined {
  const method = event.answers?.method ?? event.method;
  return typeof method === "string" ? method : undefined;
}

/** The options `mcpwire trace show` takes. */
export const TRACE_SHOW_OPTIONS = {
  server: { kind: "string" },
  method: { kind: "string" },
  grep: { kind: "string" },
  kind: { kind: "list" },
  explain: { kind: "flag" },
  full: { kind: "flag" },
  help: { kind: "flag" },
} as const;

async function show(argv: string[]): Promise<number> {
  const args = parseArgs(argv, TRACE_SHOW_OPTIONS);
  if (args.flags.has("help")) {
    await write("stdout", TRACE_VERB_USAGE + "\n");
    return 0;
  }
  const [file] = positionals(args.positional, ["FILE"], "show") as [string];
  const kinds = args.lists.get("kind") ?? [];
  for (const kind of kinds) {
    if (!(KINDS as readonly string[]).includes(kind)) throw new UsageError(`--kind takes ${KINDS.join(", ")} (got "${kind}")`);
  }
  const server = args.values.get("server");
  const method = args.values.get("method");
  const grep = args.values.get("grep")?.toLowerCase();
  const mode = args.flags.has("full") ? "full" : "short";
  const explain = args.flags.has("explain");

  const read = await readWithWarnings(file);
  const explained = new Set<string>();
  const out: string[] = [];
  let malformed = 0;
  for (const event of read.events) {
    if (server !== undefined && event.server !== server) continue;
    if (kinds.length > 0 && !kinds.includes(event.kind)) continue;
    if (method !== undefined && (event.kind !== "message" || !methodMatches(method, methodOf(event)))) continue;
    if (grep !== undefined && !grepText(event).toLowerCase().includes(grep)) continue;
    let line: string;
    try {
      line = formatTraceEvent(event, mode);
    } catch {
      // A field of the wrong type (the reader checks only the fields every event needs).
      malformed++;
      continue;
    }
    out.push(line);
    if (out.length >= FLUSH_LINES) await flush(out);
    if (explain && event.kind === "message") {
      // The first message of a method shown: its request, or its answer when a filter left the request out.
      const shown = methodOf(event);
      if (shown !== undefined && !explained.has(shown)) {
        explained.add(shown);
        out.push(explainLine(shown));
      }
    }
  }
  if (malformed > 0) {
    await write("stderr", `mcpwire: warning: ${lineOf(file)}: ${malformed} event${malformed === 1 ? "" : "s"} with fields of the wrong type not shown\n`);
  }
  await flush(out);
  return 0;
}

/** Writes the lines gathered and empties `lines`: through write(), so redacted with control characters made visible. */
async function flush(lines: string[]): Promise<void> {
  if (lines.length === 0) return;
  const text = lines.join("\n") + "\n";
  lines.length = 0;
  await write("stdout", text);
}

/** What --grep searches: a message event's message, any other event whole. */
function grepText(event: TraceEvent): string {
  try {
    return JSON.stringify(event.kind === "message" ? event.message : event) ?? "";
  } catch {
    return "";
  }
}

/** The --explain line of `method`: what it is for and where the spec defines it. */
function explainLine(method: string): string {
  const entry = methodGuide(method);
  const text = entry === undefined
    ? `${lineOf(method)}: not a method of the MCP specs (a custom method or an extension's)`
    : `${lineOf(method)}: ${entry.text} (${entry.spec})`;
  return `${EXPLAIN_INDENT}ⓘ ${text}`;
}

/** The options `mcpwire trace diff` takes. */
export const TRACE_DIFF_OPTIONS = { server: { kind: "string" }, json: { kind: "flag" }, help: { kind: "flag" } } as const;

async function diff(argv: string[]): Promise<number> {
  const args = parseArgs(argv, TRACE_DIFF_OPTIONS);
  if (args.flags.has("help")) {
    await write("stdout", TRACE_VERB_USAGE + "\n");
    return 0;
  }
  const [a, b] = positionals(args.positional, ["A", "B"], "diff") as [string, string];
  const traceA = await readWithWarnings(a);
  const traceB = await readWithWarnings(b);
  const server = args.values.get("server");
  const serverA = chooseServer(a, traceA, server);
  const serverB = chooseServer(b, traceB, server);
  const result = diffTraces(traceA.events, serverA, traceB.events, serverB);
  if (args.flags.has("json")) await writeJson(result);
  else await write("stdout", diffText(result));
  return result.changes.length === 0 ? 0 : 1;
}

/** The server of `trace` to compare: --server's (which it must hold), or its only one. */
function chooseServer(path: string, trace: Trace, wanted: string | undefined): string {
  const servers = traceServers(trace.events);
  if (wanted !== undefined) {
    if (!servers.includes(wanted)) throw new UsageError(`trace file ${path} holds no events of server "${wanted}" (it has: ${servers.join(", ") || "none"})`);
    return wanted;
  }
  if (servers.length > 1) throw new UsageError(`trace file ${path} holds several servers (${servers.join(", ")}): choose one with --server NAME`);
  if (servers.length === 0) throw new UsageError(`trace file ${path} holds no message events: nothing to compare`);
  return servers[0]!; // one
}

/** The usage text of `mcpwire trace html`, for the trace verb's help. */
export const TRACE_HTML_USAGE = `usage: mcpwire trace html FILE -o OUT.html

Draws a trace that --trace-file wrote as a sequence diagram in one self-contained HTML file
(no network, no external scripts or fonts; open it from disk): a lane for the client and one
per server, an arrow per message (requests, answers joined to their request, notifications,
requests from a server), HTTP statuses and MCP headers under the arrows, process and
lifecycle events on the lanes, the time down the side. Click an arrow for its JSON.

-o, --output OUT   the HTML file to write (mode 0600; an existing file is replaced)

exit codes: 0 written, 2 usage or a trace that cannot be read (missing, too large, a newer version).`;

/** The options `mcpwire trace html` takes (`-o` is --output). */
export const TRACE_HTML_OPTIONS = { output: { kind: "string", values: "file" }, help: { kind: "flag" } } as const;

/** `mcpwire trace html FILE -o OUT`: writes the page and prints its path; 2 when the trace cannot be read (as show and diff). */
export async function traceHtml(argv: string[]): Promise<number> {
  const args = parseArgs(argv.map((arg) => (arg === "-o" ? "--output" : arg)), TRACE_HTML_OPTIONS);
  if (args.flags.has("help")) {
    await write("stdout", TRACE_HTML_USAGE + "\n");
    return 0;
  }
  const [file, ...extra] = args.positional;
  if (file === undefined) throw new UsageError("trace html needs the trace file: mcpwire trace html FILE -o OUT.html");
  if (extra.length > 0) throw new UsageError(`trace html takes one trace file; also got ${extra.map((word) => JSON.stringify(word)).join(", ")}`);
  const output = args.values.get("output");
  if (output === undefined || output === "") throw new UsageError("trace html needs -o OUT.html: the HTML file to write");
  let trace: Trace;
  try {
    trace = await readTrace(file);
  } catch (error) {
    if (!(error instanceof TraceReadError)) throw error;
    await write("stderr", `mcpwire: ${error.message}\n`);
    return 2;
  }
  if (trace.problems.length > 0) {
    const first = trace.problems[0]!;
    await write(
      "stderr",
      `mcpwire: ${file}: ${trace.problems.length} line(s) skipped, not trace events (line ${first.line}: ${first.message}); the page lists them\n`,
    );
  }
  try {
    // The page's code (trace/trace-html.ts and its script) is loaded only for `trace html`.
    const { renderTraceHtml } = await import("../trace/trace-html.ts");
    await runtime.writePrivateFile(output, renderTraceHtml(trace, { title: file }));
  } catch (error) {
    throw new UsageError(`-o ${output}: cannot write it (${messageOf(error)}); give a file in a directory you can write`, "usage", { cause: error });
  }
  await write("stdout", `${output}\n`);
  return 0;
}

/** The options of show, diff and html together: what completion offers after `mcpwire trace`. */
export const TRACE_OPTIONS = { ...TRACE_SHOW_OPTIONS, ...TRACE_DIFF_OPTIONS, ...TRACE_HTML_OPTIONS };
