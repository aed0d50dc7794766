// The error model of the low layers (issue 25 "One error model"): every error class of jsonrpc,
// transport, runtime, common and auth, and every RpcError or RequestError subclass, is an
// McpwireError whose `code` is a named string; an RpcError keeps the JSON-RPC number as
// `rpcCode` and puts it back on the wire; a closed connection and a timeout are codes a caller
// tests without reading the message. Real parts: Peers over MemoryTransport, a real stdio child.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { AuthError } from "../../src/auth/errors.ts";
import { importPrivateKey, JwtKeyError } from "../../src/auth/jwt.ts";
import { OAuthError } from "../../src/auth/token-endpoint.ts";
import { TokenStoreError } from "../../src/auth/token-store.ts";
import { Client } from "../../src/client/client.ts";
import { UrlElicitationRequiredError } from "../../src/client/elicitation.ts";
import {
  HeaderMismatchError,
  InputRoundsExceededError,
  MissingClientCapabilityError,
  OutcomeUnknownError,
  ResourceNotFoundError,
  TaskFailedError,
  typedRpcError,
  UnsupportedProtocolVersionError,
} from "../../src/client/errors.ts";
import { SamplingRejectedError } from "../../src/client/sampling.ts";
import { McpwireError } from "../../src/common/mcpwire-error.ts";
import { checkOptions, InvalidOptionsError } from "../../src/common/options.ts";
import {
  ConnectionClosedError,
  ErrorCode,
  RequestAbortedError,
  RequestError,
  RequestTimeoutError,
  RpcError,
  rpcErrorCode,
  UndeliverableResponseError,
} from "../../src/jsonrpc/errors.ts";
import { Peer } from "../../src/jsonrpc/peer.ts";
import { FileError, SpawnError } from "../../src/runtime/errors.ts";
import { runtime } from "../../src/runtime/mod.ts";
import { HttpStatusError } from "../../src/transport/http-errors.ts";
import { StdioTransport } from "../../src/transport/stdio.ts";
import { TransportError, UndeliverableMessageError } from "../../src/transport/transport.ts";
import { fixturePath } from "../support/fixture-process.ts";
import { hangGuard } from "../support/hang-guard.ts";
import { startedPair } from "../support/memory-pair.ts";

const GUARD = { timeout: 15_000 };

/** Asserts the error is an McpwireError (and an Error) of class `type`, name `name` and code `code`. */
function coded(error: unknown, type: abstract new (...args: never[]) => Error, name: string, code: string): void {
  assert.ok(error instanceof McpwireError, `${String(error)} is an McpwireError`);
  assert.ok(error instanceof Error);
  assert.ok(error instanceof type, `${String(error)} is a ${type.name}`);
  assert.equal(error.name, name);
  assert.equal(error.code, code);
  assert.equal(typeof error.code, "string");
}

async function twoPeers() {
  const client = new Peer({ name: 'server "test"', send: (message) => a.send(message), onProblem: () => {} });
  const server = new Peer({ name: "client", send: (message) => b.send(message), onProblem: () => {} });
  const [a, b] = await startedPair(client, server);
  return { client, server, close: () => a.close() };
}

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return await hangGuard(promise.then(() => assert.fail("resolved"), (error: unknown) => error), 10_000, "the request");
}

describe("error model: every class of the low layers is an McpwireError with a named code", () => {
  test("RpcError: code names rpcCode; the known numbers, the server range and any other", () => {
    const table: [number, string][] = [
      [-32700, "parse-error"],
      [-32600, "invalid-request"],
      [-32601, "method-not-found"],
      [-32602, "invalid-params"],
      [-32603, "internal-error"],
      [-32002, "resource-not-found"],
      [-32020, "header-mismatch"],
      [-32021, "missing-client-capability"],
      [-32022, "unsupported-protocol-version"],
      [-32042, "url-elicitation-required"],
      [-1, "user-rejected"],
      [-32000, "server-error"],
      [-32099, "server-error"],
      [-32003, "server-error"],
      [42, "application-error"],
      [-32768, "application-error"],
    ];
    for (const [rpcCode, code] of table) {
      const error = new RpcError(`boom ${rpcCode}`, rpcCode, { data: { n: rpcCode } });
      coded(error, RpcError, "RpcError", code);
      assert.equal(rpcErrorCode(rpcCode), code);
      assert.equal(error.rpcCode, rpcCode);
      assert.deepEqual(error.toJSON(), { code: rpcCode, message: `boom ${rpcCode}`, data: { n: rpcCode } });
    }
    const cause = new Error("underneath");
    const plain = new RpcError("no data", ErrorCode.InvalidParams, { cause });
    assert.deepEqual(plain.toJSON(), { code: -32602, message: "no data" });
    assert.equal(plain.cause, cause);
  });

  test("the RpcError subclasses: their own code, the number kept as rpcCode", () => {
    coded(
      new UnsupportedProtocolVersionError("v", { data: { supported: ["2026-07-28"] } }),
      UnsupportedProtocolVersionError,
      "UnsupportedProtocolVersionError",
      "unsupported-protocol-version",
    );
    coded(new HeaderMismatchError("h"), HeaderMismatchError, "HeaderMismatchError", "header-mismatch");
    const missing = new MissingClientCapabilityError("m", { data: { requiredCapabilities: { sampling: {} } }, rpcCode: -32003 });
    coded(missing, MissingClientCapabilityError, "MissingClientCapabilityError", "missing-client-capability");
    assert.equal(missing.rpcCode, -32003);
    assert.deepEqual(missing.requiredCapabilities, { sampling: {} });
    // From 2026-07-28 a missing resource is -32602: still "resource-not-found" by name.
    const notFound = new ResourceNotFoundError("r", -32602, { uri: "x://y" });
    coded(notFound, ResourceNotFoundError, "ResourceNotFoundError", "resource-not-found");
    assert.equal(notFound.rpcCode, -32602);
    assert.equal(notFound.uri, "x://y");
    const failed = new TaskFailedError("t", -32603, { taskId: "t1" });
    coded(failed, TaskFailedError, "TaskFailedError", "internal-error");
    assert.equal(failed.taskId, "t1");
    const rejected = new SamplingRejectedError();
    coded(rejected, SamplingRejectedError, "SamplingRejectedError", "user-rejected");
    assert.equal(rejected.rpcCode, -1);
    const url = new UrlElicitationRequiredError("u", { elicitations: [] });
    coded(url, UrlElicitationRequiredError, "UrlElicitationRequiredError", "url-elicitation-required");
    assert.equal(url.rpcCode, -32042);
    for (
      const [rpcCode, type] of [[-32020, HeaderMismatchError], [-32021, MissingClientCapabilityError], [-32003, MissingClientCapabilityError], [
        -32022,
        UnsupportedProtocolVersionError,
      ]] as const
    ) {
      const typed = typedRpcError(new RpcError("x", rpcCode));
      assert.ok(typed instanceof type, `${rpcCode} is a ${type.name}`);
      assert.equal((typed as RpcError).rpcCode, rpcCode);
    }
  });

  test("ConnectionClosedError and the RequestError family: connection-closed, timeout, cancelled, undeliverable, …", () => {
    const details = { reason: "stream ended" };
    const closed = new ConnectionClosedError("gone", { details });
    coded(closed, ConnectionClosedError, "ConnectionClosedError", "connection-closed");
    assert.equal(closed.details, details);
    const timeout = new RequestTimeoutError("slow", { method: "tools/call", timeoutMs: 5, kind: "idle" });
    coded(timeout, RequestError, "RequestTimeoutError", "timeout");
    assert.deepEqual([timeout.method, timeout.timeoutMs, timeout.kind], ["tools/call", 5, "idle"]);
    coded(new RequestAbortedError("stop", "cancelled", { method: "m", cause: "why" }), RequestAbortedError, "RequestAbortedError", "cancelled");
    coded(new RequestAbortedError("late", "timeout", { method: "m", cause: "why" }), RequestAbortedError, "RequestAbortedError", "timeout");
    const undeliverable = new UndeliverableResponseError("big", {
      method: "m",
      requestId: 3,
      response: { id: 3, reason: "too-large", detail: "d", bytes: 9, limit: 1 },
    });
    coded(undeliverable, RequestError, "UndeliverableResponseError", "undeliverable");
    assert.deepEqual([undeliverable.reason, undeliverable.requestId, undeliverable.bytes, undeliverable.limit], ["too-large", 3, 9, 1]);
    coded(new OutcomeUnknownError("?", { method: "tools/call" }), RequestError, "OutcomeUnknownError", "outcome-unknown");
    const rounds = new InputRoundsExceededError("r", { method: "tools/call", rounds: 4 });
    coded(rounds, RequestError, "InputRoundsExceededError", "input-rounds-exceeded");
    assert.equal(rounds.rounds, 4);
  });

  test("transport, runtime, common and auth errors", async () => {
    coded(new TransportError("t", "closed"), TransportError, "TransportError", "closed");
    const status = new HttpStatusError("h", "busy", { status: 429, url: "http://x/", retryAt: new Date(0) });
    coded(status, TransportError, "HttpStatusError", "busy");
    assert.deepEqual([status.status, status.url, status.bodyStart, status.retryAt?.getTime()], [429, "http://x/", "", 0]);
    const message = new UndeliverableMessageError("u", { response: { reason: "bad-error", detail: "d" } });
    coded(message, TransportError, "UndeliverableMessageError", "undeliverable");
    assert.equal(message.response.reason, "bad-error");
    coded(new SpawnError("s", "ENOENT"), SpawnError, "SpawnError", "ENOENT");
    const missingFile = await runtime.readTextFile("/nonexistent/mcpwire-error-model").then(() => undefined, (error: unknown) => error);
    coded(missingFile, FileError, "FileError", "ENOENT");
    assert.equal((missingFile as FileError).path, "/nonexistent/mcpwire-error-model");
    const options = (() => {
      try {
        checkOptions("Thing", { cmd: "x" }, ["command"]);
      } catch (error) {
        return error;
      }
    })();
    coded(options, InvalidOptionsError, "InvalidOptionsError", "invalid-options");
    coded(new AuthError("a", "state-mismatch"), AuthError, "AuthError", "state-mismatch");
    const oauth = new OAuthError("o", "token-refused", { error: "invalid_grant", status: 400, endpoint: "https://as/token" });
    coded(oauth, OAuthError, "OAuthError", "token-refused");
    assert.deepEqual([oauth.error, oauth.status, oauth.endpoint], ["invalid_grant", 400, "https://as/token"]);
    const store = new TokenStoreError("s", "unwritable", { path: "/p" });
    coded(store, TokenStoreError, "TokenStoreError", "unwritable");
    assert.equal(store.path, "/p");
    const key = await importPrivateKey("not a key", "ES256").then(() => undefined, (error: unknown) => error);
    coded(key, JwtKeyError, "JwtKeyError", "invalid-key");
  });
});

describe("error model: rpcCode round trip through Peers", () => {
  test("a handler's RpcError goes on the wire as its number and comes back with rpcCode, code and data", GUARD, async () => {
    const { client, server, close } = await twoPeers();
    server.setRequestHandler("elicit", () => {
      throw new UrlElicitationRequiredError("open it", { elicitations: [], data: { elicitations: [] } });
    });
    server.setRequestHandler("sample", () => Promise.reject(new SamplingRejectedError()));
    server.setRequestHandler("custom", () => {
      throw new RpcError("teapot", -32050, { data: [1, 2] });
    });
    server.setRequestHandler("crash", () => {
      throw new Error("disk full");
    });
    const elicit = await rejectionOf(client.request("elicit"));
    coded(elicit, RpcError, "RpcError", "url-elicitation-required"); // the wire carries no class: a plain RpcError
    assert.equal((elicit as RpcError).rpcCode, -32042);
    assert.deepEqual((elicit as RpcError).data, { elicitations: [] });
    const sample = await rejectionOf(client.request("sample"));
    coded(sample, RpcError, "RpcError", "user-rejected");
    assert.deepEqual((sample as RpcError).toJSON(), { code: -1, message: "User rejected sampling request" });
    const custom = await rejectionOf(client.request("custom"));
    coded(custom, RpcError, "RpcError", "server-error");
    assert.deepEqual((custom as RpcError).toJSON(), { code: -32050, message: "teapot", data: [1, 2] });
    const crash = await rejectionOf(client.request("crash"));
    coded(crash, RpcError, "RpcError", "internal-error");
    assert.equal((crash as RpcError).rpcCode, ErrorCode.InternalError);
    const unknown = await rejectionOf(client.request("nothing/here"));
    coded(unknown, RpcError, "RpcError", "method-not-found");
    assert.equal((unknown as RpcError).rpcCode, -32601);
    await close();
  });
});

describe("error model: closed connection and timeout are codes, not text", () => {
  test("a request with no answer in time rejects with code timeout", GUARD, async () => {
    const { client, server, close } = await twoPeers();
    server.setRequestHandler("hang", () => new Promise(() => {}));
    const error = await rejectionOf(client.request("hang", undefined, { timeoutMs: 30 }));
    coded(error, RequestTimeoutError, "RequestTimeoutError", "timeout");
    const aborted = await rejectionOf(client.request("hang", undefined, { signal: AbortSignal.timeout(30) }));
    coded(aborted, RequestAbortedError, "RequestAbortedError", "timeout");
    await close();
  });

  test("a connection that closes under a request rejects it, and later ones, with code connection-closed", GUARD, async () => {
    const { client, server, close } = await twoPeers();
    server.setRequestHandler("hang", () => new Promise(() => {}));
    const pending = rejectionOf(client.request("hang"));
    await close();
    coded(await pending, ConnectionClosedError, "ConnectionClosedError", "connection-closed");
    coded(await rejectionOf(client.request("hang")), ConnectionClosedError, "ConnectionClosedError", "connection-closed");
  });

  test("a real stdio server that dies mid-call: the call rejects with code connection-closed", GUARD, async () => {
    const client = new Client({ name: "error-model-test", version: "0.0.0" }, { protocol: "legacy" });
    await hangGuard(client.connect(new StdioTransport({ command: "node", args: [fixturePath("crash-server.mjs")] })), 10_000, "connect");
    try {
      const error = await rejectionOf(client.callTool("echo", {}));
      coded(error, ConnectionClosedError, "ConnectionClosedError", "connection-closed");
      assert.equal((error as ConnectionClosedError).details.exitCode, 3);
    } finally {
      await client.close();
    }
  });
});
