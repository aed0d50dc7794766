// The lifecycle every transport shares (src/transport/lifecycle.ts), checked on the real
// transports that start without a server: start once, close once, onclose exactly once, a
// throwing handler reported and contained; and the HTTP hooks passed through by wrappers
// (src/transport/http-hooks.ts).

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { CloseDetails } from "../../src/jsonrpc/errors.ts";
import { AutoHttpTransport } from "../../src/transport/auto-http.ts";
import { MemoryTransport } from "../../src/transport/memory.ts";
import { StreamableHttpTransport } from "../../src/transport/streamable-http/mod.ts";
import { TracingTransport } from "../../src/transport/tracing.ts";
import { type Transport, TransportError } from "../../src/transport/transport.ts";

const GUARD = { timeout: 5000 };
// Nothing listens there: these transports do not touch the wire before the first send.
const URL_NOWHERE = "http://127.0.0.1:9/mcp";

const makers: [string, () => Transport][] = [
  ["StreamableHttpTransport", () => new StreamableHttpTransport({ url: URL_NOWHERE })],
  ["AutoHttpTransport", () => new AutoHttpTransport({ url: URL_NOWHERE })],
  ["TracingTransport (over Streamable HTTP)", () => new TracingTransport(new StreamableHttpTransport({ url: URL_NOWHERE }), () => {})],
];

function code(error: unknown): string | undefined {
  return error instanceof TransportError ? error.code : undefined;
}

describe("the shared transport lifecycle", () => {
  for (const [name, make] of makers) {
    test(`${name}: a second start() is refused with code "started"`, GUARD, async () => {
      const transport = make();
      await transport.start();
      await assert.rejects(transport.start(), (error: unknown) => code(error) === "started" && /already started/.test(String(error)));
      await transport.close();
    });

    test(`${name}: start() after close() is refused with code "closed", and onclose said it never started`, GUARD, async () => {
      const transport = make();
      const closes: CloseDetails[] = [];
      transport.onclose = (details) => closes.push(details);
      await transport.close();
      await assert.rejects(transport.start(), (error: unknown) => code(error) === "closed" && /close\(\) was called before start\(\)/.test(String(error)));
      assert.deepEqual(closes.map((details) => details.reason), ["closed before it started"]);
    });

    test(`${name}: close() twice fires onclose once, and a send after close is refused with code "closed"`, GUARD, async () => {
      const transport = make();
      const closes: CloseDetails[] = [];
      transport.onclose = (details) => closes.push(details);
      await transport.start();
      await Promise.all([transport.close(), transport.close()]);
      await transport.close();
      assert.deepEqual(closes.map((details) => details.reason), ["closed by the client"]);
      await assert.rejects(transport.send({ jsonrpc: "2.0", id: 1, method: "ping" }), (error: unknown) => code(error) === "closed");
    });

    test(`${name}: a throwing onclose is reported through onerror as "handler-threw"; a throwing onerror goes nowhere`, GUARD, async () => {
      const transport = make();
      const errors: Error[] = [];
      transport.onclose = () => {
        throw new Error("boom in onclose");
      };
      transport.onerror = (error) => {
        errors.push(error);
        throw new Error("boom in onerror");
      };
      await transport.start();
      await transport.close(); // neither throw escapes
      assert.equal(errors.length, 1);
      assert.equal(code(errors[0]), "handler-threw");
      assert.match(errors[0]!.message, /onclose handler threw: boom in onclose/);
      assert.ok(errors[0]!.message.startsWith(`${transport.description}: `), errors[0]!.message);
    });
  }

  test("MemoryTransport: each end's onclose fires once, whichever end closes and however often", GUARD, async () => {
    const [a, b] = MemoryTransport.pair();
    const reasons: string[] = [];
    a.onclose = (details) => reasons.push(`a: ${details.reason}`);
    b.onclose = (details) => reasons.push(`b: ${details.reason}`);
    await Promise.all([a.start(), b.start()]);
    await a.close();
    await b.close();
    await a.close();
    await new Promise((resolve) => setTimeout(resolve, 0));
    assert.deepEqual(reasons.sort(), ["a: closed by this end", "b: closed by the other end"]);
  });
});

describe("the HTTP hooks of wrapping transports", () => {
  test("AutoHttpTransport hands the version given before the first send to the transport it tries", GUARD, async () => {
    const sent: (string | null)[] = [];
    // The server's side, as fetch: it records the header, then refuses with a 500 (no fallback).
    const fetchFn: typeof fetch = (_input, init) => {
      sent.push(new Headers(init?.headers).get("mcp-protocol-version"));
      return Promise.resolve(new Response("down", { status: 500 }));
    };
    const auto = new AutoHttpTransport({ url: URL_NOWHERE, fetch: fetchFn });
    auto.setProtocolVersion("2025-11-25");
    await auto.start();
    await assert.rejects(auto.send({ jsonrpc: "2.0", id: 1, method: "ping" }), (error: unknown) => code(error) === "http-status");
    assert.deepEqual(sent, ["2025-11-25"]);
    await auto.close();
  });
});
