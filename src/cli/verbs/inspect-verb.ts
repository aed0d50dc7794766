// `mcpwire inspect`: connect to one server, show what it offers, disconnect.
// With --trace every message, HTTP exchange, process and lifecycle event is printed to stderr
// as it happens, in the readable form of every verb (trace-lines.ts).
// A --url without --transport follows spec 2025-11-25 basic/transports ("Backwards
// Compatibility"): Streamable HTTP first, the legacy HTTP+SSE transport if it is refused.

import { isAppOnly } from "../../client/apps/apps.ts";
import { appsExtension } from "../../client/apps/apps-extension.ts";
import { Client } from "../../client/client.ts";
import type { ProtocolEra } from "../../client/protocol-version.ts";
import { skillsExtension } from "../../client/skills/skills-extension.ts";
import { tasksExtension } from "../../client/tasks/tasks-extension.ts";
import type { ClientCapabilities, Implementation, Prompt, Resource, ResourceTemplate, ServerCapabilities, Tool } from "../../client/types.ts";
import { messageOf } from "../../common/error-text.ts";
import { setOwn } from "../../common/json.ts";
import { Redactor, redactText } from "../../common/redact.ts";
import { ServerTrace } from "../../host/servers/server-trace.ts";
import { createTransport, detectedTransport, serverKeyOf, type TransportTrace } from "../../host/servers/transport-factory.ts";
import { defaultEraCache } from "../../host/store/file-era-cache.ts";
import { PinLockFile, pinLockFileOf } from "../../host/store/pin-lock-file.ts";
import { heldSummary, ToolPins } from "../../registry/tool-pins.ts";
import { STDOUT_CLOSED_EXIT } from "../../runtime/interrupts.ts";
import { runtime } from "../../runtime/mod.ts";
import { defaultChildEnv } from "../../transport/stdio.ts";
import type { Transport } from "../../transport/transport.ts";
import { parseArgs, type ParsedArgs, positiveInt, UsageError } from "../args.ts";
import { splitCommandLine } from "../command-line.ts";
import { dataLine, lineOf, textOf, useRedactor, write, writeJson } from "../output.ts";
import { sandboxOption } from "../session/ad-hoc-servers.ts";
import { openTrace, traceOption } from "../session/host-session.ts";
import { APP_ONLY_MARK, type AppsReport, collectApps, formatApps, showToolUi } from "../tools/inspect-apps.ts";
import { summarizeInputSchema } from "../tools/schema-summary.ts";
import { VERSION } from "../version.ts";

export const INSPECT_USAGE = `usage: mcpwire inspect --stdio "<command> <args…>" [options]
       mcpwire inspect --url URL [--header NAME:VALUE]… [--transport auto|http|sse] [options]

Connects to one MCP server, prints what it offers and the transport used, and disconnects.

options:
  --stdio "<command line>"  run this server as a child process (stdio transport)
  --env NAME=VALUE          set a variable in the server's environment (repeatable);
                            the server otherwise gets only PATH, HOME, USER, LANG, TERM, …
  --cwd DIR                 the server's working directory
  --sandbox[=PROFILE]       run the --stdio server in a sandbox (bubblewrap, Linux):
                            default (its own program, its working directory and the
                            paths its arguments name readable, a private /tmp writable,
                            no network; it does not start where no sandbox can be had)
                            or prefer (then it runs without one, with a warning)
  --url URL                 reach a server over HTTP at this http:// or https:// URL
  --header NAME:VALUE       send this header with every HTTP request (repeatable),
                            e.g. --header "Authorization: Bearer $TOKEN"
  --transport auto|http|sse with --url: auto (default) tries Streamable HTTP, then the
                            legacy HTTP+SSE transport (2024-11-05) if the server refuses
                            it with 400, 404 or 405; http or sse forces one
  --protocol auto|modern|legacy
                            the era: auto (default) probes with server/discover and
                            falls back to the initialize handshake, and remembers the
                            era found in $XDG_CACHE_HOME/mcpwire/eras.json (off with
                            MCPWIRE_ERA_CACHE=off); modern pins the 2026-07-28
                            stateless wire; legacy pins the handshake
  --timeout MS              per-request timeout (default 60000)
  --json                    print one JSON document instead of text
  --ui TOOL                 print the HTML of TOOL's MCP Apps UI resource (ui://) instead
                            of the report (with --json: { tool, uri, mimeType, meta, html })
  --trace[=full]            print every message, HTTP exchange, process and lifecycle
                            event to stderr as it happens (→ sent, ← received, ↳ the
                            request an answer answers, its latency, HTTP statuses and
                            MCP headers, the server's stderr); =full pretty-prints
                            each message's JSON
  --trace-file FILE         write the same events as JSON Lines to FILE (mode 0600),
                            one per line as it happens; credentials redacted in both
  --debug                   with an error, also print its stack

Tools are pinned as in run and chat (mcpwire help pin), at pinning: warn: the first inspect of a
command line or URL pins its tools (server "inspect" in ~/.local/state/mcpwire/mcpwire.lock.json),
and a later one warns about each tool that is new or changed since.

Tools with MCP Apps metadata get an "apps" section: each tool's ui:// resource read and
checked (type, size, _meta.ui) or why it was refused; a tool for the app only is marked
[app only] (it is never offered to a model).

What the server sends is shown with its control characters as visible escapes (\\x1b,
\\u202e), and the values of --header and --env (and anything shaped like a token) are
redacted from every output.`;

const CLI_INFO: Implementation = { name: "mcpwire-inspect", title: "mcpwire inspect", version: VERSION };

/** The transport inspect used: for --url with auto, the one the server was found to speak. */
export type InspectTransport = "stdio" | "streamable-http" | "sse";

/** Everything inspect found, as printed by --json (`apps`: the tools with an MCP Apps UI, see inspect-apps.ts). */
export interface InspectReport extends AppsReport {
  transport: InspectTransport;
  /** With --transport auto: true (the transport was chosen by the fallback algorithm). */
  transportDetected?: boolean;
  serverInfo: Implementation | undefined;
  protocolVersion: string | undefined;
  /** `modern` (2026-07-28, found by server/discover) or `legacy` (the initialize handshake). */
  era: ProtocolEra | undefined;
  capabilities: ServerCapabilities | undefined;
  /**
   * What inspect declared to the server: no sampling, elicitation or roots (it answers none),
   * so a server that lists tools by the client's capabilities may list more to another client.
   */
  clientCapabilities: ClientCapabilities;
  instructions: string | undefined;
  tools: Tool[];
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
  prompts: Prompt[];
  /** Lists that failed, by name, with the error message. */
  errors: Record<string, string>;
}

/** One line on stderr, redacted, control characters visible (server text in it already lineOf'd). */
function stderr(text: string): void {
  void write("stderr", text + "\n");
}

/** The options `mcpwire inspect` takes. */
export const INSPECT_OPTIONS = {
  stdio: { kind: "string" },
  env: { kind: "list" },
  cwd: { kind: "string", values: "directory" },
  sandbox: { kind: "optional", values: ["default", "prefer"] },
  url: { kind: "string" },
  header: { kind: "list" },
  transport: { kind: "string", values: ["auto", "http", "sse"] },
  timeout: { kind: "string" },
  protocol: { kind: "string", values: ["auto", "modern", "legacy"] },
  json: { kind: "flag" },
  ui: { kind: "string" },
  trace: { kind: "optional", values: ["full"] },
  "trace-file": { kind: "string", values: "file" },
  help: { kind: "flag" },
  debug: { kind: "flag" },
} as const;

export async function inspect(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, INSPECT_OPTIONS);
  if (args.flags.has("help")) {
    await write("stdout", INSPECT_USAGE + "\n");
    return 0;
  }
  const commandLine = args.values.get("stdio");
  const url = args.values.get("url");
  if (commandLine === undefined && url === undefined) {
    throw new UsageError('inspect needs a server: --stdio "<command> <args…>" or --url URL');
  }
  if (commandLine !== undefined && url !== undefined) throw new UsageError("give one server: --stdio or --url, not both");
  if (args.positional.length > 0) throw new UsageError(`unexpected argument "${args.positional[0]}"`);
  const timeoutMs = positiveInt("timeout", args.values.get("timeout"), 60_000);
  const protocol = args.values.get("protocol") ?? "auto";
  if (protocol !== "auto" && protocol !== "modern" && protocol !== "legacy") {
    throw new UsageError(`--protocol takes auto, modern or legacy, not ${JSON.stringify(protocol)}`);
  }
  const json = args.flags.has("json");
  const debug = args.flags.has("debug");
  // The credentials given on the command line: redacted from every output from here on.
  const redactor = new Redactor();
  useRedactor(redactor);

  // --trace[=full] and --trace-file: the events of trace-event.ts, as every verb shows and writes them.
  const trace = await openTrace(traceOption(args));
  const serverTrace = trace === undefined ? undefined : new ServerTrace(
    { sink: trace.sink, server: "", startedAt: performance.now() },
    commandLine !== undefined ? "stdio" : args.values.get("transport") ?? "auto",
    redactor,
  );
  try {
    return await inspectWith(args, { commandLine, url, protocol, timeoutMs, json, debug, redactor, serverTrace });
  } finally {
    trace?.close();
  }
}

/** What inspect() parsed, for inspectWith. */
interface InspectSettings {
  commandLine: string | undefined;
  url: string | undefined;
  protocol: "auto" | "modern" | "legacy";
  timeoutMs: number;
  json: boolean;
  debug: boolean;
  redactor: Redactor;
  serverTrace: ServerTrace | undefined;
}

async function inspectWith(args: ParsedArgs, settings: InspectSettings): Promise<number> {
  const { commandLine, url, protocol, timeoutMs, json, debug, redactor, serverTrace } = settings;
  const connection = commandLine !== undefined
    ? stdioConnection(commandLine, args, redactor, serverTrace?.transportTrace)
    : httpConnection(url!, args, redactor, serverTrace?.transportTrace);

  // The era cache (host/store/file-era-cache.ts) under auto: a server found legacy before is not probed again.
  const eraCache = protocol === "auto" ? defaultEraCache() : undefined;
  // The tasks extension: inspect shows a tool that requires a task, and a server may answer with one.
  const client = new Client(CLI_INFO, {
    requestTimeoutMs: timeoutMs,
    protocol,
    use: [tasksExtension, skillsExtension, appsExtension],
    ...(eraCache === undefined ? {} : { eraCache }),
  });
  client.on("problem", ({ message }) => stderr(`warning: ${lineOf(message)}`));
  client.on("log", ({ level, logger, data }) => stderr(`server log [${lineOf(level)}]${logger ? ` ${lineOf(logger)}` : ""}: ${dataLine(data)}`));
  runtime.onInterrupt((signal) => {
    void client.close().then(() => runtime.flush()).finally(() => runtime.exit(signal === "SIGPIPE" ? STDOUT_CLOSED_EXIT : 130));
  });
  serverTrace?.watch(client, 1, protocol === "auto" ? undefined : `pinned by --protocol ${protocol}`);

  try {
    await client.connect(connection.transport, { serverKey: connection.serverKey });
  } catch (error) {
    // Awaited: the process exits right after, and an unfinished write would be lost.
    const message = messageOf(error);
    await write("stderr", `mcpwire inspect: ${lineOf(message)}\n`);
    if (debug && error instanceof Error && error.stack) await write("stderr", textOf(error.stack) + "\n");
    return 1;
  }
  try {
    const uiTool = args.values.get("ui");
    if (uiTool !== undefined) return await showToolUi(client, uiTool, json);
    const report = { ...connection.used(), ...(await collect(client)) };
    if (report.errors.tools === undefined) await warnAboutChangedTools(report.tools, redactor.redact(commandLine ?? url ?? ""));
    if (json) await writeJson(report);
    else await write("stdout", formatReport(report));
    return Object.keys(report.errors).length > 0 ? 1 : 0;
  } finally {
    await client.close();
  }
}

interface Connection {
  /** What Client.connect is given: stdio a function (a server that exits on the era probe is started again), HTTP the transport. */
  transport: Transport | (() => Transport);
  /** The server's key in the era cache (Client.connect's serverKey). */
  serverKey: string;
  /** Which transport was used, once connected. */
  used(): Pick<InspectReport, "transport" | "transportDetected">;
}

function stdioConnection(
  commandLine: string,
  args: ParsedArgs,
  redactor: Redactor,
  trace: TransportTrace | undefined,
): Connection {
  if (args.values.has("transport")) throw new UsageError("--transport applies to --url; --stdio is always the stdio transport");
  if (args.lists.has("header")) throw new UsageError("--header applies to --url servers, not to --stdio");
  const [command, ...commandArgs] = splitCommandLine(commandLine);
  if (command === undefined) throw new UsageError("--stdio was given an empty command line");
  const env = defaultChildEnv();
  for (const pair of args.lists.get("env") ?? []) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new UsageError(`--env needs NAME=VALUE (got "${pair}")`);
    setOwn(env, pair.slice(0, eq), pair.slice(eq + 1));
    redactor.add(pair.slice(eq + 1)); // an env value given to a server is treated as a secret
  }
  const profile = args.values.get("sandbox");
  const sandbox = profile === undefined ? undefined : sandboxOption(profile, `--stdio "${commandLine}"`);
  // inspect's child environment is the transport's default baseline plus the --env pairs.
  const server = {
    transport: "stdio",
    name: command,
    command,
    args: commandArgs,
    env,
    cwd: args.values.get("cwd"),
    ...(sandbox === undefined ? {} : { sandbox }),
  } as const;
  const transport = () =>
    createTransport(server, {
      childEnvironment: (given) => ({ ...given }),
      onSandbox: ({ warning }) => {
        if (warning !== undefined) stderr(`warning: ${lineOf(warning)}`);
      },
      ...(trace === undefined ? {} : { trace, redactor }),
    });
  return { transport, serverKey: serverKeyOf(server), used: () => ({ transport: "stdio" }) };
}

function httpConnection(url: string, args: ParsedArgs, redactor: Redactor, trace: TransportTrace | undefined): Connection {
  for (const option of ["env", "cwd", "sandbox"]) {
    if (args.values.has(option) || args.lists.has(option)) throw new UsageError(`--${option} applies to --stdio servers, not to --url`);
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--url needs an http:// or https:// URL (got "${url}")`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new UsageError(`--url needs an http:// or https:// URL (got "${url}")`);
  }
  if (parsed.password !== "") redactor.add(decodeURIComponent(parsed.password));
  const headers: Record<string, string> = {};
  for (const pair of args.lists.get("header") ?? []) {
    const colon = pair.indexOf(":");
    const name = colon === -1 ? "" : pair.slice(0, colon).trim();
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new UsageError(`--header needs NAME:VALUE (got "${redactText(pair)}")`); // a token stays out of the message
    setOwn(headers, name, pair.slice(colon + 1).trim());
  }
  redactor.addHeaders(headers);
  const kind = args.values.get("transport") ?? "auto";
  if (kind !== "auto" && kind !== "http" && kind !== "sse") throw new UsageError(`--transport must be auto, http or sse (got "${kind}")`);
  const transport = createTransport({ transport: kind, url, headers }, { redactor, ...(trace === undefined ? {} : { trace }) });
  const serverKey = serverKeyOf({ transport: kind, url });
  if (kind === "auto") {
    return {
      transport,
      serverKey,
      used: () => ({ transport: detectedTransport(transport) === "sse" ? "sse" : "streamable-http", transportDetected: true }),
    };
  }
  return { transport, serverKey, used: () => ({ transport: kind === "sse" ? "sse" : "streamable-http" }) };
}

/**
 * Tool pinning at `warn` (registry/tool-pins.ts): the tools of this command line or URL are
 * pinned the first time inspect sees them (as server "inspect", in the user's lock file); a tool
 * new or changed since is shown, with a warning on stderr. A lock file that cannot be used is a warning.
 */
async function warnAboutChangedTools(tools: readonly Tool[], source: string): Promise<void> {
  const file = pinLockFileOf({}, runtime.env());
  if (file === undefined) return;
  try {
    const review = await new ToolPins({ store: new PinLockFile(file) }).review({ name: INSPECT_PIN_NAME, source }, tools);
    for (const held of review.held) stderr(`warning: ${lineOf(heldSummary(held))} (pins: ${lineOf(file)}; mcpwire pin diff ${INSPECT_PIN_NAME} shows it)`);
  } catch (error) {
    stderr(`warning: ${lineOf(messageOf(error))}`);
  }
}

/** The server name inspect's pins are kept under (with the command line or URL). */
const INSPECT_PIN_NAME = "inspect";

async function collect(client: Client): Promise<Omit<InspectReport, "transport" | "transportDetected">> {
  const errors: Record<string, string> = {};
  const attempt = async <T>(name: string, list: () => Promise<T[]>): Promise<T[]> => {
    try {
      return await list();
    } catch (error) {
      errors[name] = (error as Error).message;
      return [];
    }
  };
  const [tools, resources, resourceTemplates, prompts] = await Promise.all([
    attempt("tools", () => client.listTools()),
    attempt("resources", () => client.listResources()),
    attempt("resourceTemplates", () => client.listResourceTemplates()),
    attempt("prompts", () => client.listPrompts()),
  ]);
  return {
    ...(await collectApps(client, tools)),
    serverInfo: client.serverInfo,
    protocolVersion: client.protocolVersion,
    era: client.era,
    capabilities: client.serverCapabilities,
    clientCapabilities: client.capabilities,
    instructions: client.instructions,
    tools,
    resources,
    resourceTemplates,
    prompts,
    errors,
  };
}

function describeTransport(report: InspectReport): string {
  const detected = report.transportDetected ? ", detected" : "";
  switch (report.transport) {
    case "stdio":
      return "stdio";
    case "streamable-http":
      return `streamable-http (Streamable HTTP${detected})`;
    case "sse":
      return `sse (legacy HTTP+SSE, 2024-11-05${report.transportDetected ? "; the server refused Streamable HTTP" : ""})`;
  }
}

function describeCapabilities(capabilities: ServerCapabilities | undefined): string {
  if (!capabilities) return "none";
  const parts = Object.entries(capabilities).map(([name, value]) => {
    const flags = typeof value === "object" && value !== null ? Object.entries(value).filter(([, on]) => on === true).map(([flag]) => flag) : [];
    return flags.length > 0 ? `${name} (${flags.join(", ")})` : name;
  });
  return parts.length > 0 ? lineOf(parts.join(", ")) : "none";
}

/** The client capabilities a server may list more tools for (server-everything: its sampling, elicitation and roots tools). */
const TOOL_GATING_CAPABILITIES = ["sampling", "elicitation", "roots"] as const;

/**
 * The line under the tools that says which of those capabilities inspect did not declare: a
 * server may offer a client that declares them more tools (spec 2025-11-25 basic/lifecycle
 * "Capability Negotiation"), so `mcpwire tools`, which declares sampling and elicitation, can
 * count more tools than inspect.
 */
function undeclaredNote(report: InspectReport): string | undefined {
  const missing = TOOL_GATING_CAPABILITIES.filter((name) => report.clientCapabilities?.[name] === undefined);
  if (missing.length === 0) return undefined;
  const names = missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(", ")} or ${missing.at(-1)}`;
  return `  (inspect declares no ${names} capability: a server may list more tools to a client that does; ` +
    "`mcpwire tools` declares sampling and elicitation)";
}

/** Server text on one line, cut at `max` characters: redacted, control characters visible. */
function oneLine(text: unknown, max = 100): string {
  if (typeof text !== "string" || text === "") return "";
  const flat = lineOf(text.replace(/\s+/g, " ").trim());
  return flat.length > max ? flat.slice(0, max - 1) + "…" : flat;
}

export function formatReport(report: InspectReport): string {
  const lines: string[] = [];
  const info = report.serverInfo;
  // Every string below is the server's: each is shown on its line with its escapes made visible.
  lines.push(`server        ${info ? lineOf(`${info.name} ${info.version}${info.title ? ` (${info.title})` : ""}`) : "?"}`);
  const era = report.era === "modern" ? " (modern: stateless, found by server/discover)" : report.era === "legacy" ? " (legacy: initialize handshake)" : "";
  lines.push(`protocol      ${lineOf(report.protocolVersion ?? "?")}${era}`);
  lines.push(`transport     ${describeTransport(report)}`);
  lines.push(`capabilities  ${describeCapabilities(report.capabilities)}`);
  if (report.instructions) {
    const text = String(report.instructions).trim().split("\n");
    lines.push("instructions");
    for (const line of text.slice(0, 8)) lines.push(`  ${lineOf(line)}`);
    if (text.length > 8) lines.push(`  … (${text.length - 8} more lines; --json shows all)`);
  }
  const section = <T>(title: string, key: string, items: T[], show: (item: T) => string) => {
    lines.push("");
    if (report.errors[key]) {
      lines.push(`${title}: failed: ${lineOf(report.errors[key])}`);
      return;
    }
    lines.push(`${title} (${items.length})`);
    // An entry that is not an object (a hostile or broken server's list) is named, not a crash.
    for (const item of items) lines.push(`  ${typeof item === "object" && item !== null ? show(item) : `(not an object: ${dataLine(item)})`}`);
  };
  section("tools", "tools", report.tools, (tool) => {
    const title = tool.title ?? tool.annotations?.title;
    const head = lineOf(`${tool.name}${summarizeInputSchema(tool.inputSchema)}`) + (isAppOnly(tool) ? APP_ONLY_MARK : "");
    return [head, title && title !== tool.name ? `"${oneLine(title)}"` : "", oneLine(tool.description) && `— ${oneLine(tool.description)}`]
      .filter(Boolean).join(" ");
  });
  const note = undeclaredNote(report);
  if (note !== undefined && report.capabilities?.tools !== undefined && !report.errors.tools) lines.push(note);
  lines.push(...formatApps(report));
  section(
    "resources",
    "resources",
    report.resources,
    (resource) =>
      [
        lineOf(resource.uri),
        resource.mimeType ? `(${lineOf(resource.mimeType)})` : "",
        oneLine(resource.description ?? resource.name, 80) && `— ${oneLine(resource.description ?? resource.name, 80)}`,
      ]
        .filter(Boolean).join(" "),
  );
  section(
    "resource templates",
    "resourceTemplates",
    report.resourceTemplates,
    (template) =>
      [lineOf(template.uriTemplate), oneLine(template.description ?? template.name, 80) && `— ${oneLine(template.description ?? template.name, 80)}`]
        .filter(Boolean).join(" "),
  );
  section("prompts", "prompts", report.prompts, (prompt) => {
    const args = (Array.isArray(prompt.arguments) ? prompt.arguments : []).map((arg) => `${arg?.name}${arg?.required ? "*" : ""}`).join(", ");
    return [lineOf(`${prompt.name}(${args})`), oneLine(prompt.description) && `— ${oneLine(prompt.description)}`].filter(Boolean).join(" ");
  });
  return lines.join("\n") + "\n";
}
