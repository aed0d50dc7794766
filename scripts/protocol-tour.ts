// `npm run tour`: writes docs/protocol-tour.md, a walk through one real MCP session message by
// message, from trace events (src/transport/trace-event.ts) recorded as the script runs it three
// times: server-everything over stdio (the 2025-11-25 handshake), the repo's 2026-07-28
// reference fixture over stdio (the stateless wire), and server-everything over Streamable
// HTTP (headers, statuses, the refused probe). Between the messages, prose from the tables
// below, each paragraph citing the spec (/work/shared/spec). Times, ids that vary, session ids,
// pids, ports, paths and package versions are normalised, and what a server sends at moments
// that vary (its own notifications, stderr, the standalone SSE stream) is left out, so the page
// is the same on every run. `--check` regenerates it and exits 1 when docs/protocol-tour.md
// differs (test/docs/protocol-tour.test.ts runs it); `--stdout` prints it instead of writing.

import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { formatTraceEvent } from "../src/cli/trace/trace-lines.ts";
import { Client } from "../src/client/client.ts";
import { ServerTrace } from "../src/host/servers/server-trace.ts";
import { createTransport, type TransportDescription } from "../src/host/servers/transport-factory.ts";
import type { TraceEvent } from "../src/transport/trace-event.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const OUTPUT = resolve(ROOT, "docs/protocol-tour.md");
const EVERYTHING = resolve(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const MODERN_SERVER = resolve(ROOT, "conformance/fixtures/modern-server.ts");
/** Bounds every wait: a request, the HTTP server's start. */
const LIMIT_MS = 20_000;

/** One part of the tour: a server, how it is reached, and the prose for each step the first time it appears. */
interface Section {
  title: string;
  server: string;
  intro: string;
  /** By step (stepKey): the paragraph shown before that step's first appearance. */
  prose: Record<string, string>;
  outro: string;
}

const LEFT_OUT_STDIO = "Left out because their moment varies from run to run: the lines the server writes to its stderr (its log, " +
  'spec 2025-11-25 basic/transports, "stdio") and the notifications it sends on its own (server-everything sends ' +
  '`notifications/tools/list_changed` soon after the handshake; spec 2025-11-25 server/tools, "List Changed Notification"). ' +
  "`mcpwire inspect --trace` shows them all.";

const STDIO_LEGACY: Section = {
  title: "1. stdio, the 2025-11-25 handshake (server-everything)",
  server: "everything",
  intro: "The client connects to `@modelcontextprotocol/server-everything` run as a child process, lists its tools, calls " +
    '`echo` and closes. `mcpwire inspect --trace --stdio "npx @modelcontextprotocol/server-everything stdio"` shows the same live.',
  prose: {
    "lifecycle connecting": "Lines marked `•` are not messages: they are mcpwire's own lifecycle and process events. A connect begins.",
    "process spawn": "On stdio the client launches the server as a child process and speaks to it over its stdin and stdout, " +
      'one JSON-RPC message per line; the server\'s stderr is for its logs (spec 2025-11-25 basic/transports, "stdio").',
    "send server/discover": "The client does not know which era the server speaks, so it probes first with `server/discover`, the " +
      "2026-07-28 way to learn a server's versions and capabilities. Like every 2026-07-28 request it carries the protocol " +
      "version, the client's capabilities and its identity in `_meta` (spec 2026-07-28 server/discover; basic/versioning, " +
      '"Protocol Version Negotiation").',
    "answer server/discover": "server-everything speaks 2025-11-25: `server/discover` is an unknown method to it (-32601). On stdio " +
      "any error that is not a recognised 2026-07-28 error marks a legacy server (spec 2026-07-28 basic/transports/stdio, " +
      '"Backward Compatibility"), so the client falls back to the `initialize` handshake.',
    "send initialize": "The handshake's first message: the latest version the client speaks, its capabilities (here the " +
      'extensions it implements) and its `clientInfo` (spec 2025-11-25 basic/lifecycle, "Initialization").',
    "answer initialize": "The server agrees to a version and says what it offers: capabilities (tools, prompts, resources, " +
      "logging, …), `serverInfo` and instructions. Had it answered a version the client does not support, the client would " +
      'disconnect (spec 2025-11-25 basic/lifecycle, "Version Negotiation", "Capability Negotiation").',
    "send notifications/initialized": "A notification: no `id`, so no answer. The client is ready, and only now may either side " +
      'send other requests (spec 2025-11-25 basic/lifecycle, "Initialization").',
    "lifecycle era": "mcpwire's lifecycle event names the era it settled on and why: the probe's answer and the fallback.",
    "send tools/list": 'Listing the tools (spec 2025-11-25 server/tools, "Listing Tools"); a long list comes in pages, with ' +
      "`cursor` and `nextCursor` (spec 2025-11-25 server/utilities/pagination).",
    "answer tools/list": "Each tool has a name, a description and a JSON Schema for its arguments. The response carries the " +
      'request\'s `id`: that is how `↳ answer to tools/list` is known (spec 2025-11-25 basic, "Responses"). The tour shows the ' +
      "first two tools and counts the rest.",
    "send tools/call": "Calling `echo`. mcpwire puts a `progressToken` in `_meta` so the server may report progress on a long " +
      "call (spec 2025-11-25 basic/utilities/progress).",
    "answer tools/call": "The result is a list of content blocks. A tool that fails answers a result with `isError: true`, " +
      'not a JSON-RPC error, so a model can read what went wrong (spec 2025-11-25 server/tools, "Error Handling").',
    "process exit": "To shut down, the client closes the server's stdin and waits for it to exit (spec 2025-11-25 " +
      'basic/lifecycle, "Shutdown", "stdio").',
  },
  outro: LEFT_OUT_STDIO,
};

const STDIO_MODERN: Section = {
  title: "2. stdio, the 2026-07-28 wire (the repo's reference fixture)",
  server: "modern",
  intro: "The same calls against `conformance/fixtures/modern-server.ts`, a 2026-07-28 server built on the 2.x SDK, started " +
    "with `--stdio --era modern`. The client runs with its `listen` option off: otherwise it opens a `subscriptions/listen` " +
    "stream right after connecting (spec 2026-07-28 basic/patterns/subscriptions), whose messages would interleave with " +
    "these at moments that vary.",
  prose: {
    "process spawn": "The server starts as a child process, as before (spec 2026-07-28 basic/transports/stdio).",
    "send server/discover": "The same probe, byte for byte.",
    "answer server/discover": "This time an answer: the versions the server supports, its capabilities and instructions, and " +
      "its `serverInfo` in `_meta` (spec 2026-07-28 server/discover). Every 2026-07-28 result says what it is in " +
      '`resultType`, `complete` here (spec 2026-07-28 basic, "ResultType"); this one may also be cached for `ttlMs` ' +
      "(spec 2026-07-28 server/utilities/caching).",
    "lifecycle era": "No `initialize`, no `notifications/initialized`: the 2026-07-28 wire has no handshake and no session. " +
      "The probe's answer settled the era (spec 2026-07-28 basic/versioning).",
    "send tools/list": "With no session to remember them, every request carries the protocol version, the client's " +
      'capabilities and its `clientInfo` in `_meta` (spec 2026-07-28 basic/versioning, "Protocol Version Negotiation"; ' +
      'basic/transports/stdio, "Request Metadata").',
    "answer tools/list": "The same shape as before, plus `resultType` and the caching fields.",
    "send tools/call": "The call carries the same `_meta`, and the `progressToken` with it.",
    "answer tools/call": "`resultType: complete`: the call is done. A server that needs more from the client (a user's " +
      "answer, a model's completion) answers `input_required` instead, and the client calls again with what it asked " +
      "for (spec 2026-07-28 basic/patterns/mrtr).",
    "process exit": 'Closing is the same: stdin closed, the process exits (spec 2026-07-28 basic/transports/stdio, "Shutdown").',
  },
  outro: "The fixture's stderr lines, if any, are left out as in part 1.",
};

const HTTP_LEGACY: Section = {
  title: "3. Streamable HTTP, with its headers (server-everything)",
  server: "everything-http",
  intro: "The same calls over HTTP: server-everything in its `streamableHttp` mode on a loopback port. Lines marked `⇄` are " +
    "HTTP exchanges: method, URL, status, and the MCP headers sent and received. " +
    "`mcpwire inspect --trace --url URL` shows the same live.",
  prose: {
    "send server/discover": "The probe again. Over HTTP every client message is a POST to the one MCP endpoint (spec " +
      '2025-11-25 basic/transports, "Sending Messages to the Server").',
    "http POST 400": "The POST carried the 2026-07-28 headers, `MCP-Protocol-Version` and `Mcp-Method` (spec 2026-07-28 " +
      'basic/transports/streamable-http, "Standard Request Headers"). A 2025-11-25 server with no session for it refuses ' +
      "it: 400 Bad Request.",
    "http body 400": "The client reads the 400's body before deciding: it is not a recognised 2026-07-28 error, so this is a " +
      'legacy server and the client falls back to `initialize` (spec 2026-07-28 basic/versioning, "Backward Compatibility ' +
      'with Initialization-Based Versions"; basic/transports/streamable-http, "Backward Compatibility"). ' +
      "`inspect --trace` shows this refusal; the JSON-RPC layer never sees it.",
    "send initialize": "The same `initialize` as on stdio, POSTed with no session yet.",
    "http POST 200": "The server answers the POST with `Content-Type: text/event-stream`: the answer comes as an event on " +
      'that POST\'s SSE stream (spec 2025-11-25 basic/transports, "Sending Messages to the Server"), and the server names ' +
      'the session it made in `Mcp-Session-Id` (spec 2025-11-25 basic/transports, "Session Management").',
    "answer initialize": "The answer, read from the stream.",
    "send notifications/initialized": "From here on every POST carries `Mcp-Session-Id` and the version agreed in " +
      '`MCP-Protocol-Version` (spec 2025-11-25 basic/transports, "Session Management", "Protocol Version Header").',
    "http POST 202": "A notification has no answer: the server accepts it with 202 Accepted and no body.",
    "send tools/list": "Each request is its own POST, answered on its own SSE stream.",
    "send tools/call": "The call, as on stdio.",
    "http DELETE 200": "Closing: the client ends the session with a DELETE carrying its `Mcp-Session-Id` (spec 2025-11-25 " +
      'basic/transports, "Session Management"; basic/lifecycle, "Shutdown", "HTTP").',
  },
  outro: "Left out because their moment varies: the GET the client sends after the handshake to open the standalone SSE " +
    'stream for messages the server starts (spec 2025-11-25 basic/transports, "Listening for Messages from the Server"), ' +
    "the ids of SSE events (what a reconnect sends back in `Last-Event-ID`, spec 2025-11-25 basic/transports, " +
    '"Resumability and Redelivery"), and the notifications the server sends on its own.',
};

/** A step of the tour: what its prose is keyed by. */
function stepKey(event: TraceEvent): string {
  switch (event.kind) {
    case "message":
      return `${event.answers !== undefined ? "answer" : event.dir === "send" ? "send" : "receive"} ${event.method ?? "?"}`;
    case "http":
      return event.phase === "response" ? `http ${event.method} ${event.status}` : `http ${event.phase} ${"status" in event ? event.status : ""}`;
    case "process":
    case "lifecycle":
      return `${event.kind} ${event.phase}`;
  }
}

/** Whether an event's moment is fixed by the client's own steps (the rest is left out: see the outros). */
function steady(event: TraceEvent): boolean {
  switch (event.kind) {
    case "message":
      // What the server sends on its own (a list change, a log) comes whenever it likes.
      return !(event.dir === "receive" && event.answers === undefined && event.method?.startsWith("notifications/") && event.progressOf === undefined);
    case "http":
      // The standalone GET stream and its SSE events race the requests.
      return event.phase !== "sse-event" && !(event.method === "GET");
    case "process":
      return event.phase === "spawn" || event.phase === "exit";
    case "lifecycle":
      return true;
  }
}

/** A copy of `value` for the page: arrays past two items cut (with a count), long strings cut. */
function trimmed(value: unknown): unknown {
  if (typeof value === "string") return value.length > 200 ? `${value.slice(0, 200)}…` : value;
  if (Array.isArray(value)) {
    const kept = value.slice(0, 2).map(trimmed);
    return value.length > 2 ? [...kept, `… and ${value.length - 2} more`] : kept;
  }
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, trimmed(item)]));
  }
  return value;
}

/** The readable line of `--trace`, without what varies (its time, latency and size) and without its preview. */
function headLine(event: TraceEvent): string {
  let line = formatTraceEvent(event, "short").replace(/^\s*\d+\.\d ms /, "");
  if (event.kind === "message") line = line.replace(/ {2}\d+\.\d ms {2}\(/, "  (").replace(/ {2}\(\d+(\.\d)? [KM]?B\).*$/, "");
  return line;
}

/** The page's text with what differs between runs and machines replaced by placeholders. */
function normalised(text: string, sessionIds: Set<string>): string {
  let out = text;
  for (const id of sessionIds) out = out.split(id).join("<session-id>");
  return out
    .split(ROOT + "/").join("./")
    .split(ROOT).join(".")
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, "<uuid>")
    .replace(/\b(127\.0\.0\.1|localhost):\d+/g, "$1:<port>")
    .replace(/\bpid \d+/g, "pid <pid>")
    .replace(/process \d+ exited/g, "process <pid> exited")
    .replace(/"version": "\d+\.\d+\.\d+[^"]*"/g, '"version": "<version>"')
    .replace(/\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z\b/g, "<time>");
}

/** One section of the page from its events. */
function render(section: Section, events: TraceEvent[], sessionIds: Set<string>): string {
  const parts = [`## ${section.title}`, section.intro];
  const explained = new Set<string>();
  for (const event of events.filter(steady)) {
    if (event.kind === "http" && event.phase === "response") {
      const session = event.responseHeaders["Mcp-Session-Id"];
      if (session !== undefined) sessionIds.add(session);
    }
    const key = stepKey(event);
    const prose = section.prose[key];
    if (prose !== undefined && !explained.has(key)) {
      explained.add(key);
      parts.push(prose);
    }
    const head = "`" + headLine(event).replace(/`/g, "'") + "`";
    parts.push(event.kind === "message" ? `${head}\n\n\`\`\`json\n${JSON.stringify(trimmed(event.message), null, 2)}\n\`\`\`` : head);
  }
  parts.push(section.outro);
  return parts.join("\n\n");
}

/** The events of one session: connect, tools/list, tools/call echo, close. */
async function session(server: string, description: TransportDescription): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  const trace = new ServerTrace({ sink: (event) => events.push(event), server, startedAt: performance.now() }, description.transport ?? "auto");
  const transport = createTransport(description, { trace: trace.transportTrace });
  // A fixed clientInfo, the listen stream off (its messages race the calls): the page stays the same.
  const client = new Client({ name: "mcpwire-tour", version: "1.0.0" }, { listen: false, requestTimeoutMs: LIMIT_MS });
  trace.watch(client, 1, undefined);
  try {
    await client.connect(transport);
    await client.listTools();
    await client.callTool("echo", { message: "hello" });
  } finally {
    await client.close();
  }
  return events;
}

/** A free loopback port. */
function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}

/** server-everything in streamableHttp mode on `port`, once it says it listens (bounded). */
function startEverythingHttp(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath.includes("deno") ? "node" : process.execPath, [EVERYTHING, "streamableHttp"], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", () => {}); // its request log: read so it never blocks
  return new Promise((resolveChild, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`server-everything did not listen within ${LIMIT_MS} ms`));
    }, LIMIT_MS);
    child.stderr!.on("data", (chunk) => {
      if (/listening on port/i.test(String(chunk))) {
        clearTimeout(timer);
        resolveChild(child);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything exited with code ${code} before listening`));
    });
  });
}

/** Ends `child`, SIGKILL after 3 s. */
function stopped(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    const kill = setTimeout(() => child.kill("SIGKILL"), 3000);
    child.once("exit", () => {
      clearTimeout(kill);
      done();
    });
    child.kill("SIGTERM");
  });
}

const HEADER = `# A protocol tour

One real MCP session, message by message, three times: over stdio with the 2025-11-25 handshake, over stdio on the
2026-07-28 stateless wire, and over Streamable HTTP with its headers. Every message below crossed the wire when this
page was made: it is generated from trace events (src/transport/trace-event.ts) by \`npm run tour\`
(scripts/protocol-tour.ts), and test/docs/protocol-tour.test.ts fails when the page no longer matches what the
servers and mcpwire do. Do not edit it by hand.

Each step is the line \`mcpwire … --trace\` prints for it (\`→\` sent, \`←\` received, \`↳\` the request an answer
answers, \`⇄\` an HTTP exchange, \`•\` a process or lifecycle event), without its time, latency and size, then the
message's JSON (lists cut after two items). Session ids, pids, ports, paths and versions are replaced by
placeholders such as \`<session-id>\`, so that the page is the same on every run; what the servers send at moments
that vary is left out, and each part says what.`;

/** The whole page. */
export async function generateTour(): Promise<string> {
  const sessionIds = new Set<string>();
  const parts = [HEADER];
  const legacy = await session("everything", { transport: "stdio", command: "node", args: [EVERYTHING, "stdio"], cwd: ROOT });
  parts.push(render(STDIO_LEGACY, legacy, sessionIds));
  const modern = await session("modern", {
    transport: "stdio",
    command: "node",
    args: ["--import", "tsx", MODERN_SERVER, "--stdio", "--era", "modern"],
    cwd: ROOT,
  });
  parts.push(render(STDIO_MODERN, modern, sessionIds));
  const port = await freePort();
  const child = await startEverythingHttp(port);
  try {
    const http = await session("everything-http", { transport: "http", url: `http://127.0.0.1:${port}/mcp` });
    parts.push(render(HTTP_LEGACY, http, sessionIds));
  } finally {
    await stopped(child);
  }
  return normalised(parts.join("\n\n") + "\n", sessionIds);
}

/** `--check`: exit 1 naming the first line that differs; `--stdout`: print; else write docs/protocol-tour.md. */
async function main(args: string[]): Promise<number> {
  const page = await generateTour();
  if (args.includes("--stdout")) {
    process.stdout.write(page);
    return 0;
  }
  if (!args.includes("--check")) {
    writeFileSync(OUTPUT, page);
    process.stdout.write(`wrote docs/protocol-tour.md (${page.split("\n").length} lines)\n`);
    return 0;
  }
  let committed = "";
  try {
    committed = readFileSync(OUTPUT, "utf8");
  } catch {
    process.stderr.write("docs/protocol-tour.md is missing: run npm run tour\n");
    return 1;
  }
  if (committed === page) {
    process.stdout.write("docs/protocol-tour.md is up to date\n");
    return 0;
  }
  const want = page.split("\n");
  const have = committed.split("\n");
  const line = want.findIndex((text, index) => text !== have[index]);
  const at = line === -1 ? have.length : line;
  process.stderr.write(
    `docs/protocol-tour.md differs from what npm run tour makes now, first at line ${at + 1}:\n` +
      `  committed: ${JSON.stringify(have[at] ?? "(end of file)")}\n  generated: ${JSON.stringify(want[at] ?? "(end of file)")}\n` +
      "run npm run tour, read the diff and commit it\n",
  );
  return 1;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then((code) => process.exit(code), (error: unknown) => {
    process.stderr.write(`protocol-tour: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exit(1);
  });
}
