// The 2026-07-28 specification's own example messages (spec 2026-07-28 schema/examples, copied
// to test/fixtures/spec-examples/2026-07-28/) as test vectors: the JSON-RPC envelope and the line
// framer, then the Client consuming each result, error, input request and notification for real.

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { UrlElicitationRequest } from "../../src/client/handlers.ts";
import { paramHeadersOf, requestHeaders } from "../../src/client/request-headers.ts";
import type { CompleteReference } from "../../src/client/types.ts";
import { encodeLine } from "../../src/jsonrpc/line-encoder.ts";
import { isErrorResponse, isNotification, isRequest, isResponse, whyNotJsonRpc } from "../../src/jsonrpc/messages.ts";
import type { RequestHandler } from "../../src/jsonrpc/peer.ts";
import {
  Client,
  type ClientOptions,
  type CreateMessageRequest,
  type CreateMessageResult,
  type ElicitFormRequest,
  type ElicitResult,
  HeaderMismatchError,
  type JsonRpcMessage,
  type JsonRpcRequest,
  LineDecoder,
  type LogMessage,
  MissingClientCapabilityError,
  type Params,
  type Progress,
  ProtocolVersionError,
  type Root,
  RpcError,
  UnsupportedProtocolVersionError,
} from "../../src/mod.ts";
import { nextEvent as nextEventOf } from "../support/events.ts";
import { type InProcessServer, inProcessServer, requestsFor } from "../support/in-process-server.ts";

type Json = Record<string, unknown>;

const EXAMPLES = new URL("../fixtures/spec-examples/2026-07-28/", import.meta.url);
const INFO = { name: "mcpwire-spec-examples", version: "1.0.0" };
const META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";
const META_SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";
const HANG_GUARD_MS = 10_000;
const utf8 = new TextEncoder();

interface Example {
  /** `<TypeName>/<file>.json`, as the spec names it. */
  name: string;
  value: Json;
}

const TYPES = readdirSync(fileURLToPath(EXAMPLES), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

/** Every example of one type, freshly parsed (so no test sees another's mutations). */
function examplesOf(type: string): Example[] {
  const dir = new URL(`${type}/`, EXAMPLES);
  return readdirSync(fileURLToPath(dir))
    .filter((file) => file.endsWith(".json"))
    .sort()
    .map((file) => ({ name: `${type}/${file}`, value: JSON.parse(readFileSync(fileURLToPath(new URL(file, dir)), "utf8")) as Json }));
}

/** One example, freshly parsed: the only one of its type, or the named file. */
function example(type: string, file?: string): Json {
  const all = examplesOf(type);
  if (file === undefined) {
    assert.equal(all.length, 1, `${type} has ${all.length} examples; name the file`);
    return all[0]!.value;
  }
  const found = all.find((candidate) => candidate.name === `${type}/${file}`);
  assert.ok(found, `no example ${type}/${file}`);
  return found.value;
}

/** The `result` examples of a type: its own files and the `result` of its *ResultResponse files. */
function resultsOf(type: string): Example[] {
  const responses = TYPES.includes(`${type}Response`) ? examplesOf(`${type}Response`).map(({ name, value }) => ({ name, value: value.result as Json })) : [];
  return [...examplesOf(type), ...responses];
}

function asObject(value: unknown): Json {
  assert.ok(typeof value === "object" && value !== null && !Array.isArray(value), `expected an object, got ${JSON.stringify(value)}`);
  return value as Json;
}

function sortedKeys(value: unknown): string[] {
  return Object.keys(asObject(value)).sort();
}

// --- 1. the envelope and the line framer ---------------------------------------------------

/** What kind of JSON-RPC message a type's name says its examples are. */
function kindOf(type: string): "request" | "result response" | "notification" | "error response" | undefined {
  if (type.endsWith("ResultResponse")) return "result response";
  if (type.endsWith("Request")) return "request";
  if (type.endsWith("Notification")) return "notification";
  if (type.endsWith("Error")) return "error response";
  return undefined;
}

/**
 * The example types that are not JSON-RPC messages, and what they are instead. In 2026-07-28
 * a server's request to the client travels inside an InputRequiredResult as method + params
 * (spec 2026-07-28 basic/patterns/mrtr), so those examples carry no envelope.
 */
const NOT_MESSAGES: Record<string, string> = {
  CreateMessageRequest: "an input request (method and params) as an InputRequiredResult carries it",
  ElicitRequest: "an input request (method and params) as an InputRequiredResult carries it",
  ListRootsRequest: "an input request (method, and an id but no jsonrpc) as an InputRequiredResult carries it",
  MethodNotFoundError: "the error member of an error response",
};

function decodeChunks(chunks: Uint8Array[]): { messages: JsonRpcMessage[]; problems: string[] } {
  const messages: JsonRpcMessage[] = [];
  const problems: string[] = [];
  const decoder = new LineDecoder({ onMessage: (message) => messages.push(message), onProblem: (problem) => problems.push(problem.message) });
  for (const chunk of chunks) decoder.push(chunk);
  decoder.end();
  return { messages, problems };
}

function chunksOf(bytes: Uint8Array, size: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let start = 0; start < bytes.length; start += size) chunks.push(bytes.subarray(start, start + size));
  return chunks;
}

const MESSAGE_EXAMPLES: Example[] = TYPES.filter((type) => kindOf(type) !== undefined && !(type in NOT_MESSAGES)).flatMap(examplesOf);

describe("spec examples: every JSON-RPC message passes the envelope check and survives the line framer", () => {
  for (const type of TYPES) {
    const kind = kindOf(type);
    if (kind === undefined) continue;
    for (const { name, value } of examplesOf(type)) {
      const instead = NOT_MESSAGES[type];
      if (instead !== undefined) {
        test(`${name} is ${instead}, not a JSON-RPC message: the envelope check refuses it, and accepts it once enveloped`, () => {
          assert.equal(whyNotJsonRpc(value), 'missing "jsonrpc": "2.0"');
          const enveloped = kind === "error response" ? { jsonrpc: "2.0", id: 1, error: value } : { jsonrpc: "2.0", id: 1, ...value };
          assert.equal(whyNotJsonRpc(enveloped), undefined);
        });
        continue;
      }
      test(`${name} is a JSON-RPC ${kind}; encodeLine → LineDecoder gives it back deep-equal, whole and in 1, 2, 3 and 5-byte chunks`, () => {
        assert.equal(whyNotJsonRpc(value), undefined);
        const message = value as unknown as JsonRpcMessage;
        const guard = { request: isRequest, notification: isNotification, "result response": isResponse, "error response": isErrorResponse }[kind];
        assert.ok(guard(message), `${name} is not told apart as a ${kind}`);
        if (kind === "result response") assert.ok("result" in message);
        const line = encodeLine(message);
        assert.equal(line.indexOf("\n"), line.length - 1, "one line, its only newline the delimiter");
        const bytes = utf8.encode(line);
        for (const size of [bytes.length, 1, 2, 3, 5]) {
          const { messages, problems } = decodeChunks(chunksOf(bytes, size));
          assert.deepEqual(problems, [], `chunks of ${size} bytes`);
          assert.deepEqual(messages, [value], `chunks of ${size} bytes`);
        }
      });
    }
  }

  test("all message examples as one stream, cut every 1 to 7 bytes, come back in order; the stream has multi-byte UTF-8 characters to split", () => {
    assert.ok(MESSAGE_EXAMPLES.length >= 30, `only ${MESSAGE_EXAMPLES.length} message examples found`);
    const text = MESSAGE_EXAMPLES.map(({ value }) => encodeLine(value as unknown as JsonRpcMessage)).join("");
    const bytes = utf8.encode(text);
    // "72°F" in CallToolResultResponse: a 2-byte character, so odd cuts fall inside one.
    assert.ok(bytes.length > text.length, "no multi-byte character in the examples: the split-safety claim would be untested");
    for (let size = 1; size <= 7; size++) {
      const { messages, problems } = decodeChunks(chunksOf(bytes, size));
      assert.deepEqual(problems, [], `chunks of ${size} bytes`);
      assert.deepEqual(messages, MESSAGE_EXAMPLES.map(({ value }) => value), `chunks of ${size} bytes`);
    }
  });
});

// --- 2. the Client consuming the examples -----------------------------------------------------

interface Connected {
  client: Client;
  server: InProcessServer;
  /** The client's problem events, as a user would read them. */
  problems: string[];
}

/** A DiscoverResult example with more capabilities (the example declares tools and resources only). */
function discoverWith(capabilities: Json, discover: Json = example("DiscoverResult")): Json {
  return { ...discover, capabilities: { ...asObject(discover.capabilities), ...capabilities } };
}

/**
 * A Client on the 2026-07-28 wire, over a MemoryTransport pair, to the in-process server (a
 * Peer) answering server/discover with `discover` and the rest with `handlers`. Answers are
 * handed over as objects (no serialisation), so handlers return fresh copies.
 */
async function connectModern(
  handlers: Record<string, RequestHandler>,
  options: ClientOptions = {},
  discover: Json = example("DiscoverResult"),
): Promise<Connected> {
  const server = inProcessServer({}, { "server/discover": () => structuredClone(discover), ...handlers });
  const client = new Client(INFO, { protocol: "modern", ...options });
  const problems: string[] = [];
  client.on("problem", ({ message }) => problems.push(message));
  await client.connect(server.clientEnd);
  return { client, server, problems };
}

/** The requests of one method the server received, whole (ids included). */
function requestMessages(server: InProcessServer, method: string): JsonRpcRequest[] {
  return server.received.filter((message): message is JsonRpcRequest => isRequest(message) && message.method === method);
}

/** The request's params have the example's fields, and its `_meta` the example's protocol fields. */
function assertShapedLike(actual: Params, exampleRequest: Json, client: Client, extraMeta: string[] = []): void {
  const expected = asObject(exampleRequest.params);
  assert.deepEqual(sortedKeys(actual), sortedKeys(expected), "the request's params fields");
  const meta = asObject(actual._meta);
  const expectedMeta = asObject(expected._meta);
  assert.deepEqual(sortedKeys(meta), [...Object.keys(expectedMeta), ...extraMeta].sort(), "the request's _meta fields");
  assert.equal(meta["io.modelcontextprotocol/protocolVersion"], expectedMeta["io.modelcontextprotocol/protocolVersion"]);
  assert.deepEqual(meta["io.modelcontextprotocol/clientInfo"], INFO);
  assert.deepEqual(meta["io.modelcontextprotocol/clientCapabilities"], client.capabilities);
}

describe("spec examples: the client consumes the DiscoverResult examples", () => {
  for (const { name, value } of resultsOf("DiscoverResult")) {
    for (const protocol of ["modern", "auto"] as const) {
      test(`${name} with protocol "${protocol}": modern era, 2026-07-28, serverInfo from _meta, the example's capabilities and instructions; no initialize`, async () => {
        const { client, server } = await connectModern({}, { protocol }, value);
        try {
          assert.equal(client.era, "modern");
          assert.equal(client.protocolVersion, "2026-07-28");
          assert.deepEqual(client.serverInfo, asObject(value._meta)[META_SERVER_INFO]);
          assert.deepEqual(client.serverCapabilities, value.capabilities);
          assert.equal(client.instructions, value.instructions);
          const first = server.received[0];
          assert.ok(first !== undefined && isRequest(first) && first.method === "server/discover", "server/discover came first");
          assertShapedLike(first.params ?? {}, example("DiscoverRequest"), client);
          assert.equal(requestsFor(server, "initialize").length, 0, "the same server is never initialized");
        } finally {
          await client.close();
        }
      });
    }
  }
});

interface ListCase {
  type: string;
  method: string;
  key: string;
  request: string;
  capabilities?: Json;
  list: (client: Client) => Promise<unknown[]>;
}

const LISTS: ListCase[] = [
  { type: "ListToolsResult", method: "tools/list", key: "tools", request: "ListToolsRequest", list: (client) => client.listTools() },
  {
    type: "ListPromptsResult",
    method: "prompts/list",
    key: "prompts",
    request: "ListPromptsRequest",
    capabilities: { prompts: {} },
    list: (client) => client.listPrompts(),
  },
  { type: "ListResourcesResult", method: "resources/list", key: "resources", request: "ListResourcesRequest", list: (client) => client.listResources() },
  {
    type: "ListResourceTemplatesResult",
    method: "resources/templates/list",
    key: "resourceTemplates",
    request: "ListResourceTemplatesRequest",
    list: (client) => client.listResourceTemplates(),
  },
];

describe("spec examples: the client consumes the list results, following nextCursor", () => {
  for (const list of LISTS) {
    for (const { name, value } of resultsOf(list.type)) {
      const cursor = value.nextCursor;
      test(
        `${name}: ${list.method} returns the example's ${list.key}` +
          (cursor === undefined ? "" : `, then asks for the page at cursor ${JSON.stringify(cursor)}`),
        async () => {
          // The example is the first page; the page at its nextCursor ends the list.
          const answer: RequestHandler = (params) => params?.cursor === undefined ? structuredClone(value) : { resultType: "complete", [list.key]: [] };
          const { client, server, problems } = await connectModern({ [list.method]: answer }, {}, discoverWith(list.capabilities ?? {}));
          try {
            assert.deepEqual(await list.list(client), value[list.key]);
            const sent = requestsFor(server, list.method);
            assertShapedLike(sent[0]!, example(list.request), client);
            assert.deepEqual(sent.map((params) => params.cursor), cursor === undefined ? [undefined] : [undefined, cursor]);
            assert.deepEqual(problems, []);
          } finally {
            await client.close();
          }
        },
      );
    }
  }
});

/** The tools the call tests list: the ListToolsResult example's, and the Tool examples with outputSchemas their results match. */
function toolsForCalls(): Json[] {
  return [
    ...(example("ListToolsResult").tools as Json[]),
    example("Tool", "with-output-schema-for-structured-content.json"),
    example("Tool", "tool-with-array-output-schema.json"),
  ];
}

/**
 * Which call a CallToolResult example answers: structured content goes to the Tool example
 * whose outputSchema describes it (so the client validates it); text to the CallToolRequest
 * example's get_weather.
 */
function callFor(result: Json): { name: string; arguments: Json } {
  if (Array.isArray(result.structuredContent)) return { name: "list_users", arguments: {} };
  if (result.structuredContent !== undefined) return { name: "get_weather_data", arguments: { location: "New York" } };
  const params = asObject(example("CallToolRequest").params);
  return { name: params.name as string, arguments: asObject(params.arguments) };
}

describe("spec examples: the client consumes the CallToolResult examples", () => {
  for (const { name, value } of resultsOf("CallToolResult")) {
    test(`${name}: callTool resolves to the example's content, structuredContent and isError (validated against the tool's outputSchema)`, async () => {
      const call = callFor(value);
      const { client, server, problems } = await connectModern({
        "tools/list": () => ({ resultType: "complete", tools: toolsForCalls() }),
        "tools/call": () => structuredClone(value),
      });
      try {
        await client.listTools();
        const result = await client.callTool(call.name, call.arguments);
        assert.deepEqual(result.content, value.content);
        assert.deepEqual(result.structuredContent, value.structuredContent);
        assert.equal(result.isError, value.isError);
        assert.deepEqual(result, value, "nothing lost or added");
        const [sent] = requestsFor(server, "tools/call");
        assert.equal(sent!.name, call.name);
        assert.deepEqual(sent!.arguments, call.arguments);
        // callTool always attaches a progress token, beside the example's protocol fields.
        assertShapedLike(sent!, example("CallToolRequest"), client, ["progressToken"]);
        assert.deepEqual(problems, []);
      } finally {
        await client.close();
      }
    });
  }

  test("ProgressNotification/progress-message.json reaches onProgress of the call its progressToken names", async () => {
    const progress = asObject(example("ProgressNotification").params);
    const final = example("CallToolResult", "result-with-unstructured-text.json");
    // deno-lint-ignore prefer-const -- assigned once below, read by the handler declared before it
    let server: InProcessServer | undefined;
    const { client, server: started } = await connectModern({
      "tools/call": async (params) => {
        // The example's token is "oivaizmir"; the real one is whatever the client put in _meta.
        await server!.peer.notify("notifications/progress", { ...progress, progressToken: asObject(params?._meta).progressToken });
        return structuredClone(final);
      },
    });
    server = started;
    try {
      const updates: Progress[] = [];
      const call = callFor(final);
      assert.deepEqual(await client.callTool(call.name, call.arguments, { onProgress: (update) => updates.push(update) }), final);
      assert.deepEqual(updates, [{ progress: progress.progress, total: progress.total, message: progress.message }]);
    } finally {
      await client.close();
    }
  });
});

describe("spec examples: the client consumes resources/read, prompts/get and completion/complete results", () => {
  for (const { name, value } of resultsOf("ReadResourceResult")) {
    const cached = typeof value.ttlMs === "number";
    test(`${name}: readResource returns the example; a second read ${cached ? "is served from the cache (ttlMs)" : "asks again (no ttlMs)"}`, async () => {
      const request = example("ReadResourceRequest");
      const uri = asObject(request.params).uri as string;
      const { client, server } = await connectModern({ "resources/read": () => structuredClone(value) });
      try {
        assert.deepEqual(await client.readResource(uri), value);
        assertShapedLike(requestsFor(server, "resources/read")[0]!, request, client);
        assert.deepEqual(await client.readResource(uri), value);
        assert.equal(requestsFor(server, "resources/read").length, cached ? 1 : 2);
      } finally {
        await client.close();
      }
    });
  }

  for (const { name, value } of resultsOf("GetPromptResult")) {
    test(`${name}: getPrompt with the GetPromptRequest example's name and arguments returns the example`, async () => {
      const request = example("GetPromptRequest");
      const params = asObject(request.params);
      const { client, server } = await connectModern({ "prompts/get": () => structuredClone(value) }, {}, discoverWith({ prompts: {} }));
      try {
        assert.deepEqual(await client.getPrompt(params.name as string, params.arguments as Record<string, string>), value);
        const [sent] = requestsFor(server, "prompts/get");
        assertShapedLike(sent!, request, client);
        assert.equal(sent!.name, params.name);
        assert.deepEqual(sent!.arguments, params.arguments);
      } finally {
        await client.close();
      }
    });
  }

  for (const { name, value } of resultsOf("CompleteResult")) {
    test(`${name}: complete with the CompleteRequest example's ref and argument returns the example's completion`, async () => {
      const request = example("CompleteRequest");
      const params = asObject(request.params);
      const { client, server } = await connectModern(
        { "completion/complete": () => structuredClone(value) },
        {},
        discoverWith({ completions: {} }),
      );
      try {
        const completion = await client.complete(params.ref as CompleteReference, params.argument as { name: string; value: string });
        assert.deepEqual(completion, value.completion);
        const [sent] = requestsFor(server, "completion/complete");
        assertShapedLike(sent!, request, client);
        assert.deepEqual(sent!.ref, params.ref);
        assert.deepEqual(sent!.argument, params.argument);
      } finally {
        await client.close();
      }
    });
  }
});

// --- multi round-trip requests: the input request examples, answered by the client's handlers ---

/** What the scripted user answers each example form, by its message: the ElicitResult example that answers it. */
const FORM_ANSWERS: Record<string, Json> = {
  "Please provide your GitHub username": example("ElicitResult", "input-single-field.json"),
  "Please provide your contact information": example("ElicitResult", "input-multiple-fields.json"),
};

interface Seen {
  forms: ElicitFormRequest[];
  urls: UrlElicitationRequest[];
  sampling: CreateMessageRequest[];
  roots: number;
}

/**
 * The client's handlers, as an embedder gives them (ClientOptions.handlers): a scripted user
 * for forms and URLs, a scripted model answering with the CreateMessageResult examples, and
 * the roots of the ListRootsResult example. They record what they were asked.
 */
function scriptedHandlers(seen: Seen): ClientOptions {
  return {
    handlers: {
      elicitation: {
        form: (request) => {
          seen.forms.push(request);
          const answer = FORM_ANSWERS[request.message];
          return Promise.resolve(answer === undefined ? { action: "decline" } : structuredClone(answer) as ElicitResult);
        },
        url: (request) => {
          seen.urls.push(request);
          return Promise.resolve({ action: "accept" }); // the user agreed to open it
        },
      },
      sampling: (request) => {
        seen.sampling.push(request);
        const last = request.messages[request.messages.length - 1]!;
        // Tool results in: the final answer; tools offered: use them; otherwise a plain answer.
        const file = Array.isArray(last.content) ? "final-response.json" : request.tools !== undefined ? "tool-use-response.json" : "text-response.json";
        return Promise.resolve(example("CreateMessageResult", file) as unknown as CreateMessageResult);
      },
      roots: () => {
        seen.roots++;
        return example("ListRootsResult", "multiple-root-directories.json").roots as Root[];
      },
    },
    sampling: { tools: true },
  };
}

const ajv = new Ajv2020({ allErrors: true, formats: { email: /^[^\s@]+@[^\s@]+$/ } });

/** The answers are what the spec's schemas ask for: form content matches the requestedSchema; sampling answers are assistant messages. */
function assertSchemaValid(inputRequests: Json, inputResponses: Json): void {
  for (const [key, request] of Object.entries(inputRequests)) {
    const { method, params } = asObject(request);
    const response = asObject(inputResponses[key]);
    if (method === "elicitation/create" && asObject(params).requestedSchema !== undefined && response.action === "accept") {
      const validate = ajv.compile(asObject(asObject(params).requestedSchema));
      assert.ok(validate(response.content), `${key}: ${ajv.errorsText(validate.errors)}`);
    } else if (method === "sampling/createMessage") {
      assert.equal(response.role, "assistant");
      assert.equal(typeof response.model, "string");
      assert.ok(typeof response.content === "object" && response.content !== null);
    } else if (method === "roots/list") {
      assert.ok(Array.isArray(response.roots));
    }
  }
}

/** Runs one tools/call whose first answer is `inputRequired` and whose retry gets `final`; returns the two requests. */
async function roundTrip(
  inputRequired: Json,
  seen: Seen,
  via: "tools/call" | "prompts/get" | "resources/read" = "tools/call",
): Promise<{ first: JsonRpcRequest; retry: JsonRpcRequest; problems: string[] }> {
  const finals = {
    "tools/call": example("CallToolResult", "result-with-unstructured-text.json"),
    "prompts/get": example("GetPromptResult"),
    "resources/read": example("ReadResourceResult"),
  };
  let round = 0;
  const answer: RequestHandler = () => structuredClone(round++ === 0 ? inputRequired : finals[via]);
  const { client, server, problems } = await connectModern({ [via]: answer }, scriptedHandlers(seen), discoverWith({ prompts: {} }));
  try {
    let result: unknown;
    if (via === "tools/call") {
      const call = callFor(finals["tools/call"]);
      result = await client.callTool(call.name, call.arguments);
    } else if (via === "prompts/get") {
      const params = asObject(example("GetPromptRequest").params);
      result = await client.getPrompt(params.name as string, params.arguments as Record<string, string>);
    } else {
      result = await client.readResource(asObject(example("ReadResourceRequest").params).uri as string);
    }
    assert.deepEqual(result, finals[via], "the embedder sees only the final result");
    const sent = requestMessages(server, via);
    assert.equal(sent.length, 2, "one retry");
    return { first: sent[0]!, retry: sent[1]!, problems };
  } finally {
    await client.close();
  }
}

function noSeen(): Seen {
  return { forms: [], urls: [], sampling: [], roots: 0 };
}

describe("spec examples: InputRequiredResult drives the multi round-trip path", () => {
  for (const { name, value } of examplesOf("InputRequiredResult")) {
    for (const via of ["tools/call", "prompts/get", "resources/read"] as const) {
      const requests = value.inputRequests === undefined ? [] : Object.keys(asObject(value.inputRequests));
      test(`${name} on ${via}: the retry is a new request with inputResponses keyed ${JSON.stringify(requests)} and the exact requestState`, async () => {
        const seen = noSeen();
        const { first, retry, problems } = await roundTrip(value, seen, via);
        assert.notEqual(retry.id, first.id, "the retry is a new request");
        const params = retry.params!;
        assert.ok(!("inputResponses" in first.params!) && !("requestState" in first.params!), "the first request carries neither");
        if (value.inputRequests === undefined) {
          assert.ok(!("inputResponses" in params), "no inputResponses when nothing was asked");
        } else {
          assert.deepEqual(sortedKeys(params.inputResponses), [...requests].sort());
          assertSchemaValid(asObject(value.inputRequests), asObject(params.inputResponses));
          // This example asks what InputRequests asks, and the handlers answer what InputResponses answers.
          assert.deepEqual(params.inputResponses, example("InputResponses"));
        }
        if (value.requestState === undefined) assert.ok(!("requestState" in params), "no requestState when none was sent");
        else assert.equal(params.requestState, value.requestState);
        // Nothing else carried over: the original params, the protocol fields, and the two MRTR fields.
        const { inputResponses: _responses, requestState: _state, ...rest } = params;
        const { _meta: _firstMeta, ...original } = first.params!;
        const { _meta: _retryMeta, ...again } = rest;
        assert.deepEqual(again, original);
        assert.deepEqual(problems, []);
      });
    }
  }
});

/** The input request examples, each as the one request of an InputRequiredResult, and the example answer the client must send. */
function inputRequestCases(): { name: string; inputRequests: Json; expected: Json }[] {
  const single = (request: Json, answer: Json) => ({ request, answer });
  const cases: { name: string; pair: { request: Json; answer: Json } }[] = [];
  for (const { name, value } of examplesOf("ElicitRequest")) {
    cases.push({ name, pair: single(value, example("ElicitResult", "input-single-field.json")) });
  }
  for (const { name, value } of examplesOf("ElicitRequestFormParams")) {
    const answer = FORM_ANSWERS[value.message as string];
    assert.ok(answer !== undefined, `${name}: no scripted answer for ${JSON.stringify(value.message)}`);
    cases.push({ name, pair: single({ method: "elicitation/create", params: value }, answer) });
  }
  for (const { name, value } of examplesOf("ElicitRequestURLParams")) {
    cases.push({ name, pair: single({ method: "elicitation/create", params: value }, example("ElicitResult", "accept-url-mode-no-content.json")) });
  }
  for (const { name, value } of examplesOf("CreateMessageRequest")) {
    cases.push({ name, pair: single(value, example("CreateMessageResult", "text-response.json")) });
  }
  const samplingAnswers: Record<string, string> = {
    "basic-request.json": "text-response.json",
    "request-with-tools.json": "tool-use-response.json",
    "follow-up-with-tool-results.json": "final-response.json",
  };
  for (const { name, value } of examplesOf("CreateMessageRequestParams")) {
    const answer = samplingAnswers[name.slice("CreateMessageRequestParams/".length)];
    assert.ok(answer !== undefined, `${name}: no expected CreateMessageResult named`);
    cases.push({ name, pair: single({ method: "sampling/createMessage", params: value }, example("CreateMessageResult", answer)) });
  }
  for (const { name, value } of examplesOf("ListRootsRequest")) {
    // The example has an id (the handshake era's roots/list request); an input request has only method and params.
    const { id: _id, ...request } = value;
    cases.push({ name, pair: single(request, example("ListRootsResult", "multiple-root-directories.json")) });
  }
  const out: { name: string; inputRequests: Json; expected: Json }[] = cases.map(({ name, pair }) => ({
    name,
    inputRequests: { [name]: pair.request },
    expected: { [name]: pair.answer },
  }));
  out.push({
    name: "InputRequests/elicitation-and-sampling-input-requests.json",
    inputRequests: example("InputRequests"),
    expected: example("InputResponses"),
  });
  return out;
}

describe("spec examples: the client's handlers answer the input request examples with the spec's example answers", () => {
  for (const { name, inputRequests, expected } of inputRequestCases()) {
    test(`${name}: fulfilled by the handlers; the retry's inputResponses are the example answers, schema-valid`, async () => {
      const seen = noSeen();
      const { retry, problems } = await roundTrip({ resultType: "input_required", inputRequests }, seen);
      const responses = asObject(retry.params!.inputResponses);
      assert.deepEqual(responses, expected);
      assertSchemaValid(inputRequests, responses);
      assert.ok(!("requestState" in retry.params!), "no requestState when none was sent");
      // The handlers saw the example's request as it was written.
      for (const request of Object.values(inputRequests)) {
        const { method, params } = asObject(request);
        if (method === "sampling/createMessage") {
          assert.ok(
            seen.sampling.some((seenRequest) => JSON.stringify(seenRequest) === JSON.stringify(params)),
            "the sampling handler got the example request unchanged",
          );
        } else if (method === "elicitation/create" && asObject(params).mode === "url") {
          assert.deepEqual(seen.urls.map((url) => url.url), [asObject(params).url]);
          assert.equal(seen.urls[0]!.host, new URL(asObject(params).url as string).host);
        } else if (method === "elicitation/create") {
          assert.ok(seen.forms.some((form) => JSON.stringify(form.requestedSchema) === JSON.stringify(asObject(params).requestedSchema)));
        } else if (method === "roots/list") {
          assert.equal(seen.roots, 1);
        }
      }
      assert.deepEqual(problems, []);
    });
  }
});

// --- the 2026-07-28 error codes ---------------------------------------------------------------

/** The handler that answers with an error example's error member, as the server's Peer sends it. */
function failWith(errorExample: Json): RequestHandler {
  const error = asObject(errorExample.error ?? errorExample);
  return () => {
    throw new RpcError(error.message as string, error.code as number, { data: error.data });
  };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail("expected a rejection, but the promise resolved");
}

describe("spec examples: the error examples surface as their typed errors", () => {
  test("UnsupportedProtocolVersionError/unsupported-version.json on tools/list: retried once with a listed version, then UnsupportedProtocolVersionError with .supported = data.supported", async () => {
    const errorExample = example("UnsupportedProtocolVersionError");
    const data = asObject(asObject(errorExample.error).data);
    const { client, server } = await connectModern({ "tools/list": failWith(errorExample) });
    try {
      const error = await rejection(client.listTools());
      assert.ok(error instanceof UnsupportedProtocolVersionError, `got ${String(error)}`);
      assert.equal(error.rpcCode, -32022);
      assert.deepEqual(error.supported, data.supported);
      assert.equal(error.requested, data.requested);
      assert.match(error.message, /Unsupported protocol version/);
      const sent = requestsFor(server, "tools/list");
      assert.equal(sent.length, 2, "one retry, with a version from data.supported");
      assert.ok((data.supported as string[]).includes(asObject(sent[1]!._meta)["io.modelcontextprotocol/protocolVersion"] as string));
    } finally {
      await client.close();
    }
  });

  test("UnsupportedProtocolVersionError/unsupported-version.json once, then a ListToolsResult: the retry succeeds", async () => {
    let calls = 0;
    const tools = example("ListToolsResult");
    const refuse = failWith(example("UnsupportedProtocolVersionError"));
    const { client } = await connectModern({
      "tools/list": (params, context) => calls++ === 0 ? refuse(params, context) : { ...structuredClone(tools), nextCursor: undefined },
    });
    try {
      assert.deepEqual(await client.listTools(), tools.tools);
      assert.equal(calls, 2);
    } finally {
      await client.close();
    }
  });

  test(
    "UnsupportedProtocolVersionError/unsupported-version.json answering server/discover under auto: 2025-11-25 is listed, so the client takes the handshake",
    async () => {
      const server = inProcessServer({ tools: {} }, { "server/discover": failWith(example("UnsupportedProtocolVersionError")) });
      const client = new Client(INFO, { protocol: "auto" });
      try {
        await client.connect(server.clientEnd);
        assert.equal(client.era, "legacy");
        assert.equal(client.protocolVersion, "2025-11-25");
        assert.equal(requestsFor(server, "initialize").length, 1);
      } finally {
        await client.close();
      }
    },
  );

  test("MissingRequiredClientCapabilityError/missing-elicitation-capability.json on tools/call: MissingClientCapabilityError with .requiredCapabilities, not retried", async () => {
    const errorExample = example("MissingRequiredClientCapabilityError");
    const { client, server } = await connectModern({ "tools/call": failWith(errorExample) });
    try {
      const call = callFor({});
      const error = await rejection(client.callTool(call.name, call.arguments));
      assert.ok(error instanceof MissingClientCapabilityError, `got ${String(error)}`);
      assert.equal(error.rpcCode, -32021);
      assert.deepEqual(error.requiredCapabilities, asObject(asObject(errorExample.error).data).requiredCapabilities);
      assert.equal(requestsFor(server, "tools/call").length, 1);
    } finally {
      await client.close();
    }
  });

  test("HeaderMismatchError/header-mismatch.json on tools/call: tools re-listed, retried once, then HeaderMismatchError; on prompts/get at once", async () => {
    const errorExample = example("HeaderMismatchError");
    const { client, server } = await connectModern(
      {
        "tools/list": () => ({ resultType: "complete", tools: toolsForCalls() }),
        "tools/call": failWith(errorExample),
        "prompts/get": failWith(errorExample),
      },
      {},
      discoverWith({ prompts: {} }),
    );
    try {
      await client.listTools();
      const call = callFor({});
      const error = await rejection(client.callTool(call.name, call.arguments));
      assert.ok(error instanceof HeaderMismatchError, `got ${String(error)}`);
      assert.equal(error.rpcCode, -32020);
      assert.match(error.message, /Mcp-Name header value 'foo' does not match body value 'bar'/);
      assert.equal(requestsFor(server, "tools/call").length, 2);
      assert.equal(requestsFor(server, "tools/list").length, 2, "a fresh tools/list before the retry");
      const prompt = await rejection(client.getPrompt("code_review"));
      assert.ok(prompt instanceof HeaderMismatchError, `got ${String(prompt)}`);
      assert.equal(requestsFor(server, "prompts/get").length, 1);
    } finally {
      await client.close();
    }
  });

  test("MethodNotFoundError/prompts-not-supported.json for server/discover: auto takes the legacy handshake; modern fails saying so", async () => {
    const notFound = failWith(example("MethodNotFoundError"));
    const auto = inProcessServer({ tools: {} }, { "server/discover": notFound });
    const client = new Client(INFO, { protocol: "auto" });
    try {
      await client.connect(auto.clientEnd);
      assert.equal(client.era, "legacy");
      assert.equal(client.protocolVersion, "2025-11-25");
      assert.equal(requestsFor(auto, "initialize").length, 1);
    } finally {
      await client.close();
    }
    const modern = inProcessServer({ tools: {} }, { "server/discover": notFound });
    const pinned = new Client(INFO, { protocol: "modern" });
    const error = await rejection(pinned.connect(modern.clientEnd));
    assert.ok(error instanceof ProtocolVersionError, `got ${String(error)}`);
    assert.match(error.message, /set protocol: legacy/);
    assert.equal(requestsFor(modern, "initialize").length, 0);
  });
});

// --- 3. request metadata headers ---------------------------------------------------------------

describe("spec examples: Streamable HTTP request metadata headers", () => {
  for (const { name, value } of examplesOf("Tool")) {
    const annotated = (JSON.stringify(value).match(/"x-mcp-header"/g) ?? []).length;
    test(`${name} is accepted by paramHeadersOf with ${annotated} parameter header(s)`, () => {
      const found = paramHeadersOf(value.inputSchema);
      assert.ok("headers" in found, `refused: ${"problem" in found ? found.problem : ""}`);
      assert.equal(found.headers.length, annotated);
    });
  }

  test("the client keeps every Tool example on the 2026-07-28 wire (none is left out for its x-mcp-header use)", async () => {
    const tools = examplesOf("Tool").map(({ value }) => value);
    const { client, problems } = await connectModern({ "tools/list": () => ({ resultType: "complete", tools: structuredClone(tools) }) });
    try {
      assert.deepEqual(await client.listTools(), tools);
      assert.deepEqual(problems, []);
    } finally {
      await client.close();
    }
  });

  // spec 2026-07-28 streamable-http ("Request Metadata"): Mcp-Method always; Mcp-Name from
  // params.name (tools/call, prompts/get) or params.uri (resources/read).
  const NAMED: Record<string, string> = {
    "CallToolRequest/call-tool-request.json": "get_weather",
    "GetPromptRequest/get-prompt-request.json": "code_review",
    "ReadResourceRequest/read-resource-request.json": "file:///project/src/main.rs",
  };
  for (const { name, value } of MESSAGE_EXAMPLES.filter(({ value }) => isRequest(value as unknown as JsonRpcMessage))) {
    const request = value as unknown as JsonRpcRequest;
    const mcpName = NAMED[name];
    test(`${name}: requestHeaders gives Mcp-Method ${request.method}` + (mcpName === undefined ? " and no Mcp-Name" : ` and Mcp-Name ${mcpName}`), () => {
      const tools = new Map((example("ListToolsResult").tools as Json[]).map((tool) => [tool.name as string, tool.inputSchema]));
      const expected: Record<string, string> = { "Mcp-Method": request.method };
      if (mcpName !== undefined) expected["Mcp-Name"] = mcpName;
      assert.deepEqual(requestHeaders(request.method, request.params, (tool) => tools.get(tool)), expected);
    });
  }
});

// --- 4. subscriptions/listen ------------------------------------------------------------------

/** Resolves with the first event of `type`; rejects after the hang guard. */
const nextEvent = (client: Client, type: "toolslistchanged" | "promptslistchanged" | "resourceslistchanged" | "resourceupdated" | "log"): Promise<unknown> =>
  nextEventOf(client, type, HANG_GUARD_MS);

interface Listens {
  handler: RequestHandler;
  /** Resolves with the params and id of the n-th listen request (0-based). */
  nth(n: number): Promise<{ params: Params; id: string | number; end: (result: Json) => void }>;
}

/** A subscriptions/listen handler that holds each request open until the test ends it or the client cancels it. */
function listens(): Listens {
  const opened: { params: Params; id: string | number; end: (result: Json) => void }[] = [];
  const waiting = new Map<number, () => void>();
  return {
    handler: (params, context) =>
      new Promise<Params>((resolve, reject) => {
        opened.push({ params: params ?? {}, id: context.requestId, end: resolve });
        waiting.get(opened.length - 1)?.();
        context.signal.addEventListener("abort", () => reject(new RpcError("cancelled", -32800)), { once: true });
      }),
    nth(n) {
      if (opened[n] !== undefined) return Promise.resolve(opened[n]!);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no subscriptions/listen request #${n + 1} within ${HANG_GUARD_MS} ms`)), HANG_GUARD_MS);
        waiting.set(n, () => {
          clearTimeout(timer);
          resolve(opened[n]!);
        });
      });
    },
  };
}

describe("spec examples: subscriptions/listen", () => {
  test("SubscriptionsListenRequest/listen-for-list-changes.json has the shape of the client's own listen request (tools list changes + one subscribed resource)", async () => {
    const exampleRequest = example("SubscriptionsListenRequest");
    const filter = asObject(asObject(exampleRequest.params).notifications);
    const uris = filter.resourceSubscriptions as string[];
    const listen = listens();
    const { client, problems } = await connectModern(
      { "subscriptions/listen": listen.handler },
      {},
      discoverWith({ tools: { listChanged: true }, resources: { subscribe: true } }),
    );
    try {
      // The first stream asks for what the server declares; subscribing re-opens it with the URI.
      assert.deepEqual((await listen.nth(0)).params.notifications, { toolsListChanged: true });
      for (const uri of uris) await client.subscribeResource(uri);
      const opened = await listen.nth(uris.length);
      assert.deepEqual(opened.params.notifications, filter);
      assertShapedLike(opened.params, exampleRequest, client);
      assert.deepEqual(problems, []);
    } finally {
      await client.close();
    }
  });

  test("SubscriptionsAcknowledgedNotification, then the list_changed, resources/updated and log examples on the stream: no problem, each reaches its event", async () => {
    const listen = listens();
    const { client, server, problems } = await connectModern(
      { "subscriptions/listen": listen.handler },
      {},
      discoverWith({ tools: { listChanged: true }, prompts: { listChanged: true }, resources: { subscribe: true, listChanged: true } }),
    );
    try {
      const uri = (asObject(asObject(example("SubscriptionsListenRequest").params).notifications).resourceSubscriptions as string[])[0]!;
      await client.subscribeResource(uri);
      const { id, params } = await listen.nth(1);
      assert.deepEqual(params.notifications, { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true, resourceSubscriptions: [uri] });
      /** An example notification on this stream: its subscriptionId is the listen request's id (the examples use "listen-1"). */
      const onStream = (type: string): Params => {
        const sent = asObject(example(type).params);
        return sent._meta === undefined ? sent : { ...sent, _meta: { ...asObject(sent._meta), [META_SUBSCRIPTION_ID]: id } };
      };
      // The acknowledgment example, agreeing to the whole filter asked for.
      await server.peer.notify("notifications/subscriptions/acknowledged", {
        ...onStream("SubscriptionsAcknowledgedNotification"),
        notifications: params.notifications,
      });
      const events = [
        nextEvent(client, "toolslistchanged"),
        nextEvent(client, "promptslistchanged"),
        nextEvent(client, "resourceslistchanged"),
        nextEvent(client, "resourceupdated"),
        nextEvent(client, "log"),
      ];
      await server.peer.notify("notifications/tools/list_changed", onStream("ToolListChangedNotification"));
      await server.peer.notify("notifications/prompts/list_changed", onStream("PromptListChangedNotification"));
      await server.peer.notify("notifications/resources/list_changed", onStream("ResourceListChangedNotification"));
      await server.peer.notify("notifications/resources/updated", onStream("ResourceUpdatedNotification"));
      await server.peer.notify("notifications/message", onStream("LoggingMessageNotification"));
      const [, , , updated, log] = await Promise.all(events);
      assert.deepEqual(updated, { uri: asObject(example("ResourceUpdatedNotification").params).uri });
      const logged = asObject(example("LoggingMessageNotification").params);
      assert.deepEqual(log as LogMessage, { level: logged.level, logger: logged.logger, data: logged.data });
      assert.deepEqual(problems, []);
    } finally {
      await client.close();
    }
  });

  test("SubscriptionsAcknowledgedNotification/listen-acknowledged.json for a wider filter: the client reports what the acknowledgment left out", async () => {
    const listen = listens();
    const { client, server, problems } = await connectModern(
      { "subscriptions/listen": listen.handler },
      {},
      discoverWith({ tools: { listChanged: true }, prompts: { listChanged: true } }),
    );
    try {
      const { id } = await listen.nth(0);
      const ack = asObject(example("SubscriptionsAcknowledgedNotification").params);
      await server.peer.notify("notifications/subscriptions/acknowledged", { ...ack, _meta: { [META_SUBSCRIPTION_ID]: id } });
      await client.ping(); // a round trip (server/discover on this wire): the notification before it has been handled
      assert.equal(problems.length, 1, problems.join("\n"));
      assert.match(problems[0]!, /without promptsListChanged/);
    } finally {
      await client.close();
    }
  });

  test(
    "SubscriptionsAcknowledgedNotification/listen-acknowledged.json of a listen request the client already replaced is not checked against the new filter",
    async () => {
      const listen = listens();
      const { client, server, problems } = await connectModern(
        { "subscriptions/listen": listen.handler },
        {},
        discoverWith({ tools: { listChanged: true }, resources: { subscribe: true } }),
      );
      try {
        const exampleAck = asObject(example("SubscriptionsAcknowledgedNotification").params);
        const uri = (asObject(exampleAck.notifications).resourceSubscriptions as string[])[0]!;
        const first = await listen.nth(0);
        await client.subscribeResource(uri);
        const second = await listen.nth(1);
        // The server acknowledged the first stream (toolsListChanged only) before it read the cancellation.
        await server.peer.notify("notifications/subscriptions/acknowledged", {
          _meta: { [META_SUBSCRIPTION_ID]: first.id },
          notifications: first.params.notifications,
        });
        await server.peer.notify("notifications/subscriptions/acknowledged", {
          _meta: { [META_SUBSCRIPTION_ID]: second.id },
          notifications: second.params.notifications,
        });
        await client.ping(); // a round trip: both notifications have been handled
        assert.deepEqual(problems, []);
      } finally {
        await client.close();
      }
    },
  );

  test("SubscriptionsListenResult/listen-closed.json (graceful closure) ends the stream without a problem; the client listens again", async () => {
    for (const { name, value } of resultsOf("SubscriptionsListenResult")) {
      const listen = listens();
      const { client, problems } = await connectModern(
        { "subscriptions/listen": listen.handler },
        {},
        discoverWith({ tools: { listChanged: true } }),
      );
      try {
        const first = await listen.nth(0);
        first.end({ ...structuredClone(value), _meta: { [META_SUBSCRIPTION_ID]: first.id } });
        const again = await listen.nth(1);
        assert.notEqual(again.id, first.id, `${name}: a new listen request`);
        assert.deepEqual(again.params.notifications, first.params.notifications);
        assert.deepEqual(problems, [], name);
      } finally {
        await client.close();
      }
    }
  });
});
