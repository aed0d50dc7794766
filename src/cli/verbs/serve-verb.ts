// `mcpwire serve`: the configured servers as one MCP server (docs/serve.md). The bridge
// (src/serve/) answers from the backends; the server half (src/server/) speaks both eras to the
// host; the front is this process's stdio (a host launches `mcpwire serve` as its server) or
// Streamable HTTP with --listen. Over stdio, stdout carries only the protocol (spec 2025-11-25
// basic/transports, "stdio": the server MUST NOT write anything to stdout that is not a valid MCP
// message); everything a person should read goes to stderr.

import { messageOf } from "../../common/error-text.ts";
import type { McpwireConfig } from "../../host/config/types.ts";
import { redactorFor } from "../../host/secrets.ts";
import { runtime } from "../../runtime/mod.ts";
import type { HttpListener } from "../../runtime/types.ts";
import { type Bridge, BridgeError, type BridgeNaming, createBridge } from "../../serve/mod.ts";
import { type HttpFront, httpFront } from "../../server/http-front.ts";
import { Server } from "../../server/server.ts";
import { LineStreamTransport } from "../../transport/line-stream.ts";
import { parseArgs, UsageError } from "../args.ts";
import { EXIT } from "../exit-codes.ts";
import { lineOf, useRedactor, write } from "../output.ts";
import { AD_HOC_OPTIONS, AD_HOC_USAGE, isAdHoc } from "../session/ad-hoc-servers.ts";
import {
  configErrors,
  configSource,
  describeConfigError,
  loadSessionConfig,
  openTrace,
  SESSION_OPTIONS,
  stderrLine,
  TRACE_USAGE,
} from "../session/host-session.ts";

export const SERVE_USAGE = `usage: mcpwire serve [SERVER…] [--stdio "CMD" | --http URL | --sse URL]… [--listen [HOST:]PORT] [options]

Serves the configured servers (every enabled one, the SERVERs named, or those given on the
command line) as one MCP server, in both eras: the initialize handshake (2024-11-05 to
2025-11-25, with sessions) and 2026-07-28 (server/discover, stateless requests). A host's era is
spoken to each backend that speaks it, and translated for one that does not. Tools, resources,
prompts, completion, logging, progress, cancellation, list changes and tasks pass both ways;
sampling, elicitation and roots requests reach the host that called. One backend keeps its
names; several are told apart as the registry names them (mcp_<server>_<tool>, or each server's
naming key). The config's filters, pins (a changed tool is not served until accepted), sandboxes
and secrets apply as for every verb. docs/serve.md tells how to put it in a host's config
(mcpwire export --serve writes that entry).

front:
  (default)            stdio: a host launches mcpwire serve as its server; stdout carries only
                       the protocol; it exits 0 when stdin ends
  --listen [HOST:]PORT Streamable HTTP at http://HOST:PORT/mcp (HOST default 127.0.0.1; PORT 0:
                       any free one); a bearer token is required: --token-file FILE, else the
                       variable MCPWIRE_SERVE_TOKEN, else one is made and printed once to stderr
  --token-file FILE    the token hosts must send (Authorization: Bearer …), its first line
  --no-auth            ask for no token: every process that can reach HOST:PORT may call every
                       tool of every server served (Host and Origin are still checked)
  --allow-origin ORIGIN
                       a browser Origin accepted besides loopback ones (repeatable)
  --allow-host NAME    a Host name accepted besides loopback ones and HOST (repeatable)

options:
  --naming auto|prefixed|plain
                       auto (default): one server keeps its names, several are prefixed;
                       prefixed: always; plain: never (a name two share is the first server's)
  --config FILE, --import APP[,APP], --trust-project
                       where configured servers come from, as for every verb
${TRACE_USAGE}
                       (both sides in one trace: the host's messages as server "host", each
                       backend's under its name)
${AD_HOC_USAGE}

It stops on SIGINT or SIGTERM (every backend closed, a stdio one that ignores the end of its
stdin signalled) and exits 0.

exit codes: 0 stopped, 2 usage or config error, 3 cannot listen`;

/** The options `mcpwire serve` takes. */
export const SERVE_OPTIONS = {
  ...AD_HOC_OPTIONS,
  config: SESSION_OPTIONS.config,
  import: SESSION_OPTIONS.import,
  "trust-project": SESSION_OPTIONS["trust-project"],
  trace: SESSION_OPTIONS.trace,
  "trace-file": SESSION_OPTIONS["trace-file"],
  otel: SESSION_OPTIONS.otel,
  help: SESSION_OPTIONS.help,
  debug: SESSION_OPTIONS.debug,
  listen: { kind: "string" },
  "token-file": { kind: "string", values: "file" },
  "no-auth": { kind: "flag" },
  "allow-origin": { kind: "list" },
  "allow-host": { kind: "list" },
  naming: { kind: "string", values: ["auto", "prefixed", "plain"] },
} as const;

/** The variable a token may come from. */
export const SERVE_TOKEN_VARIABLE = "MCPWIRE_SERVE_TOKEN";
/** How long closing may take before the process exits all the same. */
const CLOSE_TIMEOUT_MS = 5_000;
const NAMINGS: readonly BridgeNaming[] = ["auto", "prefixed", "plain"];

/** `[HOST:]PORT`, `[::1]:PORT`: where to listen. */
export function listenAddress(value: string): { hostname: string; port: number } {
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]:|([^:[\]]+):)?(\d{1,5})$/.exec(value);
  const port = match === null ? NaN : Number(match[3]);
  if (match === null || port > 65535) {
    throw new UsageError(`--listen takes [HOST:]PORT, a port from 0 to 65535 (got "${lineOf(value)}"); e.g. --listen 8080 or --listen 127.0.0.1:0`);
  }
  return { hostname: match[1] ?? match[2] ?? "127.0.0.1", port };
}

function isLoopbackHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "::1" || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/** A token of 32 random bytes, base64url. */
function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** The token hosts must send, and where it came from; undefined with --no-auth. */
async function tokenOf(args: ReturnType<typeof parseArgs>): Promise<{ token: string; source: "file" | "variable" | "made" } | undefined> {
  const file = args.values.get("token-file");
  if (args.flags.has("no-auth")) {
    if (file !== undefined) throw new UsageError("--no-auth and --token-file say opposite things; give one");
    return undefined;
  }
  if (file !== undefined) {
    const token = (await runtime.readTextFile(file)).split(/\r?\n/, 1)[0]!.trim();
    if (token === "") throw new UsageError(`--token-file ${lineOf(file)}: its first line is empty; put the token there`);
    return { token, source: "file" };
  }
  const variable = runtime.env()[SERVE_TOKEN_VARIABLE]?.trim();
  if (variable !== undefined && variable !== "") return { token: variable, source: "variable" };
  return { token: newToken(), source: "made" };
}

/** The servers served: those named, else the command line's, else every enabled one (the bridge checks the names). */
function servedNames(config: McpwireConfig, positional: readonly string[]): string[] {
  if (positional.length > 0) return [...positional];
  const adHoc = config.servers.filter((server) => server.enabled && isAdHoc(server));
  return adHoc.map((server) => server.name);
}

/** Settles after `ms` at most, whatever `work` does. */
async function bounded(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([work.catch(() => {}), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

export async function serve(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, SERVE_OPTIONS);
  if (args.flags.has("help")) {
    await write("stdout", SERVE_USAGE + "\n");
    return EXIT.ok;
  }
  const naming = (args.values.get("naming") ?? "auto") as BridgeNaming;
  if (!NAMINGS.includes(naming)) throw new UsageError(`--naming takes auto, prefixed or plain (got "${lineOf(naming)}")`);
  const listenText = args.values.get("listen");
  const listen = listenText === undefined ? undefined : listenAddress(listenText);
  if (listen === undefined) {
    for (const option of ["token-file", "no-auth", "allow-origin", "allow-host"]) {
      if (args.flags.has(option) || args.values.has(option) || args.lists.has(option)) {
        throw new UsageError(
          `--${option} applies to the HTTP front; add --listen [HOST:]PORT (over stdio the host that launched mcpwire serve is the only caller)`,
        );
      }
    }
  }
  const token = listen === undefined ? undefined : await tokenOf(args);
  const source = configSource(args);
  const config = await loadSessionConfig(source);
  const redactor = redactorFor(config);
  if (token !== undefined) redactor.add(token.token);
  useRedactor(redactor);
  for (const warning of config.warnings) stderrLine(`warning: ${describeConfigError(warning)}`);
  for (const error of configErrors(config)) {
    stderrLine(`error: ${describeConfigError(error)}${error.server ? ` (server "${error.server}" is not served)` : ""}`);
  }
  const trace = await openTrace(source.trace);
  let bridge: Bridge;
  try {
    bridge = createBridge({
      config,
      servers: servedNames(config, args.positional),
      naming,
      manager: {
        redactor,
        ...(trace === undefined ? {} : { trace: trace.sink }),
        ...(source.otel === true ? { telemetry: true } : {}),
      },
    });
  } catch (error) {
    trace?.close();
    if (error instanceof BridgeError) throw new UsageError(error.message, "usage", { cause: error });
    throw error;
  }
  bridge.events.on("collision", (detail) => stderrLine(`warning: ${detail.message}`));
  bridge.events.on("warning", (detail) => stderrLine(`warning: ${detail.message}`));
  bridge.events.on("problem", (detail) => stderrLine(detail.message));
  const server = new Server(bridge.handlers, {
    name: "mcpwire serve",
    ...(trace === undefined ? {} : { trace: trace.sink }),
    onProblem: (message) => stderrLine(`mcpwire serve: ${message}`),
  });
  // Listening for the signals first: one may come while the backends start.
  const interrupted = new Promise<string>((resolve) => runtime.onInterrupt((signal) => resolve(signal)));
  let stopped: string | undefined;
  let listener: HttpListener | undefined;
  let front: HttpFront | undefined;
  try {
    if (listen === undefined) {
      // One host, which asks at once: its own backends start at its first request (a warm set
      // for other hosts would be a second copy of every stdio backend).
      const connection = await server.connect(
        new LineStreamTransport({ lines: runtime.stdinLines(), write: (text) => runtime.write("stdout", text), description: "stdio (the host)" }),
      );
      stopped = await Promise.race([connection.closed.then(() => "the end of stdin"), interrupted]);
      return EXIT.ok;
    }
    // Started before any host asks, so a backend that cannot start, or a name two backends
    // share, is said at once; 2026-07-28 hosts that declare nothing share this set.
    void bridge.start();
    front = httpFront(server, {
      ...(token === undefined ? {} : { token: token.token, tokenHint: tokenHint(token.source) }),
      boundHost: listen.hostname,
      allowedOrigins: args.lists.get("allow-origin") ?? [],
      allowedHosts: args.lists.get("allow-host") ?? [],
    });
    try {
      listener = await runtime.listenHttp(listen, front);
    } catch (error) {
      stderrLine(
        `mcpwire serve: cannot listen on ${listen.hostname}:${listen.port} (${messageOf(error)}); choose another --listen address or port, 0 for any free one`,
      );
      return EXIT.server;
    }
    const host = listen.hostname.includes(":") ? `[${listen.hostname}]` : listen.hostname;
    const url = `http://${host}:${listener.port}/mcp`;
    if (!isLoopbackHost(listen.hostname)) {
      stderrLine(`mcpwire serve: warning: listening on ${listen.hostname}, not only this machine's loopback: keep the token secret`);
    }
    if (token === undefined) {
      stderrLine("mcpwire serve: warning: --no-auth: every process that can reach this address may call every tool of every server served");
    }
    await write("stderr", `mcpwire serve: serving at ${url}; stop with Ctrl-C\n`);
    // The one place the token is shown, and only one that was made here (the user has the others).
    if (token?.source === "made") await runtime.write("stderr", `mcpwire serve: hosts must send the header  Authorization: Bearer ${token.token}\n`);
    stopped = await interrupted;
    return EXIT.ok;
  } finally {
    await bounded(
      (async () => {
        await front?.close();
        await listener?.close();
        await server.close();
        await bridge.close();
      })(),
      CLOSE_TIMEOUT_MS,
    );
    trace?.close();
    if (stopped !== undefined) await write("stderr", `mcpwire serve: stopped on ${stopped}; every backend closed\n`);
  }
}

function tokenHint(source: "file" | "variable" | "made"): string {
  if (source === "file") return "send the token of the --token-file mcpwire serve was given";
  if (source === "variable") return `send the token of ${SERVE_TOKEN_VARIABLE}`;
  return "send the token mcpwire serve printed when it started";
}
