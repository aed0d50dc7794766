// A body being read is ended by the transport that reads it when it gives up on it (close, a
// call's timeout), not left to fetch's signal: under Deno, once a garbage collection has taken
// the Response, an abort of that signal no longer reaches the body and its read stays pending
// (src/transport/body-abort.ts). The fetch here behaves so on purpose, against
// test/fixtures/stalled-body-server.mjs, whose bodies stop half-way.

import assert from "node:assert/strict";
import { after } from "node:test";
import { Client } from "../../src/client/client.ts";
import { SseLegacyTransport } from "../../src/transport/sse-legacy.ts";
import { StreamableHttpTransport } from "../../src/transport/streamable-http/mod.ts";
import { behaviour, deno } from "../support/behaviour.ts";
import { startPortFixture } from "../support/fixture-process.ts";
import { guardedRejection, hangGuard } from "../support/hang-guard.ts";
import { waitUntil } from "../support/polling.ts";

const CLIENT_INFO = { name: "mcpwire-tests", version: "1.0.0" };

const fixture = await startPortFixture("stalled-body-server.mjs");
if (!deno) after(() => fixture.stop()); // under Deno: the last test, at the end of this file

let instances = 0;

/** A body the fetch below gave: what it answered (the request's method and tool), and whether it was cancelled. */
interface GivenBody {
  what: string;
  cancelled: boolean;
}

/**
 * fetch as Deno's behaves after a garbage collection took the link from a Response to its
 * request's signal: the signal aborts the request until its response comes, but not the
 * response's body. Each body it gives is listed in `bodies`, with whether it was cancelled.
 */
function bodyDeafFetch(bodies: GivenBody[]): typeof fetch {
  return async (input, init) => {
    const own = new AbortController();
    const signal = init?.signal ?? undefined;
    const onAbort = () => own.abort(signal?.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    let response: Response;
    try {
      response = await fetch(input, { ...init, signal: own.signal });
    } finally {
      signal?.removeEventListener("abort", onAbort);
    }
    if (response.body === null) return response;
    const sent = typeof init?.body === "string" ? init.body : "";
    const given: GivenBody = { what: `${init?.method ?? "GET"} ${/"name":"([^"]+)"/.exec(sent)?.[1] ?? ""}`.trim(), cancelled: false };
    bodies.push(given);
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (given.cancelled) return;
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel(reason) {
        given.cancelled = true;
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

behaviour("the legacy SSE transport: close() ends the stream's body itself, though fetch's abort does not reach it", async () => {
  const bodies: GivenBody[] = [];
  const transport = new SseLegacyTransport({ url: `${fixture.origin}/legacy/s${++instances}/sse`, fetch: bodyDeafFetch(bodies) });
  const client = new Client(CLIENT_INFO, { protocol: "legacy" });
  await hangGuard(client.connect(transport), 15_000, "connect");
  await hangGuard(client.close(), 15_000, "close");
  const stream = bodies.find((body) => body.what === "GET");
  assert.ok(stream !== undefined, "the GET stream was opened");
  assert.ok(stream.cancelled, "close() cancelled the stream's body");
});

for (const tool of ["stall-json", "stall-error"]) {
  behaviour(`Streamable HTTP: a call's timeout ends a half-sent body (${tool}), though fetch's abort does not reach it`, async () => {
    const bodies: GivenBody[] = [];
    const transport = new StreamableHttpTransport({ url: `${fixture.origin}/mcp/s${++instances}`, fetch: bodyDeafFetch(bodies) });
    const client = new Client(CLIENT_INFO, { protocol: "legacy" });
    await hangGuard(client.connect(transport), 15_000, "connect");
    try {
      await guardedRejection(client.callTool(tool, {}, { timeoutMs: 300 }), `tools/call ${tool}`);
      const answer = () => bodies.find((body) => body.what === `POST ${tool}`);
      await waitUntil(() => answer()?.cancelled === true, `the cancelling of the body of ${tool}'s answer`);
    } finally {
      await hangGuard(client.close(), 15_000, "close");
    }
  });
}

if (deno) deno.test({ name: "(stop the fixture server)", fn: () => fixture.stop(), sanitizeOps: false, sanitizeResources: false });
