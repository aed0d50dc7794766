// The scenario client that the official MCP conformance suite launches (`npm run conformance`):
// the server URL is its last argument, the scenario is in MCP_CONFORMANCE_SCENARIO, and it does
// what that scenario expects through mcpwire's public API only (../src/mod.ts), then exits.
//
//   MCP_CONFORMANCE_SCENARIO=tools_call node --import tsx conformance/client.ts http://localhost:PORT/mcp
//
// Exit codes: 0 the scenario's steps all worked; 1 a step failed (the reason is on stderr);
// 2 usage (no URL or no scenario); 3 the deadline passed (MCPWIRE_CONFORMANCE_DEADLINE_MS after
// the process started, default 25 s, under the suite's 30 s per scenario). Nothing waits unbounded: every request
// has a timeout, close() is bounded, and the deadline ends the process whatever is pending.
// Every JSON-RPC message is traced on stderr, which the suite keeps in results/…/stderr.txt.

import { appendFileSync } from "node:fs";
import process from "node:process";
import { appsExtension, skillsExtension } from "../src/client/extensions/mod.ts";
import {
  type CallToolResult,
  Client,
  type ClientOptions,
  type JsonObject,
  type JsonRpcMessage,
  StreamableHttpTransport,
  tasksExtension,
  type Tool,
  TracingTransport,
} from "../src/mod.ts";
import { conformanceAuthFetch, isExpectedRefusal } from "./client-auth.ts";

/** What a scenario handler gets: where to connect and what the suite told us. */
interface Session {
  scenario: string;
  url: string;
  /** MCP_CONFORMANCE_PROTOCOL_VERSION: the wire the suite speaks (2025-11-25 or 2026-07-28). */
  protocolVersion: string;
  /** MCP_CONFORMANCE_CONTEXT, parsed: credentials and keys of some auth scenarios. */
  context: JsonObject | undefined;
}

type Handler = (session: Session) => Promise<void>;

const DEFAULT_DEADLINE_MS = 25_000;
const REQUEST_TIMEOUT_MS = 20_000;
/** auth/*: a request's wait includes a whole OAuth flow (metadata, registration, authorize, token). */
const AUTH_REQUEST_TIMEOUT_MS = 45_000;
const CLOSE_TIMEOUT_MS = 3_000;
const TRACE_LIMIT = 2_000;

const started = performance.now();

function log(line: string): void {
  const ms = (performance.now() - started).toFixed(0).padStart(5);
  process.stderr.write(`[client ${ms} ms] ${line}\n`);
}

function trace(direction: "send" | "receive", message: JsonRpcMessage): void {
  const text = JSON.stringify(message);
  log(`${direction === "send" ? "→" : "←"} ${text.length > TRACE_LIMIT ? `${text.slice(0, TRACE_LIMIT)}… (${text.length} chars)` : text}`);
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  let text = `${error.name}: ${error.message}`;
  for (let cause = error.cause, depth = 0; cause !== undefined && depth < 5; depth++) {
    text += `\n  caused by: ${cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause)}`;
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return text;
}

/** Resolves with the promise, or rejects once `ms` have passed. */
function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// --- the steps every scenario is made of ---------------------------------------------------

/**
 * Connects a Client over Streamable HTTP (every message traced on stderr), runs `body`, and
 * always closes the client, bounded.
 */
async function withClient(
  session: Session,
  options: Pick<ClientOptions, "handlers">,
  body: (client: Client) => Promise<void>,
): Promise<void> {
  const authFetch = conformanceAuthFetch(session, log); // auth/* scenarios: OAuth (conformance/client-auth.ts)
  const client = new Client(
    { name: "mcpwire-conformance-client", version: "0.1.0" },
    {
      name: "conformance",
      handlers: options.handlers,
      // The extensions a host gives (docs/architecture.md, "The chain"): tasks (the scenarios may run a
      // tool as one), skills (the sep-2640 scenarios) and apps.
      use: [tasksExtension, skillsExtension, appsExtension],
      requestTimeoutMs: authFetch !== undefined ? AUTH_REQUEST_TIMEOUT_MS : REQUEST_TIMEOUT_MS,
      // The server/discover probe's bound: its wait includes a whole OAuth flow when the
      // server answers 401, and on two cores with every scenario running at once a server can
      // take seconds to answer — load, not a legacy server.
      discoverTimeoutMs: authFetch !== undefined ? AUTH_REQUEST_TIMEOUT_MS : REQUEST_TIMEOUT_MS,
    },
  );
  client.on("statechange", ({ from, to, cause }) => log(`state ${from} → ${to}${cause ? ` (${cause.message})` : ""}`));
  client.on("problem", ({ message }) => log(`problem: ${message}`));
  client.on("log", ({ level, data }) => log(`server log [${level}]: ${JSON.stringify(data)}`));

  const transport = new TracingTransport(
    new StreamableHttpTransport({ url: session.url, ...(authFetch !== undefined ? { fetch: authFetch } : {}) }),
    trace,
  );
  try {
    log(`connecting to ${session.url}`);
    await client.connect(transport);
    log(`ready: server ${JSON.stringify(client.serverInfo)}, protocol ${client.protocolVersion} (${client.era} era)`);
    await body(client);
  } finally {
    await bounded(client.close(), CLOSE_TIMEOUT_MS, "client.close()").catch((error: unknown) => log(`close: ${describeError(error)}`));
  }
}

async function listTools(client: Client): Promise<Tool[]> {
  const tools = await client.listTools();
  log(`tools/list: ${tools.length} tool(s)${tools.length > 0 ? `: ${tools.map((tool) => tool.name).join(", ")}` : ""}`);
  return tools;
}

async function callTool(client: Client, name: string, args: JsonObject): Promise<CallToolResult> {
  const start = performance.now();
  const result = await client.callTool(name, args);
  const text = result.content.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join(" ");
  log(`tools/call "${name}" answered in ${(performance.now() - start).toFixed(0)} ms: ${text}`);
  if (result.isError === true) throw new Error(`tool "${name}" returned isError: true: ${text}`);
  return result;
}

function firstTool(tools: Tool[], scenario: string): Tool {
  const tool = tools[0];
  if (tool === undefined) throw new Error(`the ${scenario} server listed no tools, so there is nothing to call`);
  return tool;
}

// --- the scenarios ---------------------------------------------------------------------------

/** initialize: the handshake is what is checked; list tools like any host would, then close. */
const initialize: Handler = (session) =>
  withClient(session, {}, async (client) => {
    await listTools(client);
  });

/** tools_call: list tools and call the first (add_numbers) with two numbers. */
const toolsCall: Handler = (session) =>
  withClient(session, {}, async (client) => {
    const tool = firstTool(await listTools(client), session.scenario);
    await callTool(client, tool.name, { a: 2, b: 3 });
  });

/**
 * sse-retry (SEP-1699): the server answers tools/call with an SSE stream holding only a priming
 * event (id + retry: 500), closes it after 50 ms and delivers the result on the GET stream the
 * client must open with Last-Event-ID, no sooner than `retry` ms after the close. The transport
 * does all of that; this side only calls the tool and expects its answer.
 */
const sseRetry: Handler = (session) =>
  withClient(session, {}, async (client) => {
    const tool = firstTool(await listTools(client), session.scenario);
    await callTool(client, tool.name, {});
  });

/**
 * elicitation-sep1034-client-defaults (SEP-1034): the tool asks, via elicitation/create, for a
 * form whose five fields (string, integer, number, enum, boolean) all have defaults. The user
 * here accepts without typing anything; the Client fills each omitted field from its default
 * before answering, and the server checks what arrived.
 */
const elicitationDefaults: Handler = (session) =>
  withClient(session, {
    handlers: {
      elicitation: {
        form: (request) => {
          log(`elicitation/create (form): ${JSON.stringify(request.message)}; accepting with no fields filled in`);
          return Promise.resolve({ action: "accept", content: {} });
        },
      },
    },
  }, async (client) => {
    const tools = await listTools(client);
    const tool = tools.find((candidate) => candidate.name === "test_client_elicitation_defaults") ?? firstTool(tools, session.scenario);
    await callTool(client, tool.name, {});
  });

const FOCAL_TOOL = "json_schema_2020_12_tool";
const ECHO_TOOL = "json_schema_echo";

/**
 * json-schema-2020-12-preservation (SEP-1613, SEP-2106): send the focal tool's inputSchema back,
 * exactly as tools/list delivered it, as the `schema` argument of json_schema_echo. The server
 * compares it with what it sent ($schema, $defs with $anchor, allOf/anyOf, if/then/else,
 * additionalProperties).
 */
const jsonSchemaPreservation: Handler = (session) =>
  withClient(session, {}, async (client) => {
    const tools = await listTools(client);
    const echo = tools.find((tool) => tool.name === ECHO_TOOL);
    if (echo === undefined) throw new Error(`the server listed no "${ECHO_TOOL}" tool to echo the schema to`);
    const focal = tools.find((tool) => tool.name === FOCAL_TOOL) ?? tools.find((tool) => tool.name !== ECHO_TOOL);
    if (focal === undefined) throw new Error(`the server listed no tool besides "${ECHO_TOOL}" whose schema could be echoed`);
    await callTool(client, ECHO_TOOL, { schema: focal.inputSchema });
  });

/**
 * json-schema-ref-no-deref (SEP-2106): the listed tool's inputSchema has a `$ref` to a canary
 * URL on the scenario server; a client may read the schema but must never fetch a network
 * `$ref`. Listing is the whole scenario: the tool has no tools/call handler.
 */
const jsonSchemaRefNoDeref: Handler = (session) =>
  withClient(session, {}, async (client) => {
    await listTools(client);
  });

/**
 * Everything else (auth/*, the 2026-07-28 scenarios, extensions): what a plain host does —
 * connect, list tools, call the first with no arguments. The scenario's checks say what more
 * it wanted; conformance/baseline.yml says why each of these does not pass yet.
 */
const generic: Handler = (session) =>
  withClient(session, {}, async (client) => {
    const tools = await listTools(client);
    if (tools.length > 0) await callTool(client, tools[0]!.name, {});
  });

/** Arguments that satisfy a tool's required properties, by type (enough for a mock server). */
function minimalArguments(tool: Tool): JsonObject {
  const schema = tool.inputSchema as { properties?: Record<string, { type?: unknown }>; required?: unknown };
  const args: JsonObject = {};
  const required = Array.isArray(schema.required) ? schema.required.filter((key): key is string => typeof key === "string") : [];
  for (const key of required) {
    const type = schema.properties?.[key]?.type;
    args[key] = type === "integer" || type === "number" ? 1 : type === "boolean" ? true : type === "object" ? {} : type === "array" ? [] : "us-west1";
  }
  return args;
}

/**
 * sep-2322-client-request-state (SEP-2322, multi round-trip requests): two tools answer
 * input_required with an elicitation (one with a requestState, one without); the Client
 * fulfils it with the elicitation handler and retries as a new request. An unrelated tool
 * in between must carry none of that; a result without resultType is complete.
 */
const mrtrRequestState: Handler = (session) =>
  withClient(session, {
    handlers: {
      elicitation: {
        form: (request) => {
          log(`input request elicitation/create (form): ${JSON.stringify(request.message)}; accepting`);
          return Promise.resolve({ action: "accept", content: { confirmed: true } });
        },
      },
    },
  }, async (client) => {
    const tools = await listTools(client);
    const order = ["test_mrtr_echo_state", "test_mrtr_unrelated", "test_mrtr_no_state", "test_mrtr_no_result_type"];
    const names = [
      ...order.filter((name) => tools.some((tool) => tool.name === name)),
      ...tools.map((tool) => tool.name).filter((name) => !order.includes(name)),
    ];
    for (const name of names) await callTool(client, name, {});
  });

/**
 * http-standard-headers (SEP-2243): every request carries Mcp-Method, and tools/call,
 * resources/read and prompts/get carry Mcp-Name; so use each kind of request once.
 */
const standardHeaders: Handler = (session) =>
  withClient(session, {}, async (client) => {
    const tools = await listTools(client);
    if (tools[0] !== undefined) await callTool(client, tools[0].name, minimalArguments(tools[0]));
    const resources = await client.listResources();
    log(`resources/list: ${resources.length} resource(s)`);
    if (resources[0] !== undefined) await client.readResource(resources[0].uri);
    const prompts = await client.listPrompts();
    log(`prompts/list: ${prompts.length} prompt(s)`);
    if (prompts[0] !== undefined) await client.getPrompt(prompts[0].name);
  });

/**
 * http-custom-headers (SEP-2243): the calls to make come in MCP_CONFORMANCE_CONTEXT
 * (`toolCalls`); the transport mirrors the x-mcp-header parameters into Mcp-Param-* headers.
 */
const customHeaders: Handler = (session) =>
  withClient(session, {}, async (client) => {
    await listTools(client);
    const calls = Array.isArray(session.context?.toolCalls) ? session.context.toolCalls as { name?: unknown; arguments?: unknown }[] : [];
    if (calls.length === 0) throw new Error("MCP_CONFORMANCE_CONTEXT has no toolCalls to make");
    for (const call of calls) {
      if (typeof call.name !== "string") continue;
      await callTool(client, call.name, (call.arguments ?? {}) as JsonObject);
    }
  });

/**
 * http-invalid-tool-headers (SEP-2243): tools/list offers one valid tool and many with broken
 * x-mcp-header annotations; the Client leaves those out, so calling every tool it kept calls
 * only the valid one.
 */
const invalidToolHeaders: Handler = (session) =>
  withClient(session, {}, async (client) => {
    for (const tool of await listTools(client)) await callTool(client, tool.name, minimalArguments(tool));
  });

/**
 * sep-2640-client-no-prefetch (Skills extension): a host lists the server's skills and shows
 * them, and reads none of their files until one is loaded (skills.mdx "Lazy Retrieval").
 */
const skillsList: Handler = (session) =>
  withClient(session, {}, async (client) => {
    const { ServerSkills } = await import("../src/host/mod.ts"); // skills parse YAML: not in the root entry
    const { skills, refused } = await new ServerSkills(client, { server: "conformance" }).list();
    log(`skills/list: ${skills.map((skill) => `${skill.frontmatter.name} (${skill.uri})`).join(", ") || "none"}`);
    for (const error of refused) log(`refused: ${error.message}`);
  });

/**
 * sep-2640-client-verify-digest, -verify-size, -verify-frontmatter: a host loads the listed
 * skill (SKILL.md read and verified against the entry: size, digest, frontmatter) and then reads
 * its other files. When the SKILL.md fails verification the skill is refused (a SkillError) and
 * nothing more of it is read: that refusal is the host doing its job, so the client exits 0.
 */
const skillsLoad: Handler = (session) =>
  withClient(session, {}, async (client) => {
    const { ServerSkills, SkillError } = await import("../src/host/mod.ts"); // skills parse YAML: not in the root entry
    const skills = new ServerSkills(client, { server: "conformance" });
    const listing = await skills.list();
    const skill = listing.skills[0];
    if (skill === undefined) throw new Error(`the server listed no loadable skill${listing.refused[0] ? ` (${listing.refused[0].message})` : ""}`);
    try {
      const loaded = await skills.load(skill);
      log(`loaded skill "${skill.frontmatter.name}": ${loaded.text.length} characters, files ${loaded.files.join(", ") || "none"}`);
      for (const path of loaded.files) log(`read ${path}: ${(await skills.readFile(loaded, path)).bytes.length} bytes, verified`);
    } catch (error) {
      if (!(error instanceof SkillError)) throw error;
      log(`skill refused (${error.code}): ${error.message}`);
    }
  });

const HANDLERS: Record<string, Handler> = {
  initialize,
  tools_call: toolsCall,
  "sse-retry": sseRetry,
  "json-schema-2020-12-preservation": jsonSchemaPreservation,
  "json-schema-ref-no-deref": jsonSchemaRefNoDeref,
  "elicitation-sep1034-client-defaults": elicitationDefaults,
  "sep-2322-client-request-state": mrtrRequestState,
  "http-standard-headers": standardHeaders,
  "http-custom-headers": customHeaders,
  "http-invalid-tool-headers": invalidToolHeaders,
  "sep-2640-client-no-prefetch": skillsList,
  "sep-2640-client-verify-digest": skillsLoad,
  "sep-2640-client-verify-size": skillsLoad,
  "sep-2640-client-verify-frontmatter": skillsLoad,
};

// --- main ------------------------------------------------------------------------------------

function parseContext(raw: string | undefined): JsonObject | undefined {
  if (raw === undefined || raw === "") return undefined;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as JsonObject;
    log(`MCP_CONFORMANCE_CONTEXT is not a JSON object; ignored`);
  } catch (error) {
    log(`MCP_CONFORMANCE_CONTEXT is not JSON (${describeError(error)}); ignored`);
  }
  return undefined;
}

async function main(): Promise<number> {
  const url = process.argv.at(-1);
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO;
  if (url === undefined || !/^https?:\/\//.test(url) || scenario === undefined || scenario === "") {
    process.stderr.write(
      "usage: MCP_CONFORMANCE_SCENARIO=<scenario> node --import tsx conformance/client.ts <server-url>\n" +
        "  the conformance suite sets the variable and appends the URL; run it through `npm run conformance`\n" +
        `  (got URL ${JSON.stringify(url)}, scenario ${JSON.stringify(scenario)})\n`,
    );
    return 2;
  }
  const session: Session = {
    scenario,
    url,
    protocolVersion: process.env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? "2025-11-25",
    context: parseContext(process.env.MCP_CONFORMANCE_CONTEXT),
  };
  log(
    `scenario ${scenario}, protocol ${session.protocolVersion}, server ${url}${
      session.context ? `, context keys ${Object.keys(session.context).join(", ")}` : ""
    }`,
  );
  const handler = HANDLERS[scenario];
  if (handler === undefined) log(`no dedicated steps for "${scenario}": connect, list tools, call the first`);
  try {
    await (handler ?? generic)(session);
  } catch (error) {
    if (isExpectedRefusal(scenario, error)) {
      log(`scenario ${scenario}: refused as the scenario expects: ${describeError(error)}`);
      return 0;
    }
    process.stderr.write(`mcpwire conformance client: scenario "${scenario}" failed: ${describeError(error)}\n`);
    return 1;
  }
  log(`scenario ${scenario}: done`);
  return 0;
}

/** The runner (conformance/run.ts) reads this log to see each scenario's exit, which the suite does not score. */
function recordExit(code: number): void {
  const file = process.env.MCPWIRE_CONFORMANCE_EXIT_LOG;
  if (file === undefined || file === "") return;
  const line = JSON.stringify({
    scenario: process.env.MCP_CONFORMANCE_SCENARIO ?? null,
    exitCode: code,
    // From this module's start, and before it: the time the runtime took to load us and mcpwire.
    ms: Math.round(performance.now() - started),
    loadMs: Math.round(started),
  });
  try {
    appendFileSync(file, `${line}\n`);
  } catch (error) {
    process.stderr.write(`mcpwire conformance client: could not record the exit code in ${file}: ${describeError(error)}\n`);
  }
}

process.on("exit", (code) => recordExit(code));

// Counted from the process start (performance.now()'s origin), as the suite counts from the spawn:
// on a loaded machine loading alone can take seconds.
const configuredMs = Number(process.env.MCPWIRE_CONFORMANCE_DEADLINE_MS ?? DEFAULT_DEADLINE_MS);
const deadlineMs = Number.isFinite(configuredMs) && configuredMs > 0 ? configuredMs : DEFAULT_DEADLINE_MS;
const deadline = setTimeout(() => {
  process.stderr.write(
    `mcpwire conformance client: scenario "${process.env.MCP_CONFORMANCE_SCENARIO}" still running ${deadlineMs} ms after the process started; giving up (exit 3)\n`,
  );
  process.exit(3);
}, Math.max(1_000, deadlineMs - performance.now()));

main().then(
  (code) => {
    clearTimeout(deadline);
    // Exit now: an idle keep-alive socket or a stream the server never ends must not keep us alive.
    process.exit(code);
  },
  (error: unknown) => {
    process.stderr.write(`mcpwire conformance client: unexpected error: ${describeError(error)}\n`);
    process.exit(1);
  },
);
