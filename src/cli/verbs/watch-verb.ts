// `mcpwire watch SERVER URI`: subscribes to one resource and prints each update until Ctrl-C —
// spec 2025-11-25 server/resources ("Subscriptions": resources/subscribe, then
// notifications/resources/updated); on the 2026-07-28 wire the URI joins the subscriptions/listen
// filter (spec 2026-07-28 basic/patterns/subscriptions), which the Client keeps open.

import type { McpwireConfig } from "../../host/config/types.ts";
import { parseArgs, positiveInt, UsageError } from "../args.ts";
import { EXIT } from "../exit-codes.ts";
import { jsonDocument, lineOf, write } from "../output.ts";
import { configSource, interruptedSession, parseLogLevel, SESSION_OPTIONS, stderrLine, TRACE_USAGE, withManager } from "../session/host-session.ts";
import { failure, impliedServer, onlyServer, readyClient, serverAndWords } from "../session/server-choice.ts";

/**
 * The most update lines handed to stdout and not yet taken by its reader. A server is untrusted:
 * it may send updates faster than stdout is read (or stdout may not be read at all), and
 * queuing each one would hold them all in memory. Past this, updates are counted and dropped.
 */
const MAX_PENDING_UPDATES = 4096;

export const WATCH_USAGE = `usage: mcpwire watch SERVER URI [--count N] [--json] [--config FILE]

Subscribes to the resource URI of SERVER and prints a line for each update the server sends
("HH:MM:SS updated URI"; with --json one JSON object a line: { time, uri }) until Ctrl-C, or
until --count N updates have arrived. Read the new content with \`mcpwire read SERVER URI\`.
Updates of any other URI are not printed (a warning names the first). When stdout is not read
as fast as updates come, at most ${MAX_PENDING_UPDATES} lines wait: the updates past them are counted
(toward --count too) and said as one "HH:MM:SS N updates dropped (…)" line ({ time, dropped }
with --json) once stdout drains.
On the 2025-11-25 wire this is resources/subscribe; on 2026-07-28 the URI joins the
subscriptions/listen stream. The server must declare resources.subscribe. With one server given
on the command line (--stdio, --http, --sse), SERVER may be left out.
${TRACE_USAGE}

exit codes: 0 --count updates arrived, 2 usage or config error, 3 the server could not be
            reached, refuses subscriptions or went away, 130 interrupted (Ctrl-C)`;

/** The options `mcpwire watch` takes. */
export const WATCH_OPTIONS = { ...SESSION_OPTIONS, json: { kind: "flag" }, count: { kind: "string" } } as const;

export async function watch(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, WATCH_OPTIONS);
  if (args.flags.has("help")) {
    await write("stdout", WATCH_USAGE + "\n");
    return 0;
  }
  const source = configSource(args);
  const needs = "watch needs a server and a resource URI: mcpwire watch SERVER URI (SERVER may be left out with one --stdio, --http or --sse)";
  if (args.positional.length < (impliedServer(source) ? 1 : 2)) throw new UsageError(needs);
  if (args.positional.length > 2) throw new UsageError(`unexpected argument "${args.positional[2]}" (watch takes one server and one URI)`);
  const count = args.values.has("count") ? positiveInt("count", args.values.get("count"), 1) : undefined;
  const json = args.flags.has("json");
  const logLevel = parseLogLevel(args.values.get("log-level"));
  let server = "";
  let uri = "";
  const onConfig = (config: McpwireConfig) => {
    const chosen = serverAndWords(config, args.positional, (words) => words.length === 1);
    const [first, extra] = chosen.rest;
    if (chosen.server === undefined || first === undefined) throw new UsageError(needs);
    if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}" (watch takes one server and one URI)`);
    [server, uri] = [chosen.server, first];
    onlyServer(config, server);
  };
  return await withManager({ ...source, logLevel, onConfig }, async (manager) => {
    const client = readyClient(manager, server, "watch");
    if (client === undefined) return EXIT.server;
    const who = `server "${lineOf(server)}"`;
    let seen = 0;
    let finish: (code: number) => void = () => {};
    // Ends with --count updates, or when the server goes away; Ctrl-C ends the process (host-session.ts).
    const ended = new Promise<number>((resolve) => (finish = resolve));
    const out = new UpdateLines(json);
    let unasked = false;
    const offUpdate = client.on("resourceupdated", ({ uri: updated }) => {
      if (count !== undefined && seen >= count) return; // past --count, while the servers close
      // spec 2025-11-25 server/resources "Subscriptions": updates are for the resources subscribed
      // to; one for any other URI is the server's mistake (or a flood), said once and not printed.
      if (updated !== uri) {
        if (!unasked) stderrLine(`mcpwire watch: warning: ${who} sent an update of ${lineOf(updated)}, which was not subscribed to; such updates are ignored`);
        unasked = true;
        return;
      }
      out.update(updated);
      seen++;
      if (count !== undefined && seen >= count) finish(EXIT.ok);
    });
    // What the server does wrong is said; an acknowledgment that leaves the URI out of the
    // listen filter (spec 2026-07-28 basic/patterns/subscriptions "Acknowledgment") means no
    // update will come: said, and the watch ends (client/subscriptions.ts names it "resourceSubscriptions URI").
    const offProblem = client.on("problem", ({ message }) => {
      stderrLine(`mcpwire watch: warning: ${lineOf(message)}`);
      if (message.includes(`resourceSubscriptions ${uri}`)) {
        stderrLine(`mcpwire watch: ${who} does not watch ${lineOf(uri)} (its subscriptions/listen acknowledgment leaves it out); read it again instead`);
        finish(EXIT.server);
      }
    });
    const offState = client.on("statechange", ({ to, cause }) => {
      if ((to === "failed" || to === "closed") && !interruptedSession()) {
        stderrLine(`mcpwire watch: ${who} is ${to}${cause === undefined ? "" : `: ${lineOf(cause.message)}`}`);
        finish(EXIT.server);
      }
    });
    try {
      await client.subscribeResource(uri);
    } catch (error) {
      offUpdate();
      offProblem();
      offState();
      return failure("watch", `${who}, resource "${lineOf(uri)}"`, error);
    }
    stderrLine(`mcpwire watch: watching ${lineOf(uri)} on ${who}${count === undefined ? "; Ctrl-C ends" : ` for ${count} update${count === 1 ? "" : "s"}`}`);
    try {
      return await ended;
    } finally {
      out.end();
      offUpdate();
      offProblem();
      offState();
      await client.unsubscribeResource(uri).catch(() => {});
    }
  });
}

/** The update lines on stdout, bounded: those that find stdout full are counted and said as one "N updates dropped" line once it drains. */
class UpdateLines {
  readonly #json: boolean;
  #pending = 0;
  #dropped = 0;

  constructor(json: boolean) {
    this.#json = json;
  }

  /** One update of `uri`: its line, or counted as dropped while MAX_PENDING_UPDATES lines wait. */
  update(uri: string): void {
    if (this.#pending >= MAX_PENDING_UPDATES) {
      this.#dropped++;
      return;
    }
    this.#line({ uri }, `updated ${lineOf(uri)}`);
  }

  /** The watch is over: updates dropped since the last line are said. */
  end(): void {
    this.#sayDropped();
  }

  #line(fields: Record<string, unknown>, text: string): void {
    const time = new Date().toISOString();
    const line = this.#json ? jsonDocument({ time, ...fields }).replace(/\n\s*/g, "") : `${time.slice(11, 19)} ${text}`;
    this.#pending++;
    void write("stdout", line + "\n").finally(() => {
      this.#pending--;
      if (this.#pending <= MAX_PENDING_UPDATES / 2) this.#sayDropped();
    });
  }

  #sayDropped(): void {
    const dropped = this.#dropped;
    if (dropped === 0) return;
    this.#dropped = 0;
    this.#line({ dropped }, `${dropped} update${dropped === 1 ? "" : "s"} dropped (stdout was not read fast enough)`);
  }
}
