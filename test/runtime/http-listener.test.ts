// Runtime.listenHttp on the runtime running the test (Node, Deno, Bun): a streamed body leaves
// chunk by chunk, a client going away aborts the request's signal and cancels the body, bodies
// over the bound are 413, the address asked for is bound, close() ends open streams.

import assert from "node:assert/strict";
import { connect } from "node:net";
import { describe, test } from "node:test";
import { runtime } from "../../src/runtime/mod.ts";

const encoder = new TextEncoder();

/** Resolves once `check()` is true, polling every 10 ms; fails after 5 s. */
async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.fail(`timed out waiting for ${what}`);
}

/** A stream the test writes into: each chunk is enqueued when the test says so. */
function pushStream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    start: (c) => void (controller = c),
    cancel: () => void (cancelled = true),
  });
  return { stream, push: (text: string) => controller.enqueue(encoder.encode(text)), end: () => controller.close(), cancelled: () => cancelled };
}

describe("Runtime.listenHttp", () => {
  test("a streamed body is written chunk by chunk: the first arrives before the second exists", async () => {
    const body = pushStream();
    const listener = await runtime.listenHttp({ port: 0 }, () => new Response(body.stream, { headers: { "content-type": "text/event-stream" } }));
    try {
      assert.equal(listener.hostname, "127.0.0.1");
      const response = await fetch(`http://127.0.0.1:${listener.port}/mcp`);
      assert.equal(response.headers.get("content-type"), "text/event-stream");
      const reader = response.body!.getReader();
      body.push("data: one\n\n");
      const first = await reader.read();
      assert.equal(new TextDecoder().decode(first.value), "data: one\n\n");
      body.push("data: two\n\n");
      assert.equal(new TextDecoder().decode((await reader.read()).value), "data: two\n\n");
      body.end();
      assert.equal((await reader.read()).done, true);
    } finally {
      await listener.close();
    }
  });

  test("a body that is not an event stream goes whole: its Content-Length, no chunked framing, a reason phrase", async () => {
    const listener = await runtime.listenHttp(
      { port: 0 },
      () => new Response(JSON.stringify({ jsonrpc: "2.0", id: 1, result: {} }), { headers: { "content-type": "application/json" } }),
    );
    try {
      const socket = connect(listener.port, "127.0.0.1");
      let raw = "";
      socket.setEncoding("utf8");
      socket.on("data", (chunk: string) => (raw += chunk));
      const ended = new Promise<void>((resolve) => socket.on("close", () => resolve()));
      socket.write("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}");
      await until("the answer", () => raw.includes('"result":{}'));
      socket.destroy();
      await ended;
      const [head, body] = raw.split("\r\n\r\n");
      const lines = head!.split("\r\n");
      assert.equal(lines[0], "HTTP/1.1 200 OK");
      const fields = lines.slice(1).map((line) => line.toLowerCase());
      assert.ok(fields.includes(`content-length: ${body!.length}`), head);
      assert.ok(!fields.some((line) => line.startsWith("transfer-encoding")), head);
    } finally {
      await listener.close();
    }
  });

  test("a client that goes away aborts request.signal and cancels the response body", async () => {
    const body = pushStream();
    let signal: AbortSignal | undefined;
    const listener = await runtime.listenHttp({ port: 0 }, (request) => {
      signal = request.signal;
      return new Response(body.stream, { headers: { "content-type": "text/event-stream" } });
    });
    try {
      const aborter = new AbortController();
      const response = await fetch(`http://127.0.0.1:${listener.port}/`, { signal: aborter.signal });
      const reader = response.body!.getReader();
      body.push(": open\n\n");
      await reader.read();
      aborter.abort();
      await reader.cancel().catch(() => {});
      await until("the request's signal to abort", () => signal?.aborted === true);
      // The body is cancelled once the runtime notices (Node: at once; Deno: at its next write).
      await until("the body to be cancelled", () => {
        if (!body.cancelled()) body.push(": ping\n\n");
        return body.cancelled();
      });
    } finally {
      await listener.close();
    }
  });

  test("a request body over maxBodyBytes is answered 413 and the handler is not called", async () => {
    let calls = 0;
    const listener = await runtime.listenHttp({ port: 0, maxBodyBytes: 1024 }, async (request) => {
      calls++;
      return new Response(String((await request.arrayBuffer()).byteLength));
    });
    try {
      const url = `http://127.0.0.1:${listener.port}/`;
      const small = await fetch(url, { method: "POST", body: "x".repeat(1024) });
      assert.equal(await small.text(), "1024");
      const large = await fetch(url, { method: "POST", body: "x".repeat(4096) });
      assert.equal(large.status, 413);
      await large.body?.cancel();
      // Without a Content-Length (a streamed upload): counted as it comes.
      const chunked = await fetch(url, {
        method: "POST",
        body: new ReadableStream({
          start(controller) {
            controller.enqueue(encoder.encode("y".repeat(3000)));
            controller.close();
          },
        }),
        duplex: "half",
      } as RequestInit);
      assert.equal(chunked.status, 413);
      await chunked.body?.cancel();
      assert.equal(calls, 1);
    } finally {
      await listener.close();
    }
  });

  test("it binds the address asked for (::1), and its requests carry the Host the client sent", async () => {
    let host: string | null = null;
    let url = "";
    let listener;
    try {
      listener = await runtime.listenHttp({ hostname: "::1", port: 0 }, (request) => {
        host = request.headers.get("host");
        url = request.url;
        return new Response("six");
      });
    } catch (error) {
      // A machine without IPv6 loopback cannot bind it: nothing to prove there.
      if (/EADDRNOTAVAIL|EAFNOSUPPORT|not available|Cannot assign/i.test(String(error))) return;
      throw error;
    }
    try {
      assert.equal(listener.hostname, "::1");
      const response = await fetch(`http://[::1]:${listener.port}/mcp?x=1`);
      assert.equal(await response.text(), "six");
      assert.equal(host, `[::1]:${listener.port}`);
      assert.equal(new URL(url).pathname, "/mcp");
      await assert.rejects(fetch(`http://127.0.0.1:${listener.port}/`));
    } finally {
      await listener.close();
    }
  });

  test("close() ends a stream still open and stops listening", async () => {
    const body = pushStream();
    const listener = await runtime.listenHttp({ port: 0 }, () => new Response(body.stream, { headers: { "content-type": "text/event-stream" } }));
    const response = await fetch(`http://127.0.0.1:${listener.port}/`);
    const reader = response.body!.getReader();
    body.push(": open\n\n");
    await reader.read();
    await listener.close();
    // The client sees its stream end (or break); it does not wait forever.
    await reader.read().then(() => {}, () => {});
    await until("the body to be cancelled", () => body.cancelled());
    await assert.rejects(fetch(`http://127.0.0.1:${listener.port}/`));
  });
});
