// Tests for the Peer (src/jsonrpc/peer.ts): ids, the pending table, timeouts, cancellation,
// progress, incoming requests and close — spec 2025-11-25 basic/index, basic/lifecycle,
// basic/utilities/{cancellation,progress,ping}. Every test wires real parts over
// MemoryTransport.pair(): two Peers, or a Peer and a hand-written responder.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ConnectionClosedError, ErrorCode, RequestAbortedError, RequestTimeoutError, RpcError, UndeliverableResponseError } from "../../src/jsonrpc/errors.ts";
import type { JsonRpcMessage, JsonRpcNotification, JsonRpcRequest } from "../../src/jsonrpc/messages.ts";
import { type Params, Peer, type Progress } from "../../src/jsonrpc/peer.ts";
import { MemoryTransport } from "../../src/transport/memory.ts";
import { startedPair } from "../support/memory-pair.ts";

/** Hang guard for every test: generous, never a claim about speed. */
const GUARD = { timeout: 5000 };

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Lets every message already in flight on a memory pair arrive (they travel on microtasks). */
function settle(): Promise<void> {
  return delay(0);
}

/** Resolves when the signal aborts. */
function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

function isRequest(message: JsonRpcMessage): message is JsonRpcRequest {
  return "method" in message && "id" in message;
}

function isNotification(message: JsonRpcMessage): message is JsonRpcNotification {
  return "method" in message && !("id" in message);
}

function cancellations(messages: JsonRpcMessage[]): Params[] {
  return messages
    .filter((m): m is JsonRpcNotification => isNotification(m) && m.method === "notifications/cancelled")
    .map((m) => m.params ?? {});
}

/** Our Peer (named like a server connection) on one end, a hand-written responder on the other. */
async function peerAndResponder(
  respond: (message: JsonRpcMessage, reply: (message: JsonRpcMessage) => void) => void = () => {},
) {
  const [ours, theirs] = MemoryTransport.pair();
  const problems: string[] = [];
  const peer = new Peer({
    name: 'server "test"',
    send: (message) => ours.send(message),
    onProblem: (problem) => problems.push(problem),
  });
  ours.onmessage = (message) => peer.receive(message);
  ours.onclose = (details) => peer.close(details);
  /** Everything the responder received, in order. */
  const received: JsonRpcMessage[] = [];
  const reply = (message: JsonRpcMessage) => void theirs.send(message).catch(() => {});
  theirs.onmessage = (message) => {
    received.push(message);
    respond(message, reply);
  };
  await ours.start();
  await theirs.start();
  return { peer, problems, received, reply, close: () => ours.close() };
}

/** Two Peers linked by a memory pair: `client` sends, `server` has the handler table. */
async function twoPeers() {
  const clientProblems: string[] = [];
  const serverProblems: string[] = [];
  const client = new Peer({
    name: 'server "test"',
    send: (message) => a.send(message),
    onProblem: (problem) => clientProblems.push(problem),
  });
  const server = new Peer({
    name: "client",
    send: (message) => b.send(message),
    onProblem: (problem) => serverProblems.push(problem),
  });
  const [a, b] = await startedPair(client, server);
  return { client, server, clientProblems, serverProblems, close: () => a.close() };
}

describe("Peer: ids and the pending table", () => {
  test("request ids are distinct integers and the answer goes to the request with that id", GUARD, async () => {
    const { peer, received, close } = await peerAndResponder((message, reply) => {
      if (isRequest(message)) reply({ jsonrpc: "2.0", id: message.id, result: { echo: message.method } });
    });
    const results = await Promise.all([peer.request("a"), peer.request("b"), peer.request("c")]);
    assert.deepEqual(results, [{ echo: "a" }, { echo: "b" }, { echo: "c" }]);
    assert.deepEqual(await peer.request("d"), { echo: "d" });
    const ids = received.filter(isRequest).map((m) => m.id);
    assert.equal(ids.length, 4);
    for (const id of ids) assert.ok(Number.isInteger(id), `id ${String(id)} is an integer`);
    assert.equal(new Set(ids).size, 4, "no id is used twice");
    assert.equal(peer.pendingCount, 0);
    await close();
  });

  test("answers arriving out of order each resolve their own request", GUARD, async () => {
    const held: JsonRpcRequest[] = [];
    const { peer, reply, close } = await peerAndResponder((message) => {
      if (isRequest(message)) held.push(message);
    });
    const first = peer.request("first");
    const second = peer.request("second");
    await settle();
    assert.equal(peer.pendingCount, 2);
    for (const request of held.reverse()) reply({ jsonrpc: "2.0", id: request.id, result: { method: request.method } });
    assert.deepEqual(await first, { method: "first" });
    assert.deepEqual(await second, { method: "second" });
    await close();
  });

  test("an error response rejects with RpcError carrying its code, message and data", GUARD, async () => {
    const { peer, close } = await peerAndResponder((message, reply) => {
      if (isRequest(message)) {
        reply({ jsonrpc: "2.0", id: message.id, error: { code: -32002, message: "Resource not found", data: { uri: "x://y" } } });
      }
    });
    await assert.rejects(peer.request("resources/read"), (error: unknown) => {
      assert.ok(error instanceof RpcError);
      assert.equal(error.rpcCode, ErrorCode.ResourceNotFound);
      assert.equal(error.message, "Resource not found");
      assert.deepEqual(error.data, { uri: "x://y" });
      return true;
    });
    await close();
  });

  test("a response to an id never used is reported via onProblem and nothing else changes", GUARD, async () => {
    const { peer, problems, reply, close } = await peerAndResponder();
    reply({ jsonrpc: "2.0", id: 999, result: {} });
    await settle();
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /server "test".*999/);
    assert.equal(peer.isClosed, false);
    await close();
  });

  test("a request whose send fails rejects with the send error and leaves nothing pending", GUARD, async () => {
    const failure = new Error("pipe broke");
    const peer = new Peer({ name: 'server "test"', send: () => Promise.reject(failure) });
    await assert.rejects(peer.request("tools/list", undefined, { timeoutMs: 50 }), (error: unknown) => error === failure);
    assert.equal(peer.pendingCount, 0);
  });

  test("requests that share one send promise (a batched write) all reject when it fails, also when it was already rejected", GUARD, async () => {
    const failure = new Error("pipe broke");
    let shared: Promise<void> | undefined;
    let release: (error: Error) => void = () => {};
    // One promise per tick, as the stdio transport's batched write hands out.
    const batched = new Peer({
      name: 'server "test"',
      send: () => (shared ??= new Promise<void>((_resolve, reject) => (release = reject))),
    });
    const first = Array.from({ length: 5 }, () => batched.request("tools/list", undefined, { timeoutMs: 30_000 }));
    release(failure);
    for (const request of first) await assert.rejects(request, (error: unknown) => error === failure);
    assert.equal(batched.pendingCount, 0);
    // The same promise again, already rejected and its handler run: each later request fails too.
    for (let i = 0; i < 3; i++) {
      await assert.rejects(batched.request("tools/list", undefined, { timeoutMs: 30_000 }), (error: unknown) => error === failure);
    }
    assert.equal(batched.pendingCount, 0);
  });

  test("a send function that throws synchronously rejects the request and leaves no timer behind", GUARD, async () => {
    const peer = new Peer({
      name: 'server "test"',
      send: () => {
        throw new Error("not connected");
      },
    });
    await assert.rejects(peer.request("tools/list", undefined, { timeoutMs: 30_000 }), /not connected/);
    assert.equal(peer.pendingCount, 0);
    await assert.rejects(peer.notify("notifications/initialized"), /not connected/);
  });
});

describe("Peer: timeouts", () => {
  test("no answer within timeoutMs rejects with RequestTimeoutError kind idle naming the connection and method", GUARD, async () => {
    const { peer, close } = await peerAndResponder();
    await assert.rejects(peer.request("tools/call", { name: "slow" }, { timeoutMs: 30 }), (error: unknown) => {
      assert.ok(error instanceof RequestTimeoutError);
      assert.equal(error.kind, "idle");
      assert.equal(error.method, "tools/call");
      assert.equal(error.timeoutMs, 30);
      assert.match(error.message, /^server "test": tools\/call timed out after 30 ms/);
      return true;
    });
    assert.equal(peer.pendingCount, 0);
    await close();
  });

  test("a limit of a second or more is named in seconds, as every layer names it (1100 ms reads 1.1 s)", GUARD, async () => {
    const { peer, close } = await peerAndResponder();
    await assert.rejects(peer.request("tools/call", { name: "slow" }, { timeoutMs: 1100, progress: true }), (error: unknown) => {
      assert.ok(error instanceof RequestTimeoutError);
      assert.equal(error.timeoutMs, 1100);
      assert.match(error.message, /^server "test": tools\/call timed out after 1\.1 s \(no answer and no progress for 1\.1 s\)/);
      return true;
    });
    await close();
  });

  test("requests in flight together each time out at their own limit, a shorter one sent later first, and an answered one never", GUARD, async () => {
    const { peer, reply, received, close } = await peerAndResponder();
    const started = Date.now();
    const settled: Array<{ name: string; after: number; error: unknown }> = [];
    const watch = (name: string, request: Promise<unknown>) =>
      request.then(
        () => settled.push({ name, after: Date.now() - started, error: undefined }),
        (error: unknown) => settled.push({ name, after: Date.now() - started, error }),
      );
    const long = watch("long", peer.request("tools/call", { name: "long" }, { timeoutMs: 150 }));
    const answered = watch("answered", peer.request("tools/call", { name: "answered" }, { timeoutMs: 60 }));
    const short = watch("short", peer.request("tools/call", { name: "short" }, { timeoutMs: 40 }));
    await settle();
    reply({ jsonrpc: "2.0", id: received.filter(isRequest)[1]!.id, result: { ok: true } });
    await Promise.all([long, answered, short]);
    assert.deepEqual(settled.map((s) => s.name), ["answered", "short", "long"]);
    assert.equal(settled[0]!.error, undefined);
    for (const [index, limit] of [[1, 40], [2, 150]] as const) {
      const { error, after } = settled[index]!;
      assert.ok(error instanceof RequestTimeoutError && error.timeoutMs === limit, String(error));
      assert.ok(after >= limit - 2, `timed out after ${after} ms, limit ${limit} ms`); // Date.now() has 1 ms steps
    }
    assert.equal(peer.pendingCount, 0);
    await close();
  });

  test("a timed-out request that asked for progress says no progress came either", GUARD, async () => {
    const { peer, close } = await peerAndResponder();
    await assert.rejects(
      peer.request("tools/call", {}, { timeoutMs: 20, onProgress: () => {} }),
      /tools\/call timed out after 20 ms \(no answer and no progress for 20 ms\)/,
    );
    await close();
  });

  test("the Peer's defaultTimeoutMs applies when a request gives none", GUARD, async () => {
    const [a, b] = MemoryTransport.pair();
    const peer = new Peer({ name: 'server "test"', send: (m) => a.send(m), defaultTimeoutMs: 25 });
    await a.start();
    await b.start();
    await assert.rejects(peer.request("tools/list"), (error: unknown) => {
      assert.ok(error instanceof RequestTimeoutError);
      assert.equal(error.timeoutMs, 25);
      return true;
    });
    await a.close();
  });

  test("a timed-out request sends notifications/cancelled with its id", GUARD, async () => {
    const { peer, received, close } = await peerAndResponder();
    await assert.rejects(peer.request("tools/call", undefined, { timeoutMs: 20 }), RequestTimeoutError);
    await settle();
    const id = received.filter(isRequest)[0]!.id;
    const cancelled = cancellations(received);
    assert.equal(cancelled.length, 1);
    assert.equal(cancelled[0]!.requestId, id);
    assert.equal(typeof cancelled[0]!.reason, "string");
    await close();
  });

  test("a late response to a timed-out request is dropped silently", GUARD, async () => {
    const { peer, problems, received, reply, close } = await peerAndResponder();
    await assert.rejects(peer.request("tools/call", undefined, { timeoutMs: 20 }), RequestTimeoutError);
    const id = received.filter(isRequest)[0]!.id;
    reply({ jsonrpc: "2.0", id, result: { late: true } });
    reply({ jsonrpc: "2.0", id, error: { code: -32603, message: "late too" } });
    await settle();
    assert.deepEqual(problems, []);
    await close();
  });

  test("progress notifications restart the idle timeout, so a slow but talkative request succeeds", GUARD, async () => {
    const { client, server, close } = await twoPeers();
    server.setRequestHandler("slow", async (params) => {
      const token = (params?._meta as Params).progressToken;
      // 12 updates 40 ms apart: well past the 250 ms idle timeout in total (480 ms), never 250 ms
      // silent, even on a loaded machine where a 40 ms timer fires late.
      for (let i = 1; i <= 12; i++) {
        await delay(40);
        await server.notify("notifications/progress", { progressToken: token, progress: i });
      }
      return { done: true };
    });
    const seen: number[] = [];
    const result = await client.request("slow", {}, { timeoutMs: 250, onProgress: (p) => seen.push(p.progress) });
    assert.deepEqual(result, { done: true });
    assert.deepEqual(seen, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    await close();
  });

  test("progress: true attaches a token and resets the timeout without an onProgress callback", GUARD, async () => {
    const { client, server, close } = await twoPeers();
    server.setRequestHandler("slow", async (params) => {
      const token = (params?._meta as Params | undefined)?.progressToken;
      assert.notEqual(token, undefined);
      // 8 updates 40 ms apart: 320 ms in all, past the 250 ms idle timeout, never 250 ms silent.
      for (let i = 1; i <= 8; i++) {
        await delay(40);
        await server.notify("notifications/progress", { progressToken: token, progress: i });
      }
      return { done: true };
    });
    assert.deepEqual(await client.request("slow", undefined, { timeoutMs: 250, progress: true }), { done: true });
    await close();
  });

  test("with resetTimeoutOnProgress false, progress is delivered but the idle timeout still fires", GUARD, async () => {
    const { client, server, close } = await twoPeers();
    let handlerDone: Promise<unknown> | undefined;
    server.setRequestHandler("slow", (params, { signal }) => {
      const token = (params?._meta as Params).progressToken;
      const work = (async () => {
        for (let i = 1; !signal.aborted; i++) {
          await server.notify("notifications/progress", { progressToken: token, progress: i });
          await delay(5);
        }
        return {};
      })();
      handlerDone = work;
      return work;
    });
    const seen: number[] = [];
    await assert.rejects(
      client.request("slow", {}, { timeoutMs: 40, resetTimeoutOnProgress: false, onProgress: (p) => seen.push(p.progress) }),
      (error: unknown) => {
        assert.ok(error instanceof RequestTimeoutError);
        assert.equal(error.kind, "idle");
        assert.match(error.message, /timed out after 40 ms with no answer/, "progress did come, so the message must not deny it");
        return true;
      },
    );
    assert.ok(seen.length > 0);
    await handlerDone; // the timeout's notifications/cancelled stopped the loop
    await close();
  });

  test("progress forever cannot pass maxTotalTimeoutMs: rejects with kind total and cancels the work", GUARD, async () => {
    const { client, server, clientProblems, close } = await twoPeers();
    let handlerDone: Promise<unknown> | undefined;
    server.setRequestHandler("endless", (params, { signal }) => {
      const token = (params?._meta as Params).progressToken;
      const work = (async () => {
        for (let i = 1; !signal.aborted; i++) {
          await server.notify("notifications/progress", { progressToken: token, progress: i });
          await delay(10);
        }
        return { finished: "after cancel" };
      })();
      handlerDone = work;
      return work;
    });
    await assert.rejects(
      client.request("endless", {}, { timeoutMs: 40, maxTotalTimeoutMs: 120, onProgress: () => {} }),
      (error: unknown) => {
        assert.ok(error instanceof RequestTimeoutError);
        assert.equal(error.kind, "total");
        assert.equal(error.timeoutMs, 120);
        assert.match(error.message, /server "test": endless timed out after its maximum total time of 120 ms/);
        return true;
      },
    );
    await handlerDone; // ends only because notifications/cancelled aborted its signal
    await settle();
    assert.deepEqual(clientProblems, [], "nothing late or unknown reached the caller's side");
    await close();
  });

  test("a timeout of Infinity never fires: a late answer still resolves", GUARD, async () => {
    const { peer, reply, received, close } = await peerAndResponder();
    const answer = peer.request("tools/call", undefined, { timeoutMs: Infinity });
    await delay(30);
    reply({ jsonrpc: "2.0", id: received.filter(isRequest)[0]!.id, result: { ok: true } });
    assert.deepEqual(await answer, { ok: true });
    await close();
  });
});

describe("Peer: cancellation by AbortSignal", () => {
  test(
    "abort sends notifications/cancelled and rejects with a RequestAbortedError naming the connection, the method and the signal's reason",
    GUARD,
    async () => {
      const { peer, received, close } = await peerAndResponder();
      const controller = new AbortController();
      const answer = peer.request("tools/call", { name: "x" }, { signal: controller.signal });
      await settle();
      const reason = new Error("the user pressed stop");
      controller.abort(reason);
      const error = await answer.then(() => assert.fail("resolved"), (e: unknown) => e);
      assert.ok(error instanceof RequestAbortedError, String(error));
      assert.equal(error.message, 'server "test": tools/call was cancelled by the caller: the user pressed stop');
      assert.equal(error.code, "cancelled");
      assert.equal(error.method, "tools/call");
      assert.equal(error.cause, reason);
      await settle();
      const id = received.filter(isRequest)[0]!.id;
      const cancelled = cancellations(received);
      assert.equal(cancelled.length, 1);
      assert.equal(cancelled[0]!.requestId, id);
      assert.equal(peer.pendingCount, 0);
      await close();
    },
  );

  test("a signal aborted before the call rejects at once and sends nothing", GUARD, async () => {
    const { peer, received, close } = await peerAndResponder();
    const reason = new Error("already gone");
    await assert.rejects(
      peer.request("tools/call", undefined, { signal: AbortSignal.abort(reason) }),
      (e: unknown) => e instanceof RequestAbortedError && e.cause === reason && /tools\/call was cancelled by the caller: already gone/.test(e.message),
    );
    await settle();
    assert.deepEqual(received, []);
    await close();
  });

  test("an AbortSignal.timeout that fires is a RequestAbortedError of kind timeout naming the connection and method", GUARD, async () => {
    const { peer, close } = await peerAndResponder();
    const error = await peer.request("tools/call", undefined, { signal: AbortSignal.timeout(30) }).then(() => assert.fail("resolved"), (e: unknown) => e);
    assert.ok(error instanceof RequestAbortedError, String(error));
    assert.equal(error.code, "timeout");
    assert.match(error.message, /^server "test": tools\/call timed out: the caller's AbortSignal fired \(.+\); give it more time/);
    await close();
  });

  test("aborting initialize rejects but never sends notifications/cancelled", GUARD, async () => {
    const { peer, received, close } = await peerAndResponder();
    const controller = new AbortController();
    const answer = peer.request("initialize", { protocolVersion: "2025-11-25" }, { signal: controller.signal });
    await settle();
    controller.abort(new Error("stop"));
    await assert.rejects(answer, /stop/);
    await settle();
    assert.deepEqual(received.map((m) => ("method" in m ? m.method : "response")), ["initialize"]);
    await close();
  });

  test("an initialize that times out sends no notifications/cancelled either", GUARD, async () => {
    const { peer, received, close } = await peerAndResponder();
    await assert.rejects(peer.request("initialize", {}, { timeoutMs: 20 }), RequestTimeoutError);
    await settle();
    assert.deepEqual(cancellations(received), []);
    await close();
  });

  test("a late response to a cancelled request is dropped silently", GUARD, async () => {
    const { peer, problems, received, reply, close } = await peerAndResponder();
    const controller = new AbortController();
    const answer = peer.request("tools/call", undefined, { signal: controller.signal });
    await settle();
    controller.abort(new Error("stop"));
    await assert.rejects(answer, /stop/);
    reply({ jsonrpc: "2.0", id: received.filter(isRequest)[0]!.id, result: { content: [] } });
    await settle();
    assert.deepEqual(problems, []);
    await close();
  });

  test("aborting after the answer arrived changes nothing and sends nothing", GUARD, async () => {
    const { peer, received, close } = await peerAndResponder((message, reply) => {
      if (isRequest(message)) reply({ jsonrpc: "2.0", id: message.id, result: {} });
    });
    const controller = new AbortController();
    assert.deepEqual(await peer.request("ping", undefined, { signal: controller.signal }), {});
    controller.abort();
    await settle();
    assert.deepEqual(cancellations(received), []);
    await close();
  });
});

describe("Peer: responses that cannot be delivered fail their request at once", () => {
  /** A responder that answers each request with `shape(id)`, sent as an object (no framer between). */
  function answering(shape: (id: number) => Record<string, unknown>) {
    return (message: JsonRpcMessage, reply: (message: JsonRpcMessage) => void) => {
      if (isRequest(message)) reply(shape(message.id as number) as unknown as JsonRpcMessage);
    };
  }

  test("a response with both result and error fails its request with an UndeliverableResponseError saying so", GUARD, async () => {
    const { peer, close } = await peerAndResponder(
      answering((id) => ({ jsonrpc: "2.0", id, result: { content: [] }, error: { code: -32603, message: "boom" } })),
    );
    const error = await peer.request("tools/call", undefined, { timeoutMs: 30_000 }).then(() => assert.fail("resolved"), (e: unknown) => e);
    assert.ok(error instanceof UndeliverableResponseError, String(error));
    assert.deepEqual([error.code, error.reason], ["undeliverable", "result-and-error"]);
    assert.equal(error.method, "tools/call");
    assert.match(error.message, /^server "test": tools\/call failed: its response \(id \d+\) could not be delivered: .*both "result" and "error"/);
    assert.equal(peer.pendingCount, 0);
    await close();
  });

  test("a result that is not an object fails its request, naming what it was", GUARD, async () => {
    const { peer, close } = await peerAndResponder(answering((id) => ({ jsonrpc: "2.0", id, result: [1, 2] })));
    await assert.rejects(peer.request("tools/list", undefined, { timeoutMs: 30_000 }), (error: unknown) => {
      assert.ok(error instanceof UndeliverableResponseError, String(error));
      assert.deepEqual([error.code, error.reason], ["undeliverable", "result-not-object"]);
      assert.match(error.message, /tools\/list failed: .*"result" is an array, not the JSON object MCP requires/);
      return true;
    });
    await close();
  });

  test("undeliverable() with an id fails that request only; the others still get their answers", GUARD, async () => {
    const held: JsonRpcRequest[] = [];
    const { peer, reply, close } = await peerAndResponder((message) => {
      if (isRequest(message)) held.push(message);
    });
    const big = peer.request("resources/read", undefined, { timeoutMs: 30_000 });
    const small = peer.request("ping", undefined, { timeoutMs: 30_000 });
    await settle();
    peer.undeliverable({ id: held[0]!.id, reason: "too-large", detail: "the response is 900 bytes, over 100", remedy: "raise it", bytes: 900, limit: 100 });
    await assert.rejects(
      big,
      (error: unknown) =>
        error instanceof UndeliverableResponseError && error.code === "undeliverable" && error.reason === "too-large" && error.bytes === 900 &&
        error.limit === 100 &&
        error.message ===
          `server "test": resources/read failed: its response (id ${held[0]!.id}) could not be delivered: the response is 900 bytes, over 100; raise it`,
    );
    reply({ jsonrpc: "2.0", id: held[1]!.id, result: {} });
    assert.deepEqual(await small, {});
    await close();
  });

  test("without an id, the only pending request fails; with two pending neither does and a problem says why", GUARD, async () => {
    const { peer, problems, received, reply, close } = await peerAndResponder();
    const only = peer.request("tools/call", undefined, { timeoutMs: 30_000 });
    await settle();
    peer.undeliverable({ reason: "too-large", detail: "too big" });
    await assert.rejects(
      only,
      (error: unknown) => error instanceof UndeliverableResponseError && /id unreadable, taken as \d+, the only request pending/.test(error.message),
    );

    const first = peer.request("a", undefined, { timeoutMs: 30_000 });
    const second = peer.request("b", undefined, { timeoutMs: 30_000 });
    await settle();
    peer.undeliverable({ reason: "too-large", detail: "too big" });
    assert.equal(peer.pendingCount, 2);
    assert.match(problems.at(-1) ?? "", /a response could not be delivered \(too big\); it answers no request: its id could not be read and 2 are pending/);
    for (const request of received.filter(isRequest).slice(1)) reply({ jsonrpc: "2.0", id: request.id, result: {} });
    assert.deepEqual(await Promise.all([first, second]), [{}, {}]);
    await close();
  });

  test("a late well-formed copy of an answer that could not be delivered is dropped silently", GUARD, async () => {
    const { peer, problems, received, reply, close } = await peerAndResponder();
    const call = peer.request("tools/call", undefined, { timeoutMs: 30_000 });
    await settle();
    const id = received.filter(isRequest)[0]!.id;
    peer.undeliverable({ id, reason: "too-large", detail: "too big" });
    await assert.rejects(call, UndeliverableResponseError);
    reply({ jsonrpc: "2.0", id, result: {} });
    await settle();
    assert.deepEqual(problems, []);
    await close();
  });
});

describe("Peer: progress", () => {
  test("concurrent requests get distinct progress tokens and each update reaches its own onProgress", GUARD, async () => {
    const held: JsonRpcRequest[] = [];
    const { peer, reply, close } = await peerAndResponder((message) => {
      if (isRequest(message)) held.push(message);
    });
    const first: Progress[] = [];
    const second: Progress[] = [];
    const a = peer.request("a", { x: 1 }, { onProgress: (p) => first.push(p) });
    const b = peer.request("b", undefined, { onProgress: (p) => second.push(p) });
    const plain = peer.request("c");
    await settle();
    const token = (request: JsonRpcRequest) => (request.params?._meta as Params | undefined)?.progressToken;
    const [ta, tb, tc] = held.map(token);
    assert.notEqual(ta, undefined);
    assert.notEqual(tb, undefined);
    assert.notEqual(ta, tb);
    assert.equal(tc, undefined, "a request without onProgress carries no token");
    assert.equal(held[0]!.params?.x, 1, "the caller's params are kept beside _meta");

    reply({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: tb, progress: 5, total: 10, message: "half" } });
    reply({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: ta, progress: 1 } });
    reply({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: ta, progress: 2 } });
    for (const request of held) reply({ jsonrpc: "2.0", id: request.id, result: {} });
    await Promise.all([a, b, plain]);
    assert.deepEqual(first, [{ progress: 1 }, { progress: 2 }]);
    assert.deepEqual(second, [{ progress: 5, total: 10, message: "half" }]);
    await close();
  });

  test("progress that does not increase is still delivered but reported", GUARD, async () => {
    const { peer, problems, reply, received, close } = await peerAndResponder();
    const seen: number[] = [];
    const answer = peer.request("tools/call", undefined, { onProgress: (p) => seen.push(p.progress) });
    await settle();
    const request = received.filter(isRequest)[0]!;
    const token = (request.params?._meta as Params).progressToken;
    for (const progress of [3, 3, 2, 4]) {
      reply({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress } });
    }
    reply({ jsonrpc: "2.0", id: request.id, result: {} });
    await answer;
    assert.deepEqual(seen, [3, 3, 2, 4]);
    assert.equal(problems.length, 2);
    assert.match(problems[0]!, /did not increase \(3 then 3\)/);
    assert.match(problems[1]!, /did not increase \(3 then 2\)/);
    await close();
  });

  test("an onProgress callback that throws is reported and the request still completes", GUARD, async () => {
    const { peer, problems, reply, received, close } = await peerAndResponder();
    const answer = peer.request("tools/call", undefined, {
      onProgress: () => {
        throw new Error("callback bug");
      },
    });
    await settle();
    const request = received.filter(isRequest)[0]!;
    const token = (request.params?._meta as Params).progressToken;
    reply({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: 1 } });
    reply({ jsonrpc: "2.0", id: request.id, result: { ok: 1 } });
    assert.deepEqual(await answer, { ok: 1 });
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /callback bug/);
    await close();
  });
});

describe("Peer: incoming requests and notifications", () => {
  test("a request for a method with no handler is answered with -32601 naming the method", GUARD, async () => {
    const { client, close } = await twoPeers();
    await assert.rejects(client.request("sampling/createMessage"), (error: unknown) => {
      assert.ok(error instanceof RpcError);
      assert.equal(error.rpcCode, ErrorCode.MethodNotFound);
      assert.match(error.message, /sampling\/createMessage/);
      return true;
    });
    await close();
  });

  test("a handler's result is the response, and it receives the params and request id", GUARD, async () => {
    const { client, server, close } = await twoPeers();
    const contexts: Array<{ requestId: unknown; method: string }> = [];
    server.setRequestHandler("roots/list", (params, context) => {
      contexts.push({ requestId: context.requestId, method: context.method });
      return { roots: [{ uri: "file:///tmp", name: String(params?.label) }] };
    });
    assert.deepEqual(await client.request("roots/list", { label: "tmp" }), { roots: [{ uri: "file:///tmp", name: "tmp" }] });
    assert.equal(contexts.length, 1);
    assert.equal(contexts[0]!.method, "roots/list");
    assert.ok(Number.isInteger(contexts[0]!.requestId));
    await close();
  });

  test(
    "a handler that answers synchronously is responded to before receive() returns; one that throws synchronously still gets an error response",
    GUARD,
    async () => {
      const sent: JsonRpcMessage[] = [];
      const server = new Peer({ name: "client", send: (message) => (sent.push(message), Promise.resolve()) });
      server.setRequestHandler("tools/list", () => ({ tools: [] }));
      server.setRequestHandler("tools/call", () => {
        throw new RpcError("no such tool", ErrorCode.InvalidParams);
      });
      server.receive({ jsonrpc: "2.0", id: 7, method: "tools/list" });
      assert.deepEqual(sent, [{ jsonrpc: "2.0", id: 7, result: { tools: [] } }]);
      server.receive({ jsonrpc: "2.0", id: 8, method: "tools/call" });
      await settle();
      assert.deepEqual(sent[1], { jsonrpc: "2.0", id: 8, error: { code: ErrorCode.InvalidParams, message: "no such tool" } });
    },
  );

  test("a handler that throws RpcError answers with its code, message and data", GUARD, async () => {
    const { client, server, close } = await twoPeers();
    server.setRequestHandler("elicitation/create", async () => {
      throw new RpcError("bad schema", ErrorCode.InvalidParams, { data: { field: "email" } });
    });
    await assert.rejects(client.request("elicitation/create"), (error: unknown) => {
      assert.ok(error instanceof RpcError);
      assert.equal(error.rpcCode, ErrorCode.InvalidParams);
      assert.equal(error.message, "bad schema");
      assert.deepEqual(error.data, { field: "email" });
      return true;
    });
    await close();
  });

  test("a handler that throws anything else answers with -32603 and the error's message", GUARD, async () => {
    const { client, server, close } = await twoPeers();
    server.setRequestHandler("sync", () => {
      throw new TypeError("cannot read x of undefined");
    });
    server.setRequestHandler("async", () => Promise.reject(new Error("disk full")));
    await assert.rejects(
      client.request("sync"),
      (error: unknown) => error instanceof RpcError && error.rpcCode === ErrorCode.InternalError && /cannot read x/.test(error.message),
    );
    await assert.rejects(
      client.request("async"),
      (error: unknown) => error instanceof RpcError && error.rpcCode === ErrorCode.InternalError && error.message === "disk full",
    );
    await close();
  });

  test("ping is answered with an empty result with no handler installed", GUARD, async () => {
    const { client, close } = await twoPeers();
    assert.deepEqual(await client.request("ping"), {});
    await close();
  });

  test("an incoming notifications/cancelled aborts the handler's signal and no response is sent", GUARD, async () => {
    const [ours, theirs] = MemoryTransport.pair();
    const peer = new Peer({ name: "client", send: (m) => ours.send(m) });
    ours.onmessage = (m) => peer.receive(m);
    let signal: AbortSignal | undefined;
    peer.setRequestHandler("tools/call", async (_params, context) => {
      signal = context.signal;
      await aborted(context.signal);
      return { content: [] }; // finishes after the cancel: must not be sent
    });
    const answers: JsonRpcMessage[] = [];
    theirs.onmessage = (m) => answers.push(m);
    await ours.start();
    await theirs.start();
    await theirs.send({ jsonrpc: "2.0", id: "req-7", method: "tools/call", params: {} });
    await settle();
    assert.equal(signal?.aborted, false);
    await theirs.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "req-7", reason: "user" } });
    await settle();
    assert.equal(signal?.aborted, true);
    assert.match(String((signal?.reason as Error).message), /user/);
    await settle();
    assert.deepEqual(answers, []);
    await ours.close();
  });

  test("a cancellation for an unknown or finished request is ignored", GUARD, async () => {
    const { client, server, serverProblems, close } = await twoPeers();
    server.setRequestHandler("quick", () => ({ ok: true }));
    assert.deepEqual(await client.request("quick"), { ok: true });
    await client.notify("notifications/cancelled", { requestId: 1 });
    await client.notify("notifications/cancelled", { requestId: 12345 });
    await client.notify("notifications/cancelled", {});
    assert.deepEqual(await client.request("quick"), { ok: true });
    assert.deepEqual(serverProblems, []);
    await close();
  });

  test("notifications go to their handler; a throwing handler is reported; unknown ones are ignored", GUARD, async () => {
    const { client, server, serverProblems, close } = await twoPeers();
    const logged: unknown[] = [];
    server.setNotificationHandler("notifications/message", (params) => logged.push(params?.data));
    server.setNotificationHandler("notifications/broken", () => {
      throw new Error("handler bug");
    });
    await client.notify("notifications/message", { level: "info", data: "hello" });
    await client.notify("notifications/broken");
    await client.notify("notifications/nobody-listens");
    await settle();
    assert.deepEqual(logged, ["hello"]);
    assert.equal(serverProblems.length, 1);
    assert.match(serverProblems[0]!, /notifications\/broken.*handler bug/);
    await close();
  });
});

describe("Peer: close", () => {
  test("close rejects every pending request at once with ConnectionClosedError naming the connection and cause", GUARD, async () => {
    const { peer, close } = await peerAndResponder();
    const first = peer.request("tools/list"); // default 60 s timeout: only close can end these quickly
    const second = peer.request("tools/call", { name: "x" });
    await settle();
    assert.equal(peer.pendingCount, 2);
    const details = { reason: "server process exited with code 1", exitCode: 1, stderrTail: ["starting", "fatal: no API key"] };
    peer.close(details);
    assert.equal(peer.pendingCount, 0);
    for (const [answer, method] of [[first, "tools/list"], [second, "tools/call"]] as const) {
      await assert.rejects(answer, (error: unknown) => {
        assert.ok(error instanceof ConnectionClosedError);
        assert.ok(error.message.startsWith(`server "test": ${method} failed: connection closed`), error.message);
        assert.match(error.message, /exited with code 1/);
        assert.match(error.message, /fatal: no API key/);
        assert.deepEqual(error.details, details);
        return true;
      });
    }
    await close();
  });

  test(
    "a handler still running when the connection closes has its signal aborted and sends nothing, also when the close came from inside it",
    GUARD,
    async () => {
      const sent: JsonRpcMessage[] = [];
      const server = new Peer({ name: "client", send: (message) => (sent.push(message), Promise.resolve()) });
      const signals: AbortSignal[] = [];
      server.setRequestHandler("slow", (_params, { signal }) => {
        signals.push(signal);
        return new Promise((resolve) => setTimeout(() => resolve({}), 20));
      });
      server.setRequestHandler("closing", (_params, { signal }) => {
        signals.push(signal);
        server.close({ reason: "closed by the handler" });
        return new Promise((resolve) => setTimeout(() => resolve({}), 20));
      });
      server.receive({ jsonrpc: "2.0", id: 1, method: "slow" });
      server.receive({ jsonrpc: "2.0", id: 2, method: "closing" });
      assert.deepEqual(signals.map((signal) => signal.aborted), [true, true]);
      await delay(40);
      assert.deepEqual(sent, []);
    },
  );

  test("the exit code and signal appear in the error even when the reason does not mention them", GUARD, async () => {
    const peer = new Peer({ name: 'server "test"', send: () => new Promise(() => {}) });
    const answer = peer.request("tools/list");
    peer.close({ reason: "server process ended", exitCode: 3, signal: null });
    await assert.rejects(answer, /server process ended.*exit code 3/);
    const killed = new Peer({ name: 'server "k"', send: () => new Promise(() => {}) });
    const other = killed.request("tools/list");
    killed.close({ reason: "server process ended", exitCode: null, signal: "SIGKILL" });
    await assert.rejects(other, /SIGKILL/);
  });

  test("requests and notifications after close reject at once with ConnectionClosedError", GUARD, async () => {
    const { peer, close } = await peerAndResponder();
    peer.close({ reason: "stream ended" });
    assert.equal(peer.isClosed, true);
    await assert.rejects(peer.request("tools/list"), (error: unknown) => {
      assert.ok(error instanceof ConnectionClosedError);
      assert.match(error.message, /^server "test": tools\/list failed: connection closed: stream ended/);
      return true;
    });
    await assert.rejects(peer.notify("notifications/initialized"), ConnectionClosedError);
    await close();
  });

  test("the other end closing the transport rejects pending requests with its reason", GUARD, async () => {
    const [ours, theirs] = MemoryTransport.pair();
    const peer = new Peer({ name: 'server "test"', send: (m) => ours.send(m) });
    ours.onmessage = (m) => peer.receive(m);
    ours.onclose = (details) => peer.close(details);
    await ours.start();
    await theirs.start();
    const answer = peer.request("tools/call");
    await settle();
    await theirs.close();
    await assert.rejects(answer, (error: unknown) => error instanceof ConnectionClosedError && /closed by the other end/.test(error.message));
  });

  test("close aborts the signals of incoming requests still being handled and sends no answer", GUARD, async () => {
    const { client, server, close } = await twoPeers();
    let signal: AbortSignal | undefined;
    server.setRequestHandler("sampling/createMessage", async (_params, context) => {
      signal = context.signal;
      await aborted(context.signal);
      return {};
    });
    const answer = client.request("sampling/createMessage");
    await settle();
    server.close({ reason: "closed by the client" });
    assert.equal(signal?.aborted, true);
    assert.ok(signal?.reason instanceof ConnectionClosedError);
    client.close({ reason: "test over" });
    await assert.rejects(answer, ConnectionClosedError);
    await close();
  });

  test("messages that arrive after close are ignored: no handler runs and nothing is reported", GUARD, async () => {
    const problems: string[] = [];
    const peer = new Peer({ name: 'server "test"', send: () => Promise.resolve(), onProblem: (p) => problems.push(p) });
    let handled = 0;
    peer.setRequestHandler("sampling/createMessage", () => {
      handled++;
      return {};
    });
    const answer = peer.request("tools/list");
    peer.close({ reason: "closed by the client" });
    await assert.rejects(answer, ConnectionClosedError);
    peer.receive({ jsonrpc: "2.0", id: 1, result: {} }); // the answer, arriving while the server shuts down
    peer.receive({ jsonrpc: "2.0", id: 50, method: "sampling/createMessage", params: {} });
    await settle();
    assert.equal(handled, 0);
    assert.deepEqual(problems, []);
  });

  test("close is idempotent: the first cause is kept", GUARD, async () => {
    const peer = new Peer({ name: 'server "test"', send: () => Promise.resolve() });
    peer.close({ reason: "first" });
    peer.close({ reason: "second" });
    await assert.rejects(peer.request("x"), /connection closed: first/);
  });
});
