// `mcpwire check`: a verdict on MCP servers (docs/check.md). Each server given — configured by
// name, or on the command line with --stdio / --http / --sse — is connected to as a client,
// walked, probed and judged by the rules of src/check/; one report each, then the summary.
// Tools are never called unless --call or --call-read-only asks for it: a call has side effects.

import { serverAuthFetch } from "../../auth/server-auth.ts";
import type { TokenSet } from "../../auth/token-endpoint.ts";
import { type CheckOptions, type CheckReport, checkServer, type CheckTarget, DEFAULT_CHECK_TIMEOUT_MS, type ToolCall } from "../../check/mod.ts";
import { reportPasses } from "../../check/report.ts";
import { reportText } from "../../check/report-text.ts";
import type { Redactor } from "../../common/redact.ts";
import type { McpwireConfig, ServerConfig } from "../../host/config/types.ts";
import { redactorFor } from "../../host/secrets.ts";
import { stdioTransportOptions } from "../../host/servers/transport-factory.ts";
import { parseArgs, positiveInt, UsageError } from "../args.ts";
import { splitCommandLine } from "../command-line.ts";
import { EXIT } from "../exit-codes.ts";
import { lineOf, useRedactor, write, writeJson } from "../output.ts";
import { AD_HOC_OPTIONS, AD_HOC_USAGE, isAdHoc } from "../session/ad-hoc-servers.ts";
import { configErrors, configSource, describeConfigError, IMPORT_OPTION, loadSessionConfig, openTrace, stderrLine } from "../session/host-session.ts";
import { onlyServer } from "../session/server-choice.ts";
import { parseArgumentWords, typeArguments } from "../tools/call-arguments.ts";

export const CHECK_USAGE = `usage: mcpwire check [SERVER…] [--stdio "CMD" | --http URL | --sse URL]… [options]

Connects to each server as a client, walks everything it declares (tools, resources, templates,
prompts, every page of each list), sends the probes a conformant server answers in a known way
(an unknown method, an unsupported version, an invalid cursor, a malformed request, the
transport's own rules), and judges every message against the JSON Schema of the version it
negotiated and the rules of the specification. Each finding names its rule, its level (MUST,
SHOULD, MAY), the spec section it comes from, where it was seen (#N: the N-th message of the
session; a JSON Pointer into it) and what to change. Tools are never called unless asked.
With no SERVER and no server on the command line, every enabled configured server is checked.
docs/check.md lists every rule.

options:
  --era auto|modern|legacy|all
                     the eras to check: all (default) checks each era the server offers
                     (2026-07-28 via server/discover, the initialize handshake); auto the one
                     a client negotiates; modern or legacy only that one
  --call "TOOL [key=value…|'json']"
                     call TOOL with these arguments and check its result (repeatable)
  --call-read-only   call every tool annotated readOnlyHint, with arguments made from its
                     inputSchema (a tool whose arguments cannot be made is skipped, saying so)
  --strict           exit 1 when a SHOULD is broken too
  --verbose          list the rules that held and those skipped, with why
  --json             print one JSON document: { format, passed, reports: [report…] }
                     (docs/check.md describes every field)
  --timeout MS       the longest wait for any one answer (default 10000)
  --trace[=full], --trace-file FILE
                     the session's messages as every verb prints or writes them; a finding's
                     #N is the N-th message event of the file, so trace html shows where
  --config FILE, --import APP[,APP], --trust-project
                     where configured servers come from, as for every verb
${AD_HOC_USAGE}

exit codes: 0 no MUST broken (--strict: no SHOULD either), 1 a rule of that level broken,
            2 usage or config error, 3 a server could not be reached`;

/** The options `mcpwire check` takes. */
export const CHECK_OPTIONS = {
  ...AD_HOC_OPTIONS,
  config: { kind: "string", values: "file" },
  import: IMPORT_OPTION,
  "trust-project": { kind: "flag" },
  trace: { kind: "optional", values: ["full"] },
  "trace-file": { kind: "string", values: "file" },
  era: { kind: "string", values: ["auto", "modern", "legacy", "all"] },
  call: { kind: "list" },
  "call-read-only": { kind: "flag" },
  strict: { kind: "flag" },
  verbose: { kind: "flag" },
  json: { kind: "flag" },
  timeout: { kind: "string" },
  help: { kind: "flag" },
  debug: { kind: "flag" },
} as const;

const ERAS = ["auto", "modern", "legacy", "all"] as const;

/** `--call "TOOL key=value…"`: the tool's name and its arguments, typed by the tool's inputSchema once it is listed. */
function toolCalls(values: readonly string[]): ToolCall[] {
  return values.map((value) => {
    const [name, ...words] = splitCommandLine(value);
    if (name === undefined || name === "") throw new UsageError(`--call needs a tool name: --call "TOOL key=value…" (got "${lineOf(value)}")`);
    const given = parseArgumentWords(words);
    return { name, arguments: (inputSchema: unknown) => typeArguments(given, inputSchema, `--call ${name}`).args };
  });
}

/** How the check reaches `server` again and again: the host's own process for stdio, its OAuth fetch for HTTP. */
function targetOf(server: ServerConfig, redactor: Redactor): CheckTarget {
  if (server.transport === "stdio") return { kind: "stdio", stdio: stdioTransportOptions(server, { redactor }) };
  const fetch = serverAuthFetch(server.name, server.url!, server.auth ?? { enabled: true }, {
    // Every token obtained or loaded is a secret no output may show.
    onTokens: (tokens: TokenSet) => {
      redactor.add(tokens.accessToken);
      redactor.add(tokens.refreshToken);
    },
  });
  const http = { url: server.url!, headers: server.headers ?? {}, ...(fetch === undefined ? {} : { fetch }) };
  return server.transport === "sse" ? { kind: "sse", http } : { kind: "http", http, ...(server.transport === "auto" ? { fallback: true } : {}) };
}

/** The servers named (each must be configured), else the command line's, else every enabled one. */
function chosen(config: McpwireConfig, names: readonly string[]): ServerConfig[] {
  for (const name of names) onlyServerExists(config, name);
  const enabled = config.servers.filter((server) => server.enabled !== false);
  if (names.length > 0) return enabled.filter((server) => names.includes(server.name));
  const adHoc = enabled.filter((server) => isAdHoc(server));
  return adHoc.length > 0 ? adHoc : enabled;
}

function onlyServerExists(config: McpwireConfig, name: string): void {
  // onlyServer disables the others; a copy keeps this config's servers as they are.
  onlyServer({ ...config, servers: config.servers.map((server) => ({ ...server })) }, name);
}

export async function check(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, CHECK_OPTIONS);
  if (args.flags.has("help")) {
    await write("stdout", CHECK_USAGE + "\n");
    return EXIT.ok;
  }
  const era = args.values.get("era") ?? "all";
  if (!(ERAS as readonly string[]).includes(era)) throw new UsageError(`--era takes auto, modern, legacy or all (got "${lineOf(era)}")`);
  const timeoutMs = positiveInt("timeout", args.values.get("timeout"), DEFAULT_CHECK_TIMEOUT_MS);
  const calls = toolCalls(args.lists.get("call") ?? []);
  const source = configSource(args);
  const config = await loadSessionConfig(source);
  const redactor = redactorFor(config);
  useRedactor(redactor);
  for (const warning of config.warnings) stderrLine(`warning: ${describeConfigError(warning)}`);
  for (const error of configErrors(config)) {
    stderrLine(`error: ${describeConfigError(error)}${error.server ? ` (server "${error.server}" is not checked)` : ""}`);
  }
  const servers = chosen(config, args.positional);
  if (servers.length === 0) throw new UsageError('no server to check: name a configured server, or give one with --stdio "CMD", --http URL or --sse URL');
  const trace = await openTrace(source.trace);
  const reports: CheckReport[] = [];
  try {
    for (const server of servers) {
      const options: CheckOptions = {
        era: era as CheckOptions["era"],
        calls,
        callReadOnly: args.flags.has("call-read-only"),
        name: server.name,
        timeoutMs,
        ...(trace === undefined ? {} : { trace: trace.sink }),
      };
      const report = await checkServer(targetOf(server, redactor), options);
      reports.push(report);
      if (!args.flags.has("json")) await write("stdout", reportText(report, { verbose: args.flags.has("verbose") }) + (server === servers.at(-1) ? "" : "\n"));
    }
  } finally {
    trace?.close();
  }
  const strict = args.flags.has("strict");
  const passed = reports.every((report) => reportPasses(report, strict));
  if (args.flags.has("json")) await writeJson({ format: 1, passed, reports });
  if (reports.some((report) => report.error !== undefined)) return EXIT.server;
  return passed ? EXIT.ok : EXIT.toolError;
}
