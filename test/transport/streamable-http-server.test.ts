// The server side of Streamable HTTP at the transport level (StreamableHttpEndpoint), behind a
// real listener on 127.0.0.1, serving a tiny echo built on Peer: JSON or SSE answers, 202, the
// checks of a POST, sessions (ids, 400, 404 after DELETE, bounded, idle-timed-out), the GET
// stream resumed with Last-Event-ID, cancellation, and the stateless 2026-07-28 Transport shared
// by hosts whose request ids collide — spec 2025-11-25 basic/transports, spec 2026-07-28
// basic/transports/streamable-http.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Peer } from "../../src/jsonrpc/peer.ts";
import { runtime } from "../../src/runtime/mod.ts";
import type { HttpListener } from "../../src/runtime/types.ts";
import { StreamableHttpEndpoint, type StreamableHttpEndpointOptions } from "../../src/transport/streamable-http/server-endpoint.ts";
import type { Transport } from "../../src/transport/transport.ts";

/** What the echo saw: the transports it served, the requests it took and those that were cancelled. */
interface Echo {
  transports: Transport[];
  calls: { method: string; id: string | number }[];
  cancelled: string[];
  release: Map<string, () => void>;
}

/** A tiny server on Peer: initialize, echo, chatty (two notifications first), hang (until cancelled), later (until released). */
function echoServer(echo: Echo) {
  return (transport: Transport): Promise<void> => {
    echo.transports.push(transport);
    const peer = new Peer({ name: "echo", send: (message, options) => transport.send(message, options) });
    transport.onmessage = (message) => peer.receive(message);
    transport.onclose = (details) => peer.close(details);
    peer.setRequestHandler(
      "initialize",
      (params) => ({ protocolVersion: params?.protocolVersion ?? "2025-11-25", capabilities: {}, serverInfo: { name: "echo", version: "1" } }),
    );
    peer.setRequestHandler("echo", (params, context) => {
      echo.calls.push({ method: "echo", id: context.requestId });
      return { echoed: params ?? {} };
    });
    peer.setRequestHandler("chatty", async (_params, context) => {
      for (const n of [1, 2]) {
        await transport.send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "t", progress: n } }, {
          relatedRequestId: context.requestId,
        });
      }
      return { done: true };
    });
    peer.setRequestHandler("hang", async (params, context) => {
      if (params?.chatty === true) {
        await transport.send({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "working" } }, {
          relatedRequestId: context.requestId,
        });
      }
      await new Promise((resolve) => context.signal.addEventListener("abort", resolve, { once: true }));
      echo.cancelled.push(String(params?.tag));
      return {};
    });
    peer.setRequestHandler("later", async (params, context) => {
      echo.calls.push({ method: "later", id: context.requestId });
      await new Promise<void>((resolve) => echo.release.set(String(params?.tag), resolve));
      return { tag: params?.tag };
    });
    return transport.start();
  };
}

const ACCEPT = "application/json, text/event-stream";

/** Reads SSE events from a response body; `next()` resolves with the next one (bounded: 5 s). */
function sseReader(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  return {
    async next(): Promise<{ id?: string; data: string } | undefined> {
      const deadline = Date.now() + 5000;
      for (;;) {
        const end = buffer.indexOf("\n\n");
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith(":")) continue; // a keep-alive comment
          const event: { id?: string; data: string } = { data: "" };
          for (const line of block.split("\n")) {
            if (line.startsWith("id: ")) event.id = line.slice(4);
            if (line.startsWith("data: ")) event.data += line.slice(6);
          }
          return event;
        }
        if (Date.now() > deadline) assert.fail("no SSE event within 5 s");
        const { done, value } = await reader.read();
        if (done) return undefined;
        buffer += decoder.decode(value, { stream: true });
      }
    },
    cancel: () => reader.cancel().catch(() => {}),
  };
}

async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.fail(`timed out waiting for ${what}`);
}

/** An endpoint behind a listener; the handler routes by HTTP method and era (2026-07-28 when the header says so). */
async function serve(options: Partial<StreamableHttpEndpointOptions> = {}) {
  const echo: Echo = { transports: [], calls: [], cancelled: [], release: new Map() };
  const endpoint = new StreamableHttpEndpoint({ connect: echoServer(echo), ...options });
  const listener: HttpListener = await runtime.listenHttp({ port: 0 }, async (request) => {
    if (request.method === "GET") return endpoint.get(request);
    if (request.method === "DELETE") return endpoint.delete(request);
    const parsed = await endpoint.parse(request);
    if (parsed.reply) return parsed.reply;
    if (request.headers.get("mcp-protocol-version") === "2026-07-28") {
      return endpoint.stateless(request, parsed.message, (answer) => ("error" in answer ? 400 : 200));
    }
    return endpoint.handshake(request, parsed.message);
  });
  const url = `http://127.0.0.1:${listener.port}/mcp`;
  const post = (body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) =>
    fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: ACCEPT, ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
      ...(signal ? { signal } : {}),
    });
  const initialize = async (version = "2025-11-25") => {
    const response = await post({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
    assert.equal(response.status, 200);
    await response.json();
    return response.headers.get("mcp-session-id")!;
  };
  return {
    echo,
    endpoint,
    url,
    post,
    initialize,
    close: async () => {
      await endpoint.close();
      await listener.close();
    },
  };
}

describe("Streamable HTTP server side (handshake sessions)", () => {
  let server: Awaited<ReturnType<typeof serve>>;
  before(async () => (server = await serve({ maxBodyBytes: 4096, maxJsonDepth: 16 })));
  after(() => server.close());

  test("initialize opens a session whose id is visible ASCII; its answer is JSON; a notification is 202 with no body", async () => {
    const id = await server.initialize();
    assert.match(id, /^[\x21-\x7e]{20,}$/);
    const note = await server.post({ jsonrpc: "2.0", method: "notifications/initialized" }, { "mcp-session-id": id });
    assert.equal(note.status, 202);
    assert.equal(await note.text(), "");
    const answer = await server.post({ jsonrpc: "2.0", id: 7, method: "echo", params: { x: 1 } }, { "mcp-session-id": id });
    assert.equal(answer.headers.get("content-type"), "application/json");
    assert.deepEqual(await answer.json(), { jsonrpc: "2.0", id: 7, result: { echoed: { x: 1 } } });
  });

  test("each session gets its own id; a request without one is 400, with an unknown one 404", async () => {
    const [a, b] = [await server.initialize(), await server.initialize()];
    assert.notEqual(a, b);
    const missing = await server.post({ jsonrpc: "2.0", id: 1, method: "echo" });
    assert.equal(missing.status, 400);
    assert.equal((await missing.json()).id, 1);
    const unknown = await server.post({ jsonrpc: "2.0", id: 2, method: "echo" }, { "mcp-session-id": "no-such-session" });
    assert.equal(unknown.status, 404);
    assert.equal((await unknown.json()).id, 2);
  });

  test("messages related to a request come first on an SSE stream, each with an id, then its answer, then the stream ends", async () => {
    const id = await server.initialize();
    const response = await server.post({ jsonrpc: "2.0", id: 3, method: "chatty" }, { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" });
    assert.equal(response.headers.get("content-type"), "text/event-stream");
    assert.equal(response.headers.get("mcp-session-id"), id);
    const events = sseReader(response);
    const priming = await events.next();
    assert.equal(priming?.data, "");
    const seen: { id?: string; data: string }[] = [];
    for (let event = await events.next(); event !== undefined; event = await events.next()) seen.push(event);
    assert.deepEqual(seen.map((event) => JSON.parse(event.data).method ?? JSON.parse(event.data).id), ["notifications/progress", "notifications/progress", 3]);
    const ids = [priming!.id, ...seen.map((event) => event.id)];
    assert.equal(new Set(ids).size, 4, `event ids are unique: ${ids.join(" ")}`);
  });

  test("the GET stream carries what is sent with no related request; after a drop, Last-Event-ID replays exactly what was missed", async () => {
    const id = await server.initialize();
    const transport = server.echo.transports.at(-1)!;
    const get = () => fetch(server.url, { headers: { accept: "text/event-stream", "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" } });
    const first = await get();
    assert.equal(first.headers.get("content-type"), "text/event-stream");
    const events = sseReader(first);
    await events.next(); // priming
    await transport.send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    const seen = await events.next();
    assert.equal(JSON.parse(seen!.data).method, "notifications/tools/list_changed");
    await events.cancel();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await transport.send({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "missed 1" } });
    await transport.send({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "missed 2" } });
    const resumed = await fetch(server.url, { headers: { accept: "text/event-stream", "mcp-session-id": id, "last-event-id": seen!.id! } });
    assert.equal(resumed.status, 200);
    const replay = sseReader(resumed);
    assert.equal(JSON.parse((await replay.next())!.data).params.data, "missed 1");
    assert.equal(JSON.parse((await replay.next())!.data).params.data, "missed 2");
    // And live again after the replay.
    await transport.send({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "live" } });
    assert.equal(JSON.parse((await replay.next())!.data).params.data, "live");
    await replay.cancel();
    const bad = await fetch(server.url, { headers: { accept: "text/event-stream", "mcp-session-id": id, "last-event-id": "zz-1" } });
    assert.equal(bad.status, 400);
    await bad.body?.cancel();
  });

  test("a request's SSE stream dropped before its answer is resumed with Last-Event-ID and ends with the answer", async () => {
    const id = await server.initialize();
    const aborter = new AbortController();
    const response = await server.post({ jsonrpc: "2.0", id: 4, method: "hang", params: { chatty: true, tag: "resume" } }, {
      "mcp-session-id": id,
      "mcp-protocol-version": "2025-11-25",
    }, aborter.signal);
    const events = sseReader(response);
    await events.next(); // priming
    const note = await events.next();
    assert.equal(JSON.parse(note!.data).method, "notifications/message");
    aborter.abort();
    await events.cancel();
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(server.echo.cancelled.filter((tag) => tag === "resume"), [], "a disconnection is not a cancellation");
    // Cancel it now: the answer goes into the stream's log, and the resumed stream ends with it.
    const cancel = await server.post({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 4 } }, { "mcp-session-id": id });
    assert.equal(cancel.status, 202);
    await until("the handler to see the cancellation", () => server.echo.cancelled.includes("resume"));
    const resumed = await fetch(server.url, { headers: { accept: "text/event-stream", "mcp-session-id": id, "last-event-id": note!.id! } });
    assert.equal(resumed.status, 200);
    const replay = sseReader(resumed);
    assert.equal(await replay.next(), undefined, "a cancelled request's stream ends with no answer");
  });

  test("notifications/cancelled closes the request's open stream", async () => {
    const id = await server.initialize();
    const response = await server.post({ jsonrpc: "2.0", id: 5, method: "hang", params: { chatty: true, tag: "live-cancel" } }, { "mcp-session-id": id });
    const events = sseReader(response);
    assert.equal(JSON.parse((await events.next())!.data).method, "notifications/message");
    await server.post({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 5 } }, { "mcp-session-id": id });
    assert.equal(await events.next(), undefined);
    await until("the handler to be cancelled", () => server.echo.cancelled.includes("live-cancel"));
  });

  test("DELETE ends the session: then its POST and GET are 404", async () => {
    const id = await server.initialize();
    const deleted = await fetch(server.url, { method: "DELETE", headers: { "mcp-session-id": id } });
    assert.equal(deleted.status, 200);
    assert.equal((await server.post({ jsonrpc: "2.0", id: 1, method: "echo" }, { "mcp-session-id": id })).status, 404);
    const get = await fetch(server.url, { headers: { accept: "text/event-stream", "mcp-session-id": id } });
    assert.equal(get.status, 404);
    await get.body?.cancel();
  });

  test("a POST is refused when it does not accept both types (406), is not JSON (415), is too large (413), too deep, not JSON-RPC or a batch (400)", async () => {
    const id = await server.initialize();
    const headers = { "mcp-session-id": id };
    const notAccepting = await fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", ...headers },
      body: "{}",
    });
    assert.equal(notAccepting.status, 406);
    const form = await fetch(server.url, { method: "POST", headers: { "content-type": "text/plain", accept: ACCEPT, ...headers }, body: "{}" });
    assert.equal(form.status, 415);
    assert.equal((await server.post({ jsonrpc: "2.0", id: 1, method: "echo", params: { pad: "x".repeat(5000) } }, headers)).status, 413);
    const deep = await server.post(`{"jsonrpc":"2.0","id":1,"method":"echo","params":${"[".repeat(40)}${"]".repeat(40)}}`, headers);
    assert.equal(deep.status, 400);
    assert.equal((await server.post("{not json", headers)).status, 400);
    assert.equal((await server.post({ hello: 1 }, headers)).status, 400);
    assert.equal((await server.post([{ jsonrpc: "2.0", id: 1, method: "echo" }], headers)).status, 400);
  });
});

describe("Streamable HTTP server side: bounds", () => {
  test("sessions are bounded: the one idle longest makes room; when all are busy, 503 with Retry-After", async () => {
    const server = await serve({ maxSessions: 2, retryAfterSeconds: 7 });
    try {
      const a = await server.initialize();
      const b = await server.initialize();
      const c = await server.initialize(); // a was idle longest: ended
      assert.equal((await server.post({ jsonrpc: "2.0", id: 1, method: "echo" }, { "mcp-session-id": a })).status, 404);
      assert.equal((await server.post({ jsonrpc: "2.0", id: 1, method: "echo" }, { "mcp-session-id": b })).status, 200);
      // Both open sessions busy (a GET stream each): no room.
      const streams = [];
      for (const id of [b, c]) {
        const get = await fetch(server.url, { headers: { accept: "text/event-stream", "mcp-session-id": id } });
        assert.equal(get.status, 200);
        streams.push(sseReader(get));
      }
      const refused = await server.post({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25" } });
      assert.equal(refused.status, 503);
      assert.equal(refused.headers.get("retry-after"), "7");
      await refused.body?.cancel();
      assert.equal(server.endpoint.sessionCount, 2);
      for (const stream of streams) await stream.cancel();
    } finally {
      await server.close();
    }
  });

  test("an open SSE stream gets a keep-alive comment every keepAliveMs, and a session with one open is not idle", async () => {
    const server = await serve({ keepAliveMs: 20, idleTimeoutMs: 40 });
    try {
      const id = await server.initialize();
      const get = await fetch(server.url, { headers: { accept: "text/event-stream", "mcp-session-id": id } });
      const reader = get.body!.getReader();
      let text = "";
      for (let i = 0; i < 50 && !text.includes(": keep-alive"); i++) text += new TextDecoder().decode((await reader.read()).value);
      assert.match(text, /^: keep-alive$/m);
      assert.equal(server.endpoint.sessionCount, 1, "busy with its GET stream: not ended as idle");
      await reader.cancel();
    } finally {
      await server.close();
    }
  });

  test("a session idle past idleTimeoutMs is ended (then 404)", async () => {
    const server = await serve({ idleTimeoutMs: 80, keepAliveMs: 20 });
    try {
      const id = await server.initialize();
      await until("the idle session to end", () => server.endpoint.sessionCount === 0);
      assert.equal((await server.post({ jsonrpc: "2.0", id: 1, method: "echo" }, { "mcp-session-id": id })).status, 404);
    } finally {
      await server.close();
    }
  });
});

describe("Streamable HTTP server side (stateless 2026-07-28)", () => {
  const modern = { "mcp-protocol-version": "2026-07-28" };

  test("two hosts using the same request id at once each get their own answer, under their own id", async () => {
    const server = await serve();
    try {
      const one = server.post({ jsonrpc: "2.0", id: 1, method: "later", params: { tag: "one" } }, modern);
      const two = server.post({ jsonrpc: "2.0", id: 1, method: "later", params: { tag: "two" } }, modern);
      await until("both requests to reach the server", () => server.echo.release.size === 2);
      const ids = server.echo.calls.filter((call) => call.method === "later").map((call) => call.id);
      assert.equal(new Set(ids).size, 2, `internal ids differ: ${ids.join(" ")}`);
      assert.equal(server.echo.transports.length, 1, "one shared Transport");
      server.echo.release.get("two")!();
      server.echo.release.get("one")!();
      const [a, b] = await Promise.all([one, two]);
      assert.deepEqual(await a.json(), { jsonrpc: "2.0", id: 1, result: { tag: "one" } });
      assert.deepEqual(await b.json(), { jsonrpc: "2.0", id: 1, result: { tag: "two" } });
      assert.equal(a.headers.get("mcp-session-id"), null, "no session id is ever issued");
    } finally {
      await server.close();
    }
  });

  test("a related notification turns the answer into a stream that ends after it, with no event ids; the status callback maps errors", async () => {
    const server = await serve();
    try {
      const response = await server.post({ jsonrpc: "2.0", id: "c", method: "chatty" }, modern);
      assert.equal(response.headers.get("content-type"), "text/event-stream");
      const events = sseReader(response);
      const seen = [];
      for (let event = await events.next(); event !== undefined; event = await events.next()) seen.push(event);
      assert.equal(seen.length, 3);
      assert.ok(seen.every((event) => event.id === undefined));
      assert.equal(JSON.parse(seen[2]!.data).id, "c");
      const missing = await server.post({ jsonrpc: "2.0", id: 9, method: "no/such" }, modern);
      assert.equal(missing.status, 400);
      assert.equal((await missing.json()).id, 9);
    } finally {
      await server.close();
    }
  });

  test("a client closing its request's stream cancels the request", async () => {
    const server = await serve();
    try {
      const aborter = new AbortController();
      const response = await server.post({ jsonrpc: "2.0", id: 1, method: "hang", params: { chatty: true, tag: "closed" } }, modern, aborter.signal);
      const events = sseReader(response);
      await events.next();
      aborter.abort();
      await events.cancel();
      await until("the handler to be cancelled", () => server.echo.cancelled.includes("closed"));
      // And while still waiting for a JSON answer (nothing sent yet).
      const quiet = new AbortController();
      const pending = server.post({ jsonrpc: "2.0", id: 2, method: "hang", params: { tag: "quiet" } }, modern, quiet.signal).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 50));
      quiet.abort();
      await pending;
      await until("the quiet handler to be cancelled", () => server.echo.cancelled.includes("quiet"));
    } finally {
      await server.close();
    }
  });
});
