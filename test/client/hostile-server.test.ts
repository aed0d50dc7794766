// What a broken or hostile server can still do to a Client (issue 13), against hand-written
// misbehaving servers run as real child processes (test/fixtures/hostile-*.mjs): listeners
// that throw stay contained, answers that cannot be delivered fail their call at once with the
// reason, results of the wrong shape are typed errors naming server, method and detail, and
// timeouts bound what they promise to — spec 2025-11-25 basic/lifecycle, server/tools.

import assert from "node:assert/strict";
import process from "node:process";
import { JSON_SCHEMA_VALIDATORS } from "../../src/client/schema/json-schema.ts";
import type { DetailEvent } from "../../src/common/events.ts";
import { RequestAbortedError, UndeliverableResponseError } from "../../src/jsonrpc/errors.ts";
import { Client, type ClientOptions, type LogMessage, OutputValidationError, ProtocolError, RequestTimeoutError, StdioTransport } from "../../src/mod.ts";
import { StreamableHttpTransport } from "../../src/transport/streamable-http/mod.ts";
import { behaviour } from "../support/behaviour.ts";
import { fixturePath as fixture, startPortFixture } from "../support/fixture-process.ts";

const CLIENT_INFO = { name: "hostile-test", version: "0.0.0" };
/** The timeout every call here would otherwise wait out: the assertions say "well before it". */
const CALL_TIMEOUT_MS = 60_000;
/** "At once", on a loaded two-core machine: far below CALL_TIMEOUT_MS, far above real need. */
const AT_ONCE_MS = 20_000;

/** A client connected over stdio to the hostile fixture, as a user would set it up. */
async function hostile(
  options: { client?: ClientOptions; maxMessageBytes?: number; args?: string[] } = {},
): Promise<{ client: Client; problems: string[] }> {
  const client = new Client(CLIENT_INFO, { name: "hostile", protocol: "legacy", requestTimeoutMs: CALL_TIMEOUT_MS, ...options.client });
  const problems: string[] = [];
  client.on("problem", ({ message }) => problems.push(message));
  const transport = new StdioTransport({
    command: "node",
    args: [fixture("hostile-answers-server.mjs"), ...(options.args ?? [])],
    ...(options.maxMessageBytes === undefined ? {} : { maxMessageBytes: options.maxMessageBytes }),
  });
  await client.connect(transport);
  return { client, problems };
}

/** The error a promise rejects with, and how long that took; fails if it resolves. */
async function failure(promise: Promise<unknown>): Promise<{ error: Error; ms: number }> {
  const started = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("hang guard: no answer within 90 s")), 90_000);
  });
  try {
    await Promise.race([promise, guard]);
  } catch (error) {
    assert.ok(error instanceof Error, `rejected with a non-Error: ${String(error)}`);
    assert.doesNotMatch(error.message, /^hang guard/);
    return { error, ms: Date.now() - started };
  } finally {
    clearTimeout(timer);
  }
  assert.fail("expected a rejection, but the promise resolved");
}

// --- listeners cannot crash the host ------------------------------------------------------

behaviour("a log listener that throws is reported as a problem naming the event; the next listener runs and the client goes on", async () => {
  const { client, problems } = await hostile();
  try {
    const seen: string[] = [];
    client.on("log", () => {
      throw new Error("listener bug");
    });
    client.on("log", ({ data }: LogMessage) => seen.push(`second: ${String(data)}`));
    const result = await client.callTool("log", { text: "hello" });
    assert.deepEqual(result.content, [{ type: "text", text: "logged" }]);
    assert.deepEqual(seen, ["second: hello"]);
    assert.ok(
      problems.some((problem) => /^server "hostile": a "log" event listener threw: Error: listener bug$/.test(problem)),
      problems.join("\n"),
    );
    // Still usable: the same connection answers the next call.
    assert.deepEqual((await client.callTool("echo", { text: "still here" })).content, [{ type: "text", text: "still here" }]);
  } finally {
    await client.close();
  }
});

behaviour(
  "an addEventListener listener that throws (function or handleEvent object) is contained the same way, its error given as the problem's cause",
  async () => {
    const { client } = await hostile();
    try {
      const causes: unknown[] = [];
      const messages: string[] = [];
      client.on("problem", ({ message, cause }) => {
        messages.push(message);
        causes.push(cause);
      });
      const thrown = new TypeError("cannot read properties of undefined");
      client.addEventListener("log", () => {
        throw thrown;
      });
      client.addEventListener("log", {
        handleEvent() {
          throw "a string, not an Error";
        },
      });
      const after: unknown[] = [];
      client.addEventListener("log", (event) => after.push((event as DetailEvent<LogMessage>).detail.data));
      await client.callTool("log", { text: "once" });
      assert.deepEqual(after, ["once"]);
      assert.ok(causes.includes(thrown), messages.join("\n"));
      assert.ok(messages.some((message) => message === 'server "hostile": a "log" event listener threw: a string, not an Error'), messages.join("\n"));
      // A listener of the problem event that throws as well ends there: no loop, nothing uncaught.
      client.on("problem", () => {
        throw new Error("the problem listener is broken too");
      });
      await client.callTool("log", { text: "twice" });
      assert.deepEqual(after, ["once", "twice"]);
    } finally {
      await client.close();
    }
  },
);

behaviour("a statechange listener that throws cannot stop connect() or close()", async () => {
  const client = new Client(CLIENT_INFO, { name: "hostile", protocol: "legacy" });
  const problems: string[] = [];
  client.on("problem", ({ message }) => problems.push(message));
  const states: string[] = [];
  client.on("statechange", ({ to }) => {
    states.push(to);
    throw new Error(`refused ${to}`);
  });
  await client.connect(new StdioTransport({ command: "node", args: [fixture("hostile-answers-server.mjs")] }));
  assert.equal(client.state, "ready");
  await client.close();
  assert.equal(client.state, "closed");
  assert.deepEqual(states, ["connecting", "initializing", "ready", "closing", "closed"]);
  assert.equal(problems.filter((problem) => /a "statechange" event listener threw: Error: refused/.test(problem)).length, 5);
});

// --- a response that cannot be delivered fails its call at once ----------------------------

const LIMIT = 64 * 1024;

for (const [tool, how] of [["huge", "its id read from the line's first bytes"], ["huge-id-last", "its id read from the line's last bytes"]] as const) {
  behaviour(`a response over maxMessageBytes fails its call at once (${how}), naming server, method, size, limit and how to raise it`, async () => {
    const { client } = await hostile({ maxMessageBytes: LIMIT });
    try {
      const { error, ms } = await failure(client.callTool(tool, { bytes: 300_000 }));
      assert.ok(error instanceof UndeliverableResponseError, `${error.name}: ${error.message}`);
      assert.deepEqual([error.code, error.reason], ["undeliverable", "too-large"]);
      assert.equal(error.method, "tools/call");
      assert.equal(error.limit, LIMIT);
      assert.ok(error.bytes !== undefined && error.bytes > 300_000, String(error.bytes));
      assert.match(
        error.message,
        new RegExp(
          `^server "hostile": tools/call failed: its response \\(id \\d+\\) could not be delivered: the response is ${error.bytes} bytes, ` +
            `over the maxMessageBytes limit of ${LIMIT} bytes, and was skipped unread; raise the stdio transport's maxMessageBytes option`,
        ),
      );
      assert.ok(ms < AT_ONCE_MS, `took ${ms} ms`);
      // The connection goes on: the next answer arrives.
      assert.deepEqual((await client.callTool("echo", { text: "next" })).content, [{ type: "text", text: "next" }]);
    } finally {
      await client.close();
    }
  });
}

behaviour("a response over the limit whose id cannot be read fails the one call pending; with two pending, both wait and a problem says why", async () => {
  const { client, problems } = await hostile({ maxMessageBytes: LIMIT });
  try {
    const { error, ms } = await failure(client.callTool("huge-id-hidden", { bytes: 300_000 }));
    assert.ok(error instanceof UndeliverableResponseError, `${error.name}: ${error.message}`);
    assert.match(
      error.message,
      /^server "hostile": tools\/call failed: its response \(id unreadable, taken as \d+, the only request pending\) could not be delivered: the response is \d+ bytes/,
    );
    assert.ok(ms < AT_ONCE_MS, `took ${ms} ms`);

    const hidden = client.callTool("huge-id-hidden", { bytes: 300_000 }, { timeoutMs: 3000 });
    const slow = client.callTool("slow", { ms: 1500 });
    const outcome = await failure(hidden);
    assert.ok(outcome.error instanceof RequestTimeoutError, `${outcome.error.name}: ${outcome.error.message}`);
    assert.deepEqual((await slow).content, [{ type: "text", text: "slow answer" }]);
    assert.ok(
      problems.some((problem) => /a response could not be delivered \(the response is \d+ bytes.*its id could not be read and 2 are pending/.test(problem)),
      problems.join("\n"),
    );
  } finally {
    await client.close();
  }
});

behaviour("a response carrying both result and error fails its call at once with an error saying so", async () => {
  const { client } = await hostile();
  try {
    const { error, ms } = await failure(client.callTool("both"));
    assert.ok(error instanceof UndeliverableResponseError, `${error.name}: ${error.message}`);
    assert.deepEqual([error.code, error.reason], ["undeliverable", "result-and-error"]);
    assert.match(
      error.message,
      /^server "hostile": tools\/call failed: its response \(id \d+\) could not be delivered: the response carries both "result" and "error", which JSON-RPC 2\.0 forbids$/,
    );
    assert.ok(ms < AT_ONCE_MS, `took ${ms} ms`);
  } finally {
    await client.close();
  }
});

behaviour("a result that is not a JSON object fails its call at once, saying what it was", async () => {
  const { client } = await hostile();
  try {
    const { error, ms } = await failure(client.callTool("not-object"));
    assert.ok(error instanceof UndeliverableResponseError, `${error.name}: ${error.message}`);
    assert.deepEqual([error.code, error.reason], ["undeliverable", "result-not-object"]);
    assert.match(error.message, /^server "hostile": tools\/call failed: .*"result" is a string, not the JSON object MCP requires$/);
    assert.ok(ms < AT_ONCE_MS, `took ${ms} ms`);
  } finally {
    await client.close();
  }
});

// --- results of the wrong shape ------------------------------------------------------------

behaviour("a tools/call result without content is a ProtocolError bad-result naming server, tool and the missing member", async () => {
  const { client } = await hostile();
  try {
    const { error } = await failure(client.callTool("no-content"));
    assert.ok(error instanceof ProtocolError, `${error.name}: ${error.message}`);
    assert.equal(error.code, "bad-result");
    assert.equal(error.method, "tools/call");
    assert.match(error.message, /^server "hostile": tools\/call "no-content" returned a result without "content", which the spec requires/);
  } finally {
    await client.close();
  }
});

behaviour("a tools/list result without tools is a ProtocolError bad-result naming server and method", async () => {
  const { client } = await hostile({ args: ["no-tools-array"] });
  try {
    const { error } = await failure(client.listTools());
    assert.ok(error instanceof ProtocolError, `${error.name}: ${error.message}`);
    assert.equal(error.code, "bad-result");
    assert.equal(error.method, "tools/list");
    assert.match(error.message, /^server "hostile": tools\/list: page 1 of the result has no "tools" array, which the spec requires$/);
  } finally {
    await client.close();
  }
});

for (const jsonSchema of JSON_SCHEMA_VALIDATORS) {
  behaviour(
    `structuredContent nested 100,000 levels against a recursive outputSchema is refused with a clear error naming server and tool, not a stack overflow (${jsonSchema})`,
    async () => {
      const { client } = await hostile({ client: { jsonSchema } });
      try {
        await client.listTools();
        const { error } = await failure(client.callTool("deep", { depth: 100_000 }));
        assert.ok(error instanceof OutputValidationError, `${error.name}: ${error.message}`);
        assert.equal(error.code, "output-unchecked");
        assert.equal(error.tool, "deep");
        assert.match(
          error.message,
          /^server "hostile": tool "deep" returned structuredContent that could not be checked against its outputSchema: it is nested more than 1000 levels deep, too deep for the validator/,
        );
        // A shallow one still passes the same schema.
        const shallow = await client.callTool("deep", { depth: 3 });
        assert.deepEqual(shallow.structuredContent, { next: { next: { next: {} } } });
      } finally {
        await client.close();
      }
    },
  );
}

// --- timeouts that bound ---------------------------------------------------------------------

behaviour("a call ended by AbortSignal.timeout is a RequestAbortedError of kind timeout naming the server and the method", async () => {
  const { client } = await hostile();
  try {
    const { error, ms } = await failure(client.callTool("slow", { ms: 30_000 }, { signal: AbortSignal.timeout(300) }));
    assert.ok(error instanceof RequestAbortedError, `${error.name}: ${error.message}`);
    assert.equal(error.code, "timeout");
    assert.equal(error.method, "tools/call");
    assert.match(
      error.message,
      /^server "hostile": tools\/call timed out: the caller's AbortSignal fired \(.+\); give it more time, or check the server's stderr$/,
    );
    assert.ok(ms < AT_ONCE_MS, `took ${ms} ms`);
    const cancelled = await failure(client.callTool("slow", { ms: 30_000 }, { signal: AbortSignal.abort(new Error("user pressed stop")) }));
    assert.ok(cancelled.error instanceof RequestAbortedError && cancelled.error.code === "cancelled");
    assert.equal(cancelled.error.message, 'server "hostile": tools/call was cancelled by the caller: user pressed stop');
  } finally {
    await client.close();
  }
});

/** The hostile HTTP fixture: started, its port read from stdout, stopped by closing its stdin. */
const httpFixture = () => startPortFixture("hostile-slow-ack-server.mjs", { env: { PATH: process.env.PATH ?? "" }, stopWith: "stdin", startLimitMs: 15_000 });

behaviour("initializeTimeoutMs bounds the whole connect: a server holding the 202 of notifications/initialized fails it in time, naming the step", async () => {
  const server = await httpFixture();
  try {
    const client = new Client(CLIENT_INFO, { name: "slow-202", protocol: "legacy", initializeTimeoutMs: 1500 });
    // The transport's own bound (30 s by default) is what held connect() before.
    const transport = new StreamableHttpTransport({ url: `${server.origin}/mcp?hold202=60000` });
    const { error, ms } = await failure(client.connect(transport));
    assert.ok(error instanceof RequestTimeoutError, `${error.name}: ${error.message}`);
    assert.equal(error.method, "notifications/initialized");
    assert.equal(error.kind, "total");
    assert.match(
      error.message,
      /^server "slow-202": notifications\/initialized timed out: connect did not finish within initializeTimeoutMs \(1\.5 s\): the server did not accept notifications\/initialized in time \(over HTTP: no 202 to its POST\); raise initializeTimeoutMs/,
    );
    assert.ok(ms < 15_000, `took ${ms} ms`);
    assert.equal(client.state, "failed");
  } finally {
    await server.stop();
  }
});

behaviour("a 202 that comes within initializeTimeoutMs lets connect() finish", async () => {
  const server = await httpFixture();
  try {
    const client = new Client(CLIENT_INFO, { name: "slow-202", protocol: "legacy", initializeTimeoutMs: 20_000 });
    await client.connect(new StreamableHttpTransport({ url: `${server.origin}/mcp?hold202=300` }));
    assert.equal(client.state, "ready");
    await client.close();
  } finally {
    await server.stop();
  }
});
