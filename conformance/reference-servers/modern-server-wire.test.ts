// The 2026-07-28 reference server (conformance/fixtures/modern-server.ts) at the WIRE level, with raw
// JSON-RPC — spec 2026-07-28 server/discover, basic/index (_meta), basic/patterns/mrtr,
// basic/patterns/subscriptions, server/utilities/caching, basic/transports (stdio, Streamable HTTP),
// basic/versioning. No SDK client and not our Client: these tests document exactly what a modern
// client has to send and what it gets back.

import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { after, before, describe, test } from "node:test";
import { type ModernHttpServer, type ModernServerProcess, startModernHttp, startModernStdio } from "../fixtures/modern-server-launch.ts";

const VERSION = "2026-07-28";
const WAIT_MS = 10_000;
const CLIENT_INFO = { name: "mcpwire-wire-test", version: "1.0.0" };
/** What a client that can fulfil every kind of input request declares. */
const ALL_INPUT = { elicitation: { form: {} }, sampling: {}, roots: {} };

interface RpcError {
  code: number;
  message: string;
  data?: Record<string, unknown>;
}
interface Message {
  jsonrpc: "2.0";
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: RpcError;
}

/** The per-request `_meta` every modern request carries (spec 2026-07-28 basic/index "_meta"). */
function meta(capabilities: Record<string, unknown> = {}, version = VERSION): Record<string, unknown> {
  return {
    "io.modelcontextprotocol/protocolVersion": version,
    "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
    "io.modelcontextprotocol/clientCapabilities": capabilities,
  };
}

function serverInfoOf(result: Record<string, unknown> | undefined): unknown {
  const resultMeta = result?.["_meta"] as Record<string, unknown> | undefined;
  return resultMeta?.["io.modelcontextprotocol/serverInfo"];
}

function textOf(result: Record<string, unknown> | undefined): string {
  const content = (result?.["content"] ?? []) as { type: string; text?: string }[];
  return content.filter((block) => block.type === "text").map((block) => block.text).join("\n");
}

function subscriptionIdOf(message: Message): unknown {
  const params = message.params ?? message.result;
  return (params?.["_meta"] as Record<string, unknown> | undefined)?.["io.modelcontextprotocol/subscriptionId"];
}

/** Resolves with the child's exit code once it exits; rejects after the hang guard. */
function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve, reject) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    const timer = setTimeout(() => reject(new Error(`the server did not exit within ${WAIT_MS} ms`)), WAIT_MS);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

// ---------------------------------------------------------------------------------------------
// stdio: newline-delimited JSON-RPC on the child's stdin/stdout

class StdioWire {
  private readonly received: Message[] = [];
  private readonly waiters = new Set<() => void>();
  private partial = "";
  private nextId = 1;

  constructor(private readonly child: ChildProcess) {
    child.stdout!.on("data", (chunk: Buffer) => {
      const lines = (this.partial + String(chunk)).split("\n");
      this.partial = lines.pop() ?? "";
      for (const line of lines) {
        if (line.trim() === "") continue;
        // spec 2026-07-28 basic/transports/stdio: stdout carries nothing but MCP messages.
        this.received.push(JSON.parse(line) as Message);
      }
      for (const wake of [...this.waiters]) wake();
    });
  }

  send(message: Omit<Message, "jsonrpc">): void {
    this.child.stdin!.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n");
  }

  /** The first not yet taken message matching `match`, waiting for it (bounded). */
  take(match: (message: Message) => boolean, what: string): Promise<Message> {
    return new Promise((resolve, reject) => {
      const look = () => {
        const index = this.received.findIndex(match);
        if (index === -1) return false;
        const [message] = this.received.splice(index, 1);
        this.waiters.delete(look);
        clearTimeout(timer);
        resolve(message!);
        return true;
      };
      const timer = setTimeout(() => {
        this.waiters.delete(look);
        reject(new Error(`stdio: no ${what} within ${WAIT_MS} ms`));
      }, WAIT_MS);
      if (!look()) this.waiters.add(look);
    });
  }

  /** Sends a request with a fresh id and resolves with its response (result or error). */
  async request(method: string, params: Record<string, unknown>): Promise<Message> {
    const id = this.nextId++;
    this.send({ id, method, params });
    return this.take((message) => message.id === id && message.method === undefined, `response to ${method} (id ${id})`);
  }

  /** Messages that arrived but nobody took (e.g. notifications no test asked for). */
  get untaken(): readonly Message[] {
    return this.received;
  }
}

// ---------------------------------------------------------------------------------------------
// Streamable HTTP: one POST per message, with the standard request headers

/**
 * The headers every modern POST carries (spec 2026-07-28 basic/transports/streamable-http
 * "Sending Messages", "Request Metadata"): Accept with both types, MCP-Protocol-Version equal to the
 * body's _meta version, Mcp-Method, and Mcp-Name for tools/call, resources/read and prompts/get.
 */
function modernHeaders(method: string, name?: string): Record<string, string> {
  return {
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    "MCP-Protocol-Version": VERSION,
    "Mcp-Method": method,
    ...(name === undefined ? {} : { "Mcp-Name": name }),
  };
}

/** Reads the JSON-RPC messages of an SSE body as they arrive. */
class SseReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private buffer = "";
  private readonly queue: Message[] = [];

  constructor(body: ReadableStream<Uint8Array>) {
    this.reader = body.getReader();
  }

  /** The next message, or undefined when the stream ended; rejects after the hang guard. */
  async next(what: string): Promise<Message | undefined> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const guard = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`SSE: no ${what} within ${WAIT_MS} ms`)), WAIT_MS);
    });
    try {
      return await Promise.race([this.read(), guard]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async read(): Promise<Message | undefined> {
    for (;;) {
      const queued = this.queue.shift();
      if (queued !== undefined) return queued;
      const { done, value } = await this.reader.read();
      if (done) return undefined;
      this.buffer += this.decoder.decode(value, { stream: true });
      const events = this.buffer.split(/\r?\n\r?\n/);
      this.buffer = events.pop() ?? "";
      for (const event of events) {
        // Lines starting with ":" are comments (keep-alives); only data lines carry the message.
        const data = event.split(/\r?\n/).filter((line) => line.startsWith("data:")).map((line) => line.slice(5).trimStart());
        if (data.length > 0) this.queue.push(JSON.parse(data.join("\n")) as Message);
      }
    }
  }

  async cancel(): Promise<void> {
    await this.reader.cancel().catch(() => {});
  }
}

/** The messages of one POST's answer, whether a single JSON body or an SSE stream. */
async function messagesOf(response: Response): Promise<Message[]> {
  const type = response.headers.get("content-type") ?? "";
  if (type.includes("application/json")) return [(await response.json()) as Message];
  if (type.includes("text/event-stream")) {
    const reader = new SseReader(response.body!);
    const messages: Message[] = [];
    for (let message = await reader.next("message"); message !== undefined; message = await reader.next("message")) {
      messages.push(message);
      if (message.method === undefined) break; // the response ends the request's stream
    }
    await reader.cancel();
    return messages;
  }
  await response.body?.cancel();
  return [];
}

let httpId = 1;

/** POSTs a modern request with the standard headers; resolves with the HTTP status and the response message. */
async function postModern(url: string, method: string, params: Record<string, unknown>, name?: string): Promise<{ status: number; message: Message }> {
  const id = httpId++;
  const response = await fetch(url, {
    method: "POST",
    headers: modernHeaders(method, name),
    body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
    signal: AbortSignal.timeout(WAIT_MS),
  });
  const messages = await messagesOf(response);
  const message = messages.find((m) => m.method === undefined);
  assert.ok(message, `POST ${method}: no JSON-RPC response in the ${response.status} answer`);
  assert.equal(message.id, id);
  return { status: response.status, message };
}

// ---------------------------------------------------------------------------------------------

describe("modern fixture over stdio, --era modern", () => {
  let server: ModernServerProcess;
  let wire: StdioWire;

  before(() => {
    server = startModernStdio("modern");
    wire = new StdioWire(server.child);
  });
  after(async () => {
    await server.stop();
  });

  test("server/discover answers the supported versions, capabilities, serverInfo and cache hints", async () => {
    const { result, error } = await wire.request("server/discover", { _meta: meta() });
    assert.equal(error, undefined);
    assert.equal(result?.["resultType"], "complete");
    assert.deepEqual(result?.["supportedVersions"], [VERSION]);
    const capabilities = result?.["capabilities"] as Record<string, Record<string, unknown>>;
    assert.deepEqual(capabilities["tools"], { listChanged: true });
    assert.deepEqual(capabilities["resources"], { subscribe: true, listChanged: true });
    assert.ok(capabilities["prompts"] !== undefined);
    assert.deepEqual(serverInfoOf(result), { name: "mcpwire-modern-fixture", version: "1.0.0" });
    assert.equal(typeof result?.["instructions"], "string");
    // spec 2026-07-28 server/utilities/caching: server/discover is cacheable
    assert.equal(result?.["ttlMs"], 60_000);
    assert.equal(result?.["cacheScope"], "public");
  });

  test("tools/list is cacheable (ttlMs, cacheScope) and shows the idempotent and the non-idempotent tools", async () => {
    const { result } = await wire.request("tools/list", { _meta: meta() });
    assert.equal(result?.["resultType"], "complete");
    assert.equal(result?.["ttlMs"], 60_000);
    assert.equal(result?.["cacheScope"], "public");
    const tools = result?.["tools"] as { name: string; annotations?: Record<string, unknown>; outputSchema?: unknown }[];
    const names = tools.map((tool) => tool.name);
    for (
      const name of [
        "echo",
        "add",
        "ask_name",
        "ask_model",
        "ask_roots",
        "two_rounds",
        "add_tool",
        "touch",
        "log_demo",
        "progress_demo",
        "region_echo",
        "shutdown",
      ]
    ) {
      assert.ok(names.includes(name), `tool ${name} missing from ${names.join(", ")}`);
    }
    assert.equal(tools.find((tool) => tool.name === "echo")?.annotations?.["idempotentHint"], true);
    assert.equal(tools.find((tool) => tool.name === "touch")?.annotations?.["idempotentHint"], false);
    assert.ok(tools.find((tool) => tool.name === "add")?.outputSchema !== undefined);
  });

  test("tools/call with the per-request _meta answers resultType complete, structuredContent and serverInfo", async () => {
    const { result, error } = await wire.request("tools/call", { name: "add", arguments: { a: 2, b: 3 }, _meta: meta() });
    assert.equal(error, undefined);
    assert.equal(result?.["resultType"], "complete");
    assert.deepEqual(result?.["structuredContent"], { sum: 5 });
    assert.equal(textOf(result), "5");
    assert.deepEqual(serverInfoOf(result), { name: "mcpwire-modern-fixture", version: "1.0.0" });
  });

  test("a version the server does not speak is answered -32022 with data.supported", async () => {
    const { error } = await wire.request("tools/call", { name: "echo", arguments: { message: "x" }, _meta: meta({}, "1900-01-01") });
    assert.equal(error?.code, -32022);
    assert.deepEqual(error?.data?.["supported"], [VERSION]);
    assert.equal(error?.data?.["requested"], "1900-01-01");
  });

  test("initialize (a legacy client) is answered -32022 naming the supported modern versions", async () => {
    const { error, result } = await wire.request("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: CLIENT_INFO,
    });
    assert.equal(result, undefined);
    assert.equal(error?.code, -32022);
    assert.deepEqual(error?.data?.["supported"], [VERSION]);
    assert.equal(error?.data?.["requested"], "2025-11-25");
  });

  test("ping is gone from the modern wire: method not found", async () => {
    const { error } = await wire.request("ping", { _meta: meta() });
    assert.equal(error?.code, -32601);
  });

  test("ask_name: input_required with an elicitation and a requestState, then the retry with inputResponses completes", async () => {
    const first = await wire.request("tools/call", { name: "ask_name", arguments: {}, _meta: meta(ALL_INPUT) });
    assert.equal(first.result?.["resultType"], "input_required");
    const inputRequests = first.result?.["inputRequests"] as Record<string, { method: string; params: Record<string, unknown> }>;
    assert.equal(inputRequests["name"]?.method, "elicitation/create");
    assert.equal(inputRequests["name"]?.params["mode"], "form");
    const requestState = first.result?.["requestState"];
    assert.equal(typeof requestState, "string");
    // spec mrtr: interim results are not cacheable and carry no cache hints
    assert.equal(first.result?.["ttlMs"], undefined);

    // The retry is a new request (new id) with the original params, inputResponses and the exact requestState.
    const retry = await wire.request("tools/call", {
      name: "ask_name",
      arguments: {},
      inputResponses: { name: { action: "accept", content: { name: "Ada" } } },
      requestState,
      _meta: meta(ALL_INPUT),
    });
    assert.equal(retry.result?.["resultType"], "complete");
    assert.equal(textOf(retry.result), "Hello, Ada");
  });

  test("ask_name: a retry without the requestState is asked again; a forged one is refused -32602", async () => {
    const first = await wire.request("tools/call", { name: "ask_name", arguments: {}, _meta: meta(ALL_INPUT) });
    const requestState = String(first.result?.["requestState"]);
    const inputResponses = { name: { action: "accept", content: { name: "Ada" } } };

    const without = await wire.request("tools/call", { name: "ask_name", arguments: {}, inputResponses, _meta: meta(ALL_INPUT) });
    assert.equal(without.result?.["resultType"], "input_required");

    const forged = requestState.slice(0, -4) + (requestState.endsWith("AAAA") ? "BBBB" : "AAAA");
    const tampered = await wire.request("tools/call", { name: "ask_name", arguments: {}, inputResponses, requestState: forged, _meta: meta(ALL_INPUT) });
    assert.equal(tampered.error?.code, -32602);
  });

  test("ask_model and ask_roots: one round each, with sampling/createMessage and roots/list", async () => {
    const model = await wire.request("tools/call", { name: "ask_model", arguments: {}, _meta: meta(ALL_INPUT) });
    const sampling = (model.result?.["inputRequests"] as Record<string, { method: string }>)["question"];
    assert.equal(sampling?.method, "sampling/createMessage");
    const modelDone = await wire.request("tools/call", {
      name: "ask_model",
      arguments: {},
      inputResponses: { question: { role: "assistant", content: { type: "text", text: "Paris" }, model: "test-model", stopReason: "endTurn" } },
      requestState: model.result?.["requestState"],
      _meta: meta(ALL_INPUT),
    });
    assert.equal(textOf(modelDone.result), "The model (test-model) said: Paris");

    const roots = await wire.request("tools/call", { name: "ask_roots", arguments: {}, _meta: meta(ALL_INPUT) });
    assert.equal((roots.result?.["inputRequests"] as Record<string, { method: string }>)["roots"]?.method, "roots/list");
    const rootsDone = await wire.request("tools/call", {
      name: "ask_roots",
      arguments: {},
      inputResponses: { roots: { roots: [{ uri: "file:///tmp/project", name: "project" }] } },
      requestState: roots.result?.["requestState"],
      _meta: meta(ALL_INPUT),
    });
    assert.equal(textOf(rootsDone.result), "Roots: file:///tmp/project");
  });

  test("an input request the client did not declare a capability for is refused -32021", async () => {
    const { error } = await wire.request("tools/call", { name: "ask_model", arguments: {}, _meta: meta({ elicitation: {} }) });
    assert.equal(error?.code, -32021);
    assert.deepEqual(error?.data?.["requiredCapabilities"], { sampling: {} });
  });

  test("two_rounds needs two rounds of input, each with a fresh requestState", async () => {
    const params = (extra: Record<string, unknown>) => ({ name: "two_rounds", arguments: {}, ...extra, _meta: meta(ALL_INPUT) });
    const round1 = await wire.request("tools/call", params({}));
    assert.equal(round1.result?.["resultType"], "input_required");
    assert.deepEqual(Object.keys(round1.result?.["inputRequests"] as object), ["first"]);
    const round2 = await wire.request(
      "tools/call",
      params({ inputResponses: { first: { action: "accept", content: { first: "alpha" } } }, requestState: round1.result?.["requestState"] }),
    );
    assert.equal(round2.result?.["resultType"], "input_required");
    assert.deepEqual(Object.keys(round2.result?.["inputRequests"] as object), ["second"]);
    assert.notEqual(round2.result?.["requestState"], round1.result?.["requestState"]);
    const done = await wire.request(
      "tools/call",
      params({ inputResponses: { second: { action: "accept", content: { second: "beta" } } }, requestState: round2.result?.["requestState"] }),
    );
    assert.equal(done.result?.["resultType"], "complete");
    assert.equal(textOf(done.result), "two_rounds done after 2 rounds of input: alpha, beta");
  });

  test("subscriptions/listen: acknowledged first, then list_changed after add_tool and resources/updated after touch", async () => {
    const listenId = "listen-1";
    wire.send({
      id: listenId,
      method: "subscriptions/listen",
      params: {
        notifications: { toolsListChanged: true, resourceSubscriptions: ["mcpwire://modern/counter"] },
        _meta: meta(),
      },
    });
    const ack = await wire.take((m) => m.method === "notifications/subscriptions/acknowledged" && subscriptionIdOf(m) === listenId, "acknowledgement");
    assert.deepEqual(ack.params?.["notifications"], { toolsListChanged: true, resourceSubscriptions: ["mcpwire://modern/counter"] });

    const added = await wire.request("tools/call", { name: "add_tool", arguments: { name: "late_stdio" }, _meta: meta() });
    assert.equal(textOf(added.result), "added tool late_stdio");
    await wire.take((m) => m.method === "notifications/tools/list_changed" && subscriptionIdOf(m) === listenId, "tools/list_changed");
    const { result } = await wire.request("tools/list", { _meta: meta() });
    assert.ok((result?.["tools"] as { name: string }[]).some((tool) => tool.name === "late_stdio"));

    await wire.request("tools/call", { name: "touch", arguments: {}, _meta: meta() });
    const updated = await wire.take((m) => m.method === "notifications/resources/updated" && subscriptionIdOf(m) === listenId, "resources/updated");
    assert.equal(updated.params?.["uri"], "mcpwire://modern/counter");
    const read = await wire.request("resources/read", { uri: "mcpwire://modern/counter", _meta: meta() });
    const contents = read.result?.["contents"] as { text: string }[];
    assert.match(contents[0]?.text ?? "", /^count=\d+$/);
    assert.equal(read.result?.["ttlMs"], 0);
    assert.equal(read.result?.["cacheScope"], "private");

    // spec subscriptions "Cancellation": on stdio the client ends it with notifications/cancelled.
    wire.send({ method: "notifications/cancelled", params: { requestId: listenId } });
  });

  test("notifications/message only for a request whose _meta names a logLevel, filtered by it", async () => {
    const quiet = await wire.request("tools/call", { name: "log_demo", arguments: {}, _meta: meta() });
    assert.equal(textOf(quiet.result), "logged");
    const loud = await wire.request("tools/call", { name: "log_demo", arguments: {}, _meta: { ...meta(), "io.modelcontextprotocol/logLevel": "info" } });
    assert.equal(textOf(loud.result), "logged");
    // The info line of the second call arrived before its response; the debug line never does, nor anything for the first call.
    const logs = wire.untaken.filter((m) => m.method === "notifications/message");
    assert.deepEqual(logs.map((m) => m.params?.["data"]), ["log_demo: an info line"]);
    // logging/setLevel is gone from the modern wire
    assert.equal((await wire.request("logging/setLevel", { level: "debug", _meta: meta() })).error?.code, -32601);
  });

  test("a server ending on its own initiative answers its open listen request with a complete result, then exits", async () => {
    const listenId = "listen-last";
    wire.send({ id: listenId, method: "subscriptions/listen", params: { notifications: { toolsListChanged: true }, _meta: meta() } });
    await wire.take((m) => m.method === "notifications/subscriptions/acknowledged" && subscriptionIdOf(m) === listenId, "acknowledgement");
    const exited = exitOf(server.child);
    const answer = await wire.request("tools/call", { name: "shutdown", arguments: {}, _meta: meta() });
    assert.equal(textOf(answer.result), "shutting down");
    // spec subscriptions "Graceful Closure": the response to the listen request, tagged with its id
    const closing = await wire.take((m) => m.id === listenId, "the listen response");
    assert.equal(closing.result?.["resultType"], "complete");
    assert.equal(subscriptionIdOf(closing), listenId);
    assert.equal(await exited, 0);
  });
});

describe("modern fixture over stdio, --era dual", () => {
  let server: ModernServerProcess;
  let wire: StdioWire;

  before(() => {
    server = startModernStdio("dual");
    wire = new StdioWire(server.child);
  });
  after(async () => {
    await server.stop();
  });

  test("a discover probe answers modern; an initialize after it selects the legacy era for the connection", async () => {
    const discover = await wire.request("server/discover", { _meta: meta() });
    assert.deepEqual(discover.result?.["supportedVersions"], [VERSION]);

    const init = await wire.request("initialize", { protocolVersion: "2025-11-25", capabilities: { elicitation: {} }, clientInfo: CLIENT_INFO });
    assert.equal(init.error, undefined);
    assert.equal(init.result?.["protocolVersion"], "2025-11-25");
    assert.deepEqual(init.result?.["serverInfo"], { name: "mcpwire-modern-fixture", version: "1.0.0" });
    wire.send({ method: "notifications/initialized" });

    const list = await wire.request("tools/list", {});
    assert.equal(list.result?.["resultType"], undefined, "a legacy answer has no resultType");
    assert.equal(list.result?.["ttlMs"], undefined, "and no cache hints");
  });

  test("on the legacy era an MRTR tool asks with a real elicitation/create request instead", async () => {
    const call = wire.request("tools/call", { name: "ask_name", arguments: {} });
    const ask = await wire.take((m) => m.method === "elicitation/create" && m.id !== undefined, "elicitation/create request");
    assert.equal(ask.params?.["message"], "What is your name?");
    wire.send({ id: ask.id, result: { action: "accept", content: { name: "Grace" } } } as Omit<Message, "jsonrpc">);
    const { result } = await call;
    assert.equal(textOf(result), "Hello, Grace");
  });

  test("closing stdin makes the server exit by itself", async () => {
    const exited = exitOf(server.child);
    server.child.stdin!.end();
    assert.equal(await exited, 0);
  });
});

describe("modern fixture over Streamable HTTP, --era modern", () => {
  let server: ModernHttpServer;

  before(async () => {
    server = await startModernHttp("modern");
  });
  after(async () => {
    await server.stop();
  });

  test("server/discover with MCP-Protocol-Version and Mcp-Method answers 200 and the discover result", async () => {
    const { status, message } = await postModern(server.url, "server/discover", { _meta: meta() });
    assert.equal(status, 200);
    assert.deepEqual(message.result?.["supportedVersions"], [VERSION]);
    assert.equal(message.result?.["ttlMs"], 60_000);
    assert.deepEqual(serverInfoOf(message.result), { name: "mcpwire-modern-fixture", version: "1.0.0" });
  });

  test("tools/call needs Mcp-Name: without it 400 and -32020 (HeaderMismatch); with it the result", async () => {
    const params = { name: "echo", arguments: { message: "over http" }, _meta: meta() };
    const missing = await postModern(server.url, "tools/call", params);
    assert.equal(missing.status, 400);
    assert.equal(missing.message.error?.code, -32020);

    const wrong = await postModern(server.url, "tools/call", params, "add");
    assert.equal(wrong.status, 400);
    assert.equal(wrong.message.error?.code, -32020);

    const ok = await postModern(server.url, "tools/call", params, "echo");
    assert.equal(ok.status, 200);
    assert.equal(ok.message.result?.["resultType"], "complete");
    assert.equal(textOf(ok.message.result), "over http");
  });

  test("a MCP-Protocol-Version header that differs from _meta is refused 400", async () => {
    const response = await fetch(server.url, {
      method: "POST",
      headers: { ...modernHeaders("tools/list"), "MCP-Protocol-Version": "2025-11-25" },
      body: JSON.stringify({ jsonrpc: "2.0", id: "mismatch", method: "tools/list", params: { _meta: meta() } }),
      signal: AbortSignal.timeout(WAIT_MS),
    });
    assert.equal(response.status, 400);
    const [message] = await messagesOf(response);
    assert.equal(message?.error?.code, -32020);
  });

  test("a version the server does not speak (header and _meta agree) is answered 400 with -32022 and data.supported", async () => {
    const response = await fetch(server.url, {
      method: "POST",
      headers: { ...modernHeaders("tools/list"), "MCP-Protocol-Version": "1900-01-01" },
      body: JSON.stringify({ jsonrpc: "2.0", id: "old", method: "tools/list", params: { _meta: meta({}, "1900-01-01") } }),
      signal: AbortSignal.timeout(WAIT_MS),
    });
    assert.equal(response.status, 400);
    const [message] = await messagesOf(response);
    assert.equal(message?.error?.code, -32022);
    assert.deepEqual(message?.error?.data?.["supported"], [VERSION]);
  });

  test("x-mcp-header: region_echo needs Mcp-Param-Region mirroring the argument (plain or =?base64?…?=)", async () => {
    const listed = await postModern(server.url, "tools/list", { _meta: meta() });
    const tool = (listed.message.result?.["tools"] as { name: string; inputSchema: { properties: Record<string, Record<string, unknown>> } }[])
      .find((candidate) => candidate.name === "region_echo");
    assert.equal(tool?.inputSchema.properties["region"]?.["x-mcp-header"], "Region");

    const call = (region: string, header?: string) =>
      fetch(server.url, {
        method: "POST",
        headers: { ...modernHeaders("tools/call", "region_echo"), ...(header === undefined ? {} : { "Mcp-Param-Region": header }) },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: `region-${header ?? "none"}`,
          method: "tools/call",
          params: { name: "region_echo", arguments: { region }, _meta: meta() },
        }),
        signal: AbortSignal.timeout(WAIT_MS),
      });
    const missing = await call("us-west1");
    assert.equal(missing.status, 400);
    assert.equal((await messagesOf(missing))[0]?.error?.code, -32020);

    const plain = await call("us-west1", "us-west1");
    assert.equal(plain.status, 200);
    assert.equal(textOf((await messagesOf(plain))[0]?.result), "region=us-west1");

    // Leading/trailing spaces are not header-safe: the client sends the Base64 sentinel form.
    const padded = await call(" padded ", `=?base64?${btoa(" padded ")}?=`);
    assert.equal(padded.status, 200);
    assert.equal(textOf((await messagesOf(padded))[0]?.result), "region= padded ");
  });

  test("progress and log notifications travel on the request's own SSE stream, before its response", async () => {
    const response = await fetch(server.url, {
      method: "POST",
      headers: modernHeaders("tools/call", "progress_demo"),
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: "progress",
        method: "tools/call",
        params: { name: "progress_demo", arguments: {}, _meta: { ...meta(), progressToken: "p-1" } },
      }),
      signal: AbortSignal.timeout(WAIT_MS),
    });
    assert.match(response.headers.get("content-type") ?? "", /text\/event-stream/);
    const messages = await messagesOf(response);
    assert.deepEqual(messages.slice(0, -1).map((m) => m.params?.["progress"]), [1, 2, 3]);
    assert.equal(textOf(messages.at(-1)?.result), "done after 3 steps");

    const logged = await fetch(server.url, {
      method: "POST",
      headers: modernHeaders("tools/call", "log_demo"),
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: "log",
        method: "tools/call",
        params: { name: "log_demo", arguments: {}, _meta: { ...meta(), "io.modelcontextprotocol/logLevel": "debug" } },
      }),
      signal: AbortSignal.timeout(WAIT_MS),
    });
    const logMessages = await messagesOf(logged);
    assert.deepEqual(logMessages.filter((m) => m.method === "notifications/message").map((m) => m.params?.["level"]), ["debug", "info"]);
  });

  test("tools/list over HTTP carries ttlMs and cacheScope", async () => {
    const { message } = await postModern(server.url, "tools/list", { _meta: meta() });
    assert.equal(message.result?.["ttlMs"], 60_000);
    assert.equal(message.result?.["cacheScope"], "public");
  });

  test("an input_required round trip over HTTP: two independent POSTs, the second with inputResponses and requestState", async () => {
    const first = await postModern(server.url, "tools/call", { name: "ask_name", arguments: {}, _meta: meta(ALL_INPUT) }, "ask_name");
    assert.equal(first.status, 200);
    assert.equal(first.message.result?.["resultType"], "input_required");
    const retry = await postModern(
      server.url,
      "tools/call",
      {
        name: "ask_name",
        arguments: {},
        inputResponses: { name: { action: "accept", content: { name: "Lin" } } },
        requestState: first.message.result?.["requestState"],
        _meta: meta(ALL_INPUT),
      },
      "ask_name",
    );
    assert.equal(textOf(retry.message.result), "Hello, Lin");
  });

  test("subscriptions/listen is an SSE response stream: the acknowledgement, then list_changed after add_tool", async () => {
    const abort = new AbortController();
    const listenId = "listen-http";
    const response = await fetch(server.url, {
      method: "POST",
      headers: modernHeaders("subscriptions/listen"),
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: listenId,
        method: "subscriptions/listen",
        params: { notifications: { toolsListChanged: true, resourceSubscriptions: ["mcpwire://modern/counter"] }, _meta: meta() },
      }),
      signal: abort.signal,
    });
    const stream = new SseReader(response.body!);
    try {
      assert.equal(response.status, 200);
      assert.match(response.headers.get("content-type") ?? "", /text\/event-stream/);
      const ack = await stream.next("acknowledgement");
      assert.equal(ack?.method, "notifications/subscriptions/acknowledged");
      assert.equal(subscriptionIdOf(ack!), listenId);

      const added = await postModern(server.url, "tools/call", { name: "add_tool", arguments: { name: "late_http" }, _meta: meta() }, "add_tool");
      assert.equal(textOf(added.message.result), "added tool late_http");
      const changed = await stream.next("tools/list_changed");
      assert.equal(changed?.method, "notifications/tools/list_changed");
      assert.equal(subscriptionIdOf(changed!), listenId);

      await postModern(server.url, "tools/call", { name: "touch", arguments: {}, _meta: meta() }, "touch");
      const updated = await stream.next("resources/updated");
      assert.equal(updated?.method, "notifications/resources/updated");
      assert.equal(updated?.params?.["uri"], "mcpwire://modern/counter");

      // A fresh instance answers every POST, yet the new tool is there: the list is the server's, not a session's.
      const { message } = await postModern(server.url, "tools/list", { _meta: meta() });
      assert.ok((message.result?.["tools"] as { name: string }[]).some((tool) => tool.name === "late_http"));
    } finally {
      // spec streamable-http "Cancellation": closing the response stream ends the subscription.
      abort.abort();
      await stream.cancel();
    }
  });

  test("a legacy client is refused: initialize gets 400 with -32022 naming 2026-07-28, GET gets 405, ping 404", async () => {
    const init = await fetch(server.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: CLIENT_INFO },
      }),
      signal: AbortSignal.timeout(WAIT_MS),
    });
    assert.equal(init.status, 400);
    const [refusal] = await messagesOf(init);
    assert.equal(refusal?.error?.code, -32022);
    assert.deepEqual(refusal?.error?.data?.["supported"], [VERSION]);

    const get = await fetch(server.url, { headers: { Accept: "text/event-stream" }, signal: AbortSignal.timeout(WAIT_MS) });
    await get.body?.cancel();
    assert.equal(get.status, 405);

    const ping = await postModern(server.url, "ping", { _meta: meta() });
    assert.equal(ping.status, 404);
    assert.equal(ping.message.error?.code, -32601);
  });

  test("an Origin that is not local is refused 403 (DNS-rebinding guard)", async () => {
    const response = await fetch(server.url, {
      method: "POST",
      headers: { ...modernHeaders("server/discover"), Origin: "https://attacker.example" },
      body: JSON.stringify({ jsonrpc: "2.0", id: "origin", method: "server/discover", params: { _meta: meta() } }),
      signal: AbortSignal.timeout(WAIT_MS),
    });
    await response.body?.cancel();
    assert.equal(response.status, 403);
  });

  test("a server ending on its own initiative closes the listen stream with the listen response", async () => {
    const listenId = "listen-http-last";
    const response = await fetch(server.url, {
      method: "POST",
      headers: modernHeaders("subscriptions/listen"),
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: listenId,
        method: "subscriptions/listen",
        params: { notifications: { toolsListChanged: true }, _meta: meta() },
      }),
      signal: AbortSignal.timeout(WAIT_MS),
    });
    const stream = new SseReader(response.body!);
    try {
      assert.equal((await stream.next("acknowledgement"))?.method, "notifications/subscriptions/acknowledged");
      const exited = exitOf(server.child);
      await postModern(server.url, "tools/call", { name: "shutdown", arguments: {}, _meta: meta() }, "shutdown");
      const closing = await stream.next("the listen response");
      assert.equal(closing?.id, listenId);
      assert.equal(closing?.result?.["resultType"], "complete");
      assert.equal(subscriptionIdOf(closing!), listenId);
      assert.equal(await stream.next("the end of the stream"), undefined);
      assert.equal(await exited, 0);
    } finally {
      await stream.cancel();
    }
  });
});

describe("modern fixture over Streamable HTTP, --era dual", () => {
  let server: ModernHttpServer;

  before(async () => {
    server = await startModernHttp("dual");
  });
  after(async () => {
    await server.stop();
  });

  test("initialize is answered (stateless legacy serving, no session id) and discover still answers modern", async () => {
    const init = await fetch(server.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: CLIENT_INFO },
      }),
      signal: AbortSignal.timeout(WAIT_MS),
    });
    assert.equal(init.status, 200);
    assert.equal(init.headers.get("mcp-session-id"), null);
    const [answer] = await messagesOf(init);
    assert.equal(answer?.result?.["protocolVersion"], "2025-11-25");

    const discover = await postModern(server.url, "server/discover", { _meta: meta() });
    assert.deepEqual(discover.message.result?.["supportedVersions"], [VERSION]);
  });

  test("a legacy MRTR tool cannot ask over stateless legacy HTTP: an isError result says why", async () => {
    const response = await fetch(server.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "ask_name", arguments: {} } }),
      signal: AbortSignal.timeout(WAIT_MS),
    });
    const answer = (await messagesOf(response)).find((message) => message.id === 2);
    assert.equal(answer?.result?.["isError"], true);
    assert.match(textOf(answer?.result), /elicitation\/create/);
  });
});
