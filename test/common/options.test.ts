// Option objects checked at the public constructors: a misspelt key is refused naming the
// nearest known option, a missing required one is named, and valid options still work.

import assert from "node:assert/strict";
import { test } from "node:test";
import { SamplingGate } from "../../src/client/sampling.ts";
import { editDistance, nearestName } from "../../src/common/nearest-name.ts";
import { checkOptions, InvalidOptionsError } from "../../src/common/options.ts";
import { createSyncBridge, McpManager, parseConfig, ServerSkills } from "../../src/host/mod.ts";
import {
  AutoHttpTransport,
  Client,
  InvalidOptionsError as RootInvalidOptionsError,
  LineDecoder,
  MemoryTransport,
  Peer,
  SseLegacyTransport,
  StdioTransport,
  StreamableHttpTransport,
  TracingTransport,
} from "../../src/mod.ts";
import { registerMcpServer, ResultFiles, ToolRegistry } from "../../src/registry/mod.ts";

const INFO = { name: "options-test", version: "0.0.0" };
const URL_NOWHERE = "http://127.0.0.1:9/mcp";

/** Asserts `make` throws an InvalidOptionsError whose message holds every `parts` (in order). */
function refused(make: () => unknown, ...parts: string[]): InvalidOptionsError {
  let caught: unknown;
  try {
    make();
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof InvalidOptionsError, `expected an InvalidOptionsError, got ${String(caught)}`);
  assert.equal(caught.code, "invalid-options");
  let from = 0;
  for (const part of parts) {
    const at = caught.message.indexOf(part, from);
    assert.ok(at >= 0, `"${part}" not in (or out of order in): ${caught.message}`);
    from = at + part.length;
  }
  return caught;
}

/** Options as a JavaScript caller might misspell them (the types would refuse them). */
const loose = (value: Record<string, unknown>): never => value as never;

test("StdioTransport: a misspelt command is named with its fix, and the missing command too", () => {
  const error = refused(
    () => new StdioTransport(loose({ cmd: "node" })),
    'StdioTransport: unknown option "cmd" (did you mean "command"?)',
    'required option "command" is missing',
  );
  assert.deepEqual([error.unknown, error.missing], [["cmd"], ["command"]]);
  refused(() => new StdioTransport(loose({ command: "node", arg: ["x"] })), 'unknown option "arg" (did you mean "args"?)');
  refused(() => new StdioTransport(loose({ command: "node", envmode: "exact" })), 'unknown option "envmode" (did you mean "envMode"?)');
  refused(() => new StdioTransport(loose({ args: [] })), 'StdioTransport: required option "command" is missing');
  refused(() => new StdioTransport(undefined as never), "StdioTransport: options must be an object (got undefined)", '"command"');
});

test("the HTTP transports: a misspelt url or header is named with its fix", () => {
  for (
    const [who, make] of [
      ["StreamableHttpTransport", (options: unknown) => new StreamableHttpTransport(loose(options as Record<string, unknown>))],
      ["SseLegacyTransport", (options: unknown) => new SseLegacyTransport(loose(options as Record<string, unknown>))],
      ["AutoHttpTransport", (options: unknown) => new AutoHttpTransport(loose(options as Record<string, unknown>))],
    ] as const
  ) {
    refused(() => make({ uri: URL_NOWHERE }), `${who}: unknown option "uri" (did you mean "url"?)`, 'required option "url" is missing');
    refused(() => make({ url: URL_NOWHERE, header: {} }), `${who}: unknown option "header" (did you mean "headers"?)`);
  }
  refused(() => new StreamableHttpTransport(loose({ url: URL_NOWHERE, timeout: 5 })), 'unknown option "timeout" (did you mean "timeoutMs"?)');
  refused(() => new SseLegacyTransport(loose({ url: URL_NOWHERE, postTimeout: 5 })), 'unknown option "postTimeout" (did you mean "postTimeoutMs"?)');
});

test("TracingTransport, Client, ToolRegistry, ResultFiles: a misspelt option is named with its fix", () => {
  const [inner] = MemoryTransport.pair();
  refused(() => new TracingTransport(inner, () => {}, loose({ maxChar: 10 })), 'TracingTransport: unknown option "maxChar" (did you mean "maxChars"?)');
  const error = refused(
    () => new Client(INFO, loose({ requestTimeout: 5, protocl: "auto" })),
    'Client: unknown option "requestTimeout" (did you mean "requestTimeoutMs"?)',
    'unknown option "protocl" (did you mean "protocol"?)',
  );
  assert.ok(error instanceof RootInvalidOptionsError, "the root entry exports the same class");
  refused(() => new ToolRegistry(loose({ maxResultsChars: 10 })), 'ToolRegistry: unknown option "maxResultsChars" (did you mean "maxResultChars"?)');
  refused(() => new ResultFiles(loose({ maxFile: 10 })), 'ResultFiles: unknown option "maxFile" (did you mean "maxFiles"?)');
});

test("McpManager, ServerSkills, createSyncBridge: a misspelt option is named with its fix", () => {
  const config = parseConfig("mcp_servers: {}\n", { file: "/virtual/mcpwire.yaml", env: {} });
  refused(() => new McpManager(config, loose({ connectRetry: 2 })), 'McpManager: unknown option "connectRetry" (did you mean "connectRetries"?)');
  const client = new Client(INFO);
  refused(() => new ServerSkills(client, loose({ servr: "docs" })), 'ServerSkills: unknown option "servr" (did you mean "server"?)');
  // Refused before any worker starts.
  refused(() => createSyncBridge({ config }, loose({ timeout: 5 })), 'createSyncBridge: unknown option "timeout" (did you mean "timeoutMs"?)');
  refused(
    () => createSyncBridge({ config }, loose({ manager: { clientinfo: INFO } })),
    'createSyncBridge: manager: unknown option "clientinfo" (did you mean "clientInfo"?)',
  );
});

test("Peer, LineDecoder, SamplingGate, registerMcpServer: a misspelt option is named with its fix", async () => {
  const send = () => Promise.resolve();
  refused(() => new Peer(loose({ name: "p", send, defaultTimeout: 5 })), 'Peer: unknown option "defaultTimeout" (did you mean "defaultTimeoutMs"?)');
  refused(() => new Peer(loose({ send })), 'Peer: required option "name" is missing');
  refused(
    () => new LineDecoder(loose({ onmessage: () => {} })),
    'LineDecoder: unknown option "onmessage" (did you mean "onMessage"?)',
    'required option "onMessage" is missing',
  );
  const sampler = () => Promise.reject(new Error("unused"));
  refused(() => new SamplingGate(sampler, loose({ maxToken: 5 })), 'SamplingGate: unknown option "maxToken" (did you mean "maxTokens"?)');
  const client = { listTools: () => Promise.reject(new Error("not listed")) } as never;
  await assert.rejects(registerMcpServer(new ToolRegistry(), "s", client, loose({ exlude: ["x"] })), (error: unknown) => {
    assert.ok(error instanceof InvalidOptionsError, String(error));
    assert.match(error.message, /registerMcpServer: unknown option "exlude" \(did you mean "exclude"\?\)/);
    return true;
  });
});

test("valid options, every key the options types name, still construct", async () => {
  const [inner] = MemoryTransport.pair();
  const stdio = new StdioTransport({
    command: "node",
    args: [],
    env: {},
    envMode: "exact",
    cwd: ".",
    shutdownTimeoutMs: 10,
    onStderr: () => {},
    maxMessageBytes: 10,
  });
  assert.match(stdio.description, /node/);
  const http = { url: URL_NOWHERE, headers: {}, fetch, maxMessageBytes: 10, maxRetryAfterMs: 10, redactor: undefined };
  new StreamableHttpTransport({ ...http, reconnect: {}, requestInit: {}, timeoutMs: 10, closeTimeoutMs: 10, listen: false });
  new SseLegacyTransport({ ...http, endpointTimeoutMs: 10, postTimeoutMs: 10 });
  new AutoHttpTransport({ ...http, endpointTimeoutMs: 10 });
  new TracingTransport(inner, () => {}, { maxChars: 10 });
  new Client(INFO);
  new Client(INFO, { name: "x", requestTimeoutMs: 10, protocol: "legacy", listen: false, taskReceiver: false });
  new ToolRegistry();
  new ToolRegistry({ maxResultChars: 10, resultFiles: undefined });
  new ResultFiles({ directory: undefined, maxFiles: 2, maxAgeMs: 10 });
  const config = parseConfig("mcp_servers: {}\n", { file: "/virtual/mcpwire.yaml", env: {} });
  const manager = new McpManager(config, { connectRetries: 1, closeTimeoutMs: 10 });
  await manager.close();
  new ServerSkills(new Client(INFO), { server: "docs", maxPages: 2 });
  new Peer({ name: "p", send: () => Promise.resolve(), defaultTimeoutMs: 10, maxTotalTimeoutMs: 10, onProblem: () => {} });
  new LineDecoder({ onMessage: () => {}, onProblem: () => {}, maxMessageBytes: 10 });
  new SamplingGate(() => Promise.reject(new Error("unused")), { maxTokens: 1, requestsPerMinute: 1, models: [], timeoutMs: 1, tools: false });
});

test("checkOptions: undefined is no options; a non-object is refused; inherited keys are not options", () => {
  checkOptions("X", undefined, ["a"]);
  refused(() => checkOptions("X", null, ["a"]), "X: options must be an object (got null)");
  refused(() => checkOptions("X", [1], ["a"]), "X: options must be an object (got an array)");
  checkOptions("X", Object.create({ inherited: 1 }), ["a"]);
  refused(() => checkOptions("X", { zzz: 1 }, ["a"]), 'X: unknown option "zzz"; known options: a');
});

test("nearestName: case and separators, a few edits, a prefix, an abbreviation; nothing when none is near", () => {
  assert.equal(nearestName("Command", ["command", "cwd"]), "command");
  assert.equal(nearestName("max_files", ["maxFiles"]), "maxFiles");
  assert.equal(nearestName("comand", ["command", "cwd"]), "command");
  assert.equal(nearestName("timeout", ["timeoutMs", "listen"]), "timeoutMs");
  assert.equal(nearestName("cmd", ["command"]), "command");
  assert.equal(nearestName("zzz", ["command", "cwd"]), undefined);
  assert.equal(editDistance("sum", "smu"), 1);
});
