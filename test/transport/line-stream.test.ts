// LineStreamTransport, in process: lines in, messages to onmessage; lines that are not JSON-RPC,
// too large or too deep reported as MalformedMessageError (answered by the server half) or, for a
// broken answer to one of our requests, as UndeliverableMessageError; writes one line per
// message, in order; the end of the input closes it — spec 2025-11-25 basic/transports
// ("stdio"); JSON-RPC 2.0 §5.1.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.ts";
import { Server } from "../../src/server/server.ts";
import { LineStreamTransport, topLevelId } from "../../src/transport/line-stream.ts";
import { MalformedMessageError } from "../../src/transport/malformed-message.ts";
import { UndeliverableMessageError } from "../../src/transport/transport.ts";
import { demoHandlers, emptyLog, until } from "../server/demo-server.ts";

/** A line source fed by the test; `end()` ends it. */
function lineSource(): { lines: { readLine(): Promise<string | undefined> }; push(line: string): void; end(): void } {
  const queued: (string | undefined)[] = [];
  let wake: (() => void) | undefined;
  return {
    lines: {
      async readLine() {
        while (queued.length === 0) await new Promise<void>((resolve) => (wake = resolve));
        return queued.shift();
      },
    },
    push(line) {
      queued.push(line);
      wake?.();
    },
    end() {
      queued.push(undefined);
      wake?.();
    },
  };
}

describe("LineStreamTransport", () => {
  test("messages in order to onmessage, problems to onerror with the answer they need; the input's end closes it", async () => {
    const source = lineSource();
    const written: string[] = [];
    const transport = new LineStreamTransport({ lines: source.lines, write: async (text) => void written.push(text), maxMessageBytes: 200, maxDepth: 4 });
    const messages: JsonRpcMessage[] = [];
    const errors: Error[] = [];
    let closed: string | undefined;
    transport.onmessage = (message) => messages.push(message);
    transport.onerror = (error) => errors.push(error);
    transport.onclose = (details) => (closed = details.reason);
    await transport.start();
    source.push('{"jsonrpc":"2.0","id":1,"method":"ping"}');
    source.push("   ");
    source.push("{oops");
    source.push(`{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"x":"${"a".repeat(300)}"}}`);
    source.push('{"jsonrpc":"2.0","id":2,"method":"x","params":{"a":{"b":{"c":{"d":{}}}}}}');
    source.push(`{"jsonrpc":"2.0","id":5,"result":{"x":"${"a".repeat(300)}"}}`);
    source.push('{"jsonrpc":"2.0","id":6,"result":"not an object"}');
    source.push('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    source.end();
    await until(() => closed !== undefined, "the end of the input");
    assert.equal(closed, "input ended");
    assert.deepEqual(messages.map((message) => ("method" in message ? message.method : "?")), ["ping", "notifications/initialized"]);
    const described = errors.map((error) =>
      error instanceof MalformedMessageError
        ? `${error.rpcCode} ${String(error.id)}`
        : error instanceof UndeliverableMessageError
        ? `undeliverable ${String(error.response.id)} ${error.response.reason}`
        : error.message
    );
    assert.deepEqual(described, ["-32700 null", "-32600 big", "-32600 2", "undeliverable 5 too-large", "undeliverable 6 result-not-object"]);
    assert.match(errors[1]!.message, /over maxMessageBytes \(200\)/);
    assert.match(errors[2]!.message, /nested deeper than 4/);
    await assert.rejects(transport.send({ jsonrpc: "2.0", method: "x" }), /closed/, "nothing is sent after the end");
    assert.deepEqual(written, []);
  });

  test("behind a Server: an oversized request is answered -32600 with its id, and the session goes on", async () => {
    const source = lineSource();
    const written: string[] = [];
    const server = new Server(demoHandlers(emptyLog()));
    const connection = await server.connect(
      new LineStreamTransport({ lines: source.lines, write: async (text) => void written.push(text), maxMessageBytes: 300 }),
    );
    source.push(`{"jsonrpc":"2.0","id":"big","method":"tools/list","params":{"x":"${"a".repeat(400)}"}}`);
    source.push('{"jsonrpc":"2.0","id":3,"method":"ping"}');
    await until(() => written.length === 2, "two answers");
    const answers = written.map((line) => JSON.parse(line) as { id: unknown; error?: { code: number }; result?: unknown });
    assert.equal(answers[0]!.id, "big");
    assert.equal(answers[0]!.error?.code, -32600);
    assert.deepEqual(answers[1], { jsonrpc: "2.0", id: 3, result: {} });
    assert.ok(written.every((line) => line.endsWith("\n") && line.indexOf("\n") === line.length - 1), "one line per message, one message a turn");
    source.end();
    await connection.closed;
    await server.close();
  });

  test("the messages of one turn go out in one write, at most 16 lines a write, in order", async () => {
    const written: string[] = [];
    const transport = new LineStreamTransport({ lines: lineSource().lines, write: async (text) => void written.push(text) });
    await transport.start();
    const sends = Array.from({ length: 20 }, (_, id) => transport.send({ jsonrpc: "2.0", id, result: {} }));
    await Promise.all(sends);
    assert.equal(written.length, 2, "16 lines, then the turn's other 4");
    const ids = written.join("").trimEnd().split("\n").map((line) => (JSON.parse(line) as { id: number }).id);
    assert.deepEqual(ids, Array.from({ length: 20 }, (_, id) => id));
    assert.equal(written[0]!.split("\n").length - 1, 16);
    await transport.close();
  });

  test("the lines already here are all taken in one turn: their answers go out together", async () => {
    const queued: string[] = [];
    let wake: (() => void) | undefined;
    const lines = {
      async readLine(): Promise<string | undefined> {
        while (queued.length === 0) await new Promise<void>((resolve) => (wake = resolve));
        return queued.shift();
      },
      takeReadyLine: (): string | undefined => queued.shift(),
    };
    const written: string[] = [];
    const server = new Server(demoHandlers(emptyLog()));
    const connection = await server.connect(new LineStreamTransport({ lines, write: async (text) => void written.push(text) }));
    // A chunk of three requests, as a pipe delivers a burst.
    queued.push(...[1, 2, 3].map((id) => `{"jsonrpc":"2.0","id":${id},"method":"ping"}`));
    wake?.();
    await until(() => written.join("").split("\n").length > 3, "three answers");
    assert.equal(written.length, 1, "the three answers in one write");
    assert.deepEqual(written[0]!.trimEnd().split("\n").map((line) => (JSON.parse(line) as { id: number }).id), [1, 2, 3]);
    queued.push(undefined as unknown as string);
    wake?.();
    await connection.closed;
    await server.close();
  });

  test("topLevelId reads the id of the top-level object only, from text that is not parsed", () => {
    assert.equal(topLevelId('{"jsonrpc":"2.0","params":{"id":9},"id":"x","method":"m"}'), "x");
    assert.equal(topLevelId('{"params":{"id":9},"method":"m"'), undefined);
    assert.equal(topLevelId('{"id" : -12.5}'), -12.5);
    assert.equal(topLevelId('{"a":"\\"id\\"","id":3}'), 3);
    assert.equal(topLevelId('{"id":"unterminated'), undefined);
  });
});
