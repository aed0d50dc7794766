// Tests for the JSON-RPC envelope guards — src/jsonrpc/messages.ts. Good vectors are the
// spec's own example messages (2026-07-28 schema/examples), copied here so the test needs
// nothing outside the repository.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  isErrorResponse,
  isJsonRpcMessage,
  isNotification,
  isRequest,
  isResponse,
  type JsonRpcMessage,
  undeliverableResponse,
  whyNotJsonRpc,
} from "../../src/jsonrpc/messages.ts";

/**
 * Every file under spec/2026-07-28/schema/examples/ that is a full JSON-RPC message (it has
 * "jsonrpc"), as [path, content]. The folder name is the schema type the example illustrates.
 */
const SPEC_MESSAGES: Array<[string, unknown]> = [
  ["CallToolRequest/call-tool-request.json", {
    "jsonrpc": "2.0",
    "id": "call-tool-example",
    "method": "tools/call",
    "params": {
      "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { "name": "ExampleClient", "version": "1.0.0" },
        "io.modelcontextprotocol/clientCapabilities": {},
      },
      "name": "get_weather",
      "arguments": { "location": "New York" },
    },
  }],
  ["CallToolResultResponse/call-tool-result-response.json", {
    "jsonrpc": "2.0",
    "id": "call-tool-example",
    "result": {
      "resultType": "complete",
      "content": [{ "type": "text", "text": "Current weather in New York:\nTemperature: 72°F\nConditions: Partly cloudy" }],
      "isError": false,
    },
  }],
  ["CancelledNotification/user-requested-cancellation.json", {
    "jsonrpc": "2.0",
    "method": "notifications/cancelled",
    "params": { "requestId": "123", "reason": "User requested cancellation" },
  }],
  ["CompleteRequest/completion-request.json", {
    "jsonrpc": "2.0",
    "id": "completion-example",
    "method": "completion/complete",
    "params": {
      "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { "name": "ExampleClient", "version": "1.0.0" },
        "io.modelcontextprotocol/clientCapabilities": {},
      },
      "ref": { "type": "ref/prompt", "name": "code_review" },
      "argument": { "name": "language", "value": "py" },
    },
  }],
  ["CompleteResultResponse/completion-result-response.json", {
    "jsonrpc": "2.0",
    "id": "completion-example",
    "result": { "resultType": "complete", "completion": { "values": ["flask"], "total": 1, "hasMore": false } },
  }],
  ["DiscoverRequest/server-discover-request.json", {
    "jsonrpc": "2.0",
    "id": "discover-1",
    "method": "server/discover",
    "params": {
      "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { "name": "ExampleClient", "version": "1.0.0" },
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    },
  }],
  ["DiscoverResultResponse/discover-result-response.json", {
    "jsonrpc": "2.0",
    "id": "discover-1",
    "result": {
      "resultType": "complete",
      "supportedVersions": ["2026-07-28"],
      "capabilities": { "tools": {}, "resources": {} },
      "_meta": { "io.modelcontextprotocol/serverInfo": { "name": "ExampleServer", "version": "1.0.0" } },
      "ttlMs": 3600000,
      "cacheScope": "public",
    },
  }],
  ["GetPromptRequest/get-prompt-request.json", {
    "jsonrpc": "2.0",
    "id": "get-prompt-example",
    "method": "prompts/get",
    "params": {
      "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { "name": "ExampleClient", "version": "1.0.0" },
        "io.modelcontextprotocol/clientCapabilities": {},
      },
      "name": "code_review",
      "arguments": { "code": "def hello():\n    print('world')" },
    },
  }],
  ["GetPromptResultResponse/get-prompt-result-response.json", {
    "jsonrpc": "2.0",
    "id": "get-prompt-example",
    "result": {
      "resultType": "complete",
      "description": "Code review prompt",
      "messages": [{ "role": "user", "content": { "type": "text", "text": "Please review this Python code:\ndef hello():\n    print('world')" } }],
    },
  }],
  ["HeaderMismatchError/header-mismatch.json", {
    "jsonrpc": "2.0",
    "id": 1,
    "error": { "code": -32020, "message": "Header mismatch: Mcp-Name header value 'foo' does not match body value 'bar'" },
  }],
  ["ListPromptsRequest/list-prompts-request.json", {
    "jsonrpc": "2.0",
    "id": "list-prompts-example",
    "method": "prompts/list",
    "params": {
      "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { "name": "ExampleClient", "version": "1.0.0" },
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    },
  }],
  ["ListPromptsResultResponse/list-prompts-result-response.json", {
    "jsonrpc": "2.0",
    "id": "list-prompts-example",
    "result": {
      "resultType": "complete",
      "prompts": [{
        "name": "code_review",
        "title": "Request Code Review",
        "description": "Asks the LLM to analyze code quality and suggest improvements",
        "arguments": [{ "name": "code", "description": "The code to review", "required": true }],
        "icons": [{ "src": "https://example.com/review-icon.svg", "mimeType": "image/svg+xml", "sizes": ["any"] }],
      }],
      "nextCursor": "next-page-cursor",
      "ttlMs": 600000,
      "cacheScope": "public",
    },
  }],
  ["ListResourceTemplatesRequest/list-resource-templates-request.json", {
    "jsonrpc": "2.0",
    "id": "list-resource-templates-example",
    "method": "resources/templates/list",
    "params": {
      "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { "name": "ExampleClient", "version": "1.0.0" },
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    },
  }],
  ["ListResourceTemplatesResultResponse/list-resource-templates-result-response.json", {
    "jsonrpc": "2.0",
    "id": "list-resource-templates-example",
    "result": {
      "resultType": "complete",
      "resourceTemplates": [{
        "uriTemplate": "file:///{path}",
        "name": "Project Files",
        "title": "Project Files",
        "description": "Access files in the project directory",
        "mimeType": "application/octet-stream",
        "icons": [{ "src": "https://example.com/folder-icon.png", "mimeType": "image/png", "sizes": ["48x48"] }],
      }],
      "ttlMs": 3600000,
      "cacheScope": "public",
    },
  }],
  ["ListResourcesRequest/list-resources-request.json", {
    "jsonrpc": "2.0",
    "id": "list-resources-example",
    "method": "resources/list",
    "params": {
      "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { "name": "ExampleClient", "version": "1.0.0" },
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    },
  }],
  ["ListResourcesResultResponse/list-resources-result-response.json", {
    "jsonrpc": "2.0",
    "id": "list-resources-example",
    "result": {
      "resultType": "complete",
      "resources": [{
        "uri": "file:///project/src/main.rs",
        "name": "main.rs",
        "title": "Rust Software Application Main File",
        "description": "Primary application entry point",
        "mimeType": "text/x-rust",
        "icons": [{ "src": "https://example.com/rust-file-icon.png", "mimeType": "image/png", "sizes": ["48x48"] }],
      }],
      "nextCursor": "eyJwYWdlIjogM30=",
      "ttlMs": 600000,
      "cacheScope": "private",
    },
  }],
  ["ListToolsRequest/list-tools-request.json", {
    "jsonrpc": "2.0",
    "id": "list-tools-example",
    "method": "tools/list",
    "params": {
      "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { "name": "ExampleClient", "version": "1.0.0" },
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    },
  }],
  ["ListToolsResultResponse/list-tools-result-response.json", {
    "jsonrpc": "2.0",
    "id": "list-tools-example",
    "result": {
      "resultType": "complete",
      "tools": [{
        "name": "get_weather",
        "title": "Weather Information Provider",
        "description": "Get current weather information for a location",
        "inputSchema": {
          "type": "object",
          "properties": { "location": { "type": "string", "description": "City name or zip code" } },
          "required": ["location"],
        },
        "icons": [{ "src": "https://example.com/weather-icon.png", "mimeType": "image/png", "sizes": ["48x48"] }],
      }],
      "nextCursor": "next-page-cursor",
      "ttlMs": 3600000,
      "cacheScope": "public",
    },
  }],
  ["LoggingMessageNotification/log-database-connection-failed.json", {
    "jsonrpc": "2.0",
    "method": "notifications/message",
    "params": { "level": "error", "logger": "database", "data": { "error": "Connection failed", "details": { "host": "localhost", "port": 5432 } } },
  }],
  ["MissingRequiredClientCapabilityError/missing-elicitation-capability.json", {
    "jsonrpc": "2.0",
    "id": 1,
    "error": {
      "code": -32021,
      "message": "Server requires the elicitation capability for this request",
      "data": { "requiredCapabilities": { "elicitation": {} } },
    },
  }],
  ["ProgressNotification/progress-message.json", {
    "jsonrpc": "2.0",
    "method": "notifications/progress",
    "params": { "progressToken": "oivaizmir", "progress": 50, "total": 100, "message": "Reticulating splines..." },
  }],
  ["PromptListChangedNotification/prompts-list-changed.json", {
    "jsonrpc": "2.0",
    "method": "notifications/prompts/list_changed",
    "params": { "_meta": { "io.modelcontextprotocol/subscriptionId": "listen-1" } },
  }],
  ["ReadResourceRequest/read-resource-request.json", {
    "jsonrpc": "2.0",
    "id": "read-resource-example",
    "method": "resources/read",
    "params": {
      "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { "name": "ExampleClient", "version": "1.0.0" },
        "io.modelcontextprotocol/clientCapabilities": {},
      },
      "uri": "file:///project/src/main.rs",
    },
  }],
  ["ReadResourceResultResponse/read-resource-result-response-with-ttl.json", {
    "jsonrpc": "2.0",
    "id": "read-resource-with-ttl-example",
    "result": {
      "resultType": "complete",
      "contents": [{ "uri": "file:///project/src/main.rs", "mimeType": "text/x-rust", "text": 'fn main() {\n    println!("Hello world!");\n}' }],
      "ttlMs": 60000,
      "cacheScope": "private",
    },
  }],
  ["ReadResourceResultResponse/read-resource-result-response.json", {
    "jsonrpc": "2.0",
    "id": "read-resource-example",
    "result": {
      "resultType": "complete",
      "contents": [{ "uri": "file:///project/src/main.rs", "mimeType": "text/x-rust", "text": 'fn main() {\n    println!("Hello world!");\n}' }],
    },
  }],
  ["ResourceListChangedNotification/resources-list-changed.json", {
    "jsonrpc": "2.0",
    "method": "notifications/resources/list_changed",
    "params": { "_meta": { "io.modelcontextprotocol/subscriptionId": "listen-1" } },
  }],
  ["ResourceUpdatedNotification/file-resource-updated-notification.json", {
    "jsonrpc": "2.0",
    "method": "notifications/resources/updated",
    "params": { "_meta": { "io.modelcontextprotocol/subscriptionId": "listen-1" }, "uri": "file:///project/src/main.rs" },
  }],
  ["SubscriptionsAcknowledgedNotification/listen-acknowledged.json", {
    "jsonrpc": "2.0",
    "method": "notifications/subscriptions/acknowledged",
    "params": {
      "_meta": { "io.modelcontextprotocol/subscriptionId": "listen-1" },
      "notifications": { "toolsListChanged": true, "resourceSubscriptions": ["file:///project/config.json"] },
    },
  }],
  ["SubscriptionsListenRequest/listen-for-list-changes.json", {
    "jsonrpc": "2.0",
    "id": "listen-1",
    "method": "subscriptions/listen",
    "params": {
      "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { "name": "ExampleClient", "version": "1.0.0" },
        "io.modelcontextprotocol/clientCapabilities": {},
      },
      "notifications": { "toolsListChanged": true, "resourceSubscriptions": ["file:///project/config.json"] },
    },
  }],
  ["SubscriptionsListenResultResponse/listen-closed-response.json", {
    "jsonrpc": "2.0",
    "id": "listen-1",
    "result": { "resultType": "complete", "_meta": { "io.modelcontextprotocol/subscriptionId": "listen-1" } },
  }],
  ["ToolListChangedNotification/tools-list-changed.json", {
    "jsonrpc": "2.0",
    "method": "notifications/tools/list_changed",
    "params": { "_meta": { "io.modelcontextprotocol/subscriptionId": "listen-1" } },
  }],
  ["UnsupportedProtocolVersionError/unsupported-version.json", {
    "jsonrpc": "2.0",
    "id": 1,
    "error": { "code": -32022, "message": "Unsupported protocol version", "data": { "supported": ["2026-07-28", "2025-11-25"], "requested": "1900-01-01" } },
  }],
];

/** Spec examples of bare error objects (code, message, data), to be wrapped in an envelope. */
const SPEC_ERROR_BODIES: Array<[string, unknown]> = [
  ["InternalError/unexpected-error.json", { code: -32603, message: "Internal error" }],
  ["InvalidParamsError/invalid-cursor.json", { code: -32602, message: "Invalid cursor" }],
  ["InvalidParamsError/invalid-tool-arguments.json", { code: -32602, message: "Invalid arguments for tool calculate: Missing required property 'expression'" }],
  ["InvalidParamsError/unknown-prompt.json", { code: -32602, message: "Unknown prompt: invalid_prompt_name" }],
  ["InvalidParamsError/unknown-tool.json", { code: -32602, message: "Unknown tool: invalid_tool_name" }],
  ["MethodNotFoundError/prompts-not-supported.json", {
    code: -32601,
    message: "Prompts not supported",
    data: { reason: "Server does not support the prompts capability" },
  }],
  ["ParseError/invalid-json.json", { code: -32700, message: "Parse error: Invalid JSON" }],
];

/** Spec examples that show a method and params but leave out the "jsonrpc" member. */
const SPEC_FRAGMENTS: Array<[string, unknown]> = [
  ["CreateMessageRequest/sampling-request.json", {
    method: "sampling/createMessage",
    params: {
      messages: [{ role: "user", content: { type: "text", text: "What is the capital of France?" } }],
      modelPreferences: { hints: [{ name: "claude-3-sonnet" }], intelligencePriority: 0.8, speedPriority: 0.5 },
      systemPrompt: "You are a helpful assistant.",
      maxTokens: 100,
    },
  }],
  ["ElicitRequest/elicitation-request.json", {
    method: "elicitation/create",
    params: {
      mode: "form",
      message: "Please provide your GitHub username",
      requestedSchema: {
        type: "object",
        properties: { name: { type: "string", title: "GitHub Username", description: "Your GitHub username" } },
        required: ["name"],
      },
    },
  }],
  ["ListRootsRequest/list-roots-request.json", { id: "list-roots-example", method: "roots/list" }],
];

/** Which guard a spec example must satisfy, from the schema type in its folder name. */
function expectedKind(path: string): "request" | "notification" | "result" | "error" {
  const type = path.slice(0, path.indexOf("/"));
  if (type.endsWith("Request")) return "request";
  if (type.endsWith("Notification")) return "notification";
  if (type.endsWith("ResultResponse")) return "result";
  if (type.endsWith("Error")) return "error";
  throw new Error(`no expected kind for ${path}`);
}

function kindOf(message: JsonRpcMessage): string {
  const kinds = [
    isRequest(message) && "request",
    isNotification(message) && "notification",
    isResponse(message) && !isErrorResponse(message) && "result",
    isErrorResponse(message) && "error",
  ].filter((kind) => kind !== false);
  assert.equal(kinds.length, 1, `exactly one guard matches ${JSON.stringify(message)}`);
  return kinds[0] as string;
}

describe("whyNotJsonRpc on the spec's example messages", () => {
  test("the table holds every full JSON-RPC example of the spec", () => {
    assert.equal(SPEC_MESSAGES.length, 32);
  });

  for (const [path, example] of SPEC_MESSAGES) {
    test(`${path} is a JSON-RPC message of the kind its schema type names`, () => {
      assert.equal(whyNotJsonRpc(example), undefined);
      assert.equal(isJsonRpcMessage(example), true);
      assert.equal(kindOf(example as JsonRpcMessage), expectedKind(path));
    });
  }

  test("the spec's error objects are valid inside an error response, with a number, string or null id", () => {
    for (const [path, body] of SPEC_ERROR_BODIES) {
      for (const id of [1, "abc", null]) {
        const message = { jsonrpc: "2.0", id, error: body };
        assert.equal(whyNotJsonRpc(message), undefined, path);
        assert.equal(kindOf(message as JsonRpcMessage), "error", path);
      }
    }
  });

  test('the spec\'s fragments without "jsonrpc" are rejected, naming the missing member', () => {
    for (const [path, fragment] of SPEC_FRAGMENTS) {
      assert.equal(whyNotJsonRpc(fragment), 'missing "jsonrpc": "2.0"', path);
      assert.equal(isJsonRpcMessage(fragment), false, path);
    }
  });
});

describe("whyNotJsonRpc on hand-made envelopes", () => {
  const good: Array<[string, unknown]> = [
    ["a notification without params", { jsonrpc: "2.0", method: "notifications/initialized" }],
    ["a request with id 0", { jsonrpc: "2.0", id: 0, method: "ping" }],
    ["a request with an empty-string id", { jsonrpc: "2.0", id: "", method: "ping" }],
    ["a request with empty params", { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }],
    ["a result that is an empty object", { jsonrpc: "2.0", id: 1, result: {} }],
    ["an error with a null id (request id unreadable)", { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }],
    ["an error with data of any type", { jsonrpc: "2.0", id: 7, error: { code: -32000, message: "x", data: [1, "two"] } }],
    ["an error with an empty message", { jsonrpc: "2.0", id: 7, error: { code: 1, message: "" } }],
    ["an envelope with extra members", { jsonrpc: "2.0", id: 1, method: "ping", extra: true }],
  ];
  for (const [what, value] of good) {
    test(`accepts ${what}`, () => {
      assert.equal(whyNotJsonRpc(value), undefined);
      assert.equal(isJsonRpcMessage(value), true);
    });
  }

  const bad: Array<[string, unknown, string]> = [
    ["null", null, "not a JSON object"],
    ["a number", 42, "not a JSON object"],
    ["a string", "hello", "not a JSON object"],
    ["an array (a batch is unpacked before the guard)", [{ jsonrpc: "2.0", method: "x" }], "not a JSON object"],
    ["an object without jsonrpc", { id: 1, method: "ping" }, 'missing "jsonrpc": "2.0"'],
    ['jsonrpc "1.0"', { jsonrpc: "1.0", id: 1, method: "ping" }, 'missing "jsonrpc": "2.0"'],
    ["jsonrpc as the number 2.0", { jsonrpc: 2.0, id: 1, method: "ping" }, 'missing "jsonrpc": "2.0"'],
    ["a numeric method", { jsonrpc: "2.0", id: 1, method: 5 }, '"method" is not a string'],
    ["a null method", { jsonrpc: "2.0", id: 1, method: null }, '"method" is not a string'],
    ["a request with a null id (MCP forbids it)", { jsonrpc: "2.0", id: null, method: "ping" }, '"id" is not a string or number'],
    ["a request with an object id", { jsonrpc: "2.0", id: { n: 1 }, method: "ping" }, '"id" is not a string or number'],
    ["a request with a boolean id", { jsonrpc: "2.0", id: true, method: "ping" }, '"id" is not a string or number'],
    ["params as an array (MCP: params are an object)", { jsonrpc: "2.0", id: 1, method: "x", params: [1, 2] }, '"params" is not an object'],
    ["params as null", { jsonrpc: "2.0", method: "x", params: null }, '"params" is not an object'],
    ["params as a string", { jsonrpc: "2.0", method: "x", params: "p" }, '"params" is not an object'],
    ["a result without id", { jsonrpc: "2.0", result: {} }, 'response "id" is not a string or number'],
    ["a result with a null id", { jsonrpc: "2.0", id: null, result: {} }, 'response "id" is not a string or number'],
    ["both result and error", { jsonrpc: "2.0", id: 1, result: {}, error: { code: 1, message: "m" } }, 'response has both "result" and "error"'],
    ["a null result", { jsonrpc: "2.0", id: 1, result: null }, '"result" is not an object'],
    ["an array result", { jsonrpc: "2.0", id: 1, result: [] }, '"result" is not an object'],
    ["a string result", { jsonrpc: "2.0", id: 1, result: "ok" }, '"result" is not an object'],
    ["an error without id", { jsonrpc: "2.0", error: { code: 1, message: "m" } }, 'response "id" is not a string, number or null'],
    ["an error with a boolean id", { jsonrpc: "2.0", id: false, error: { code: 1, message: "m" } }, 'response "id" is not a string, number or null'],
    ["an error that is a string", { jsonrpc: "2.0", id: 1, error: "boom" }, '"error" lacks an integer "code" and a string "message"'],
    ["an error without code", { jsonrpc: "2.0", id: 1, error: { message: "m" } }, '"error" lacks an integer "code" and a string "message"'],
    [
      "an error with a string code",
      { jsonrpc: "2.0", id: 1, error: { code: "-32600", message: "m" } },
      '"error" lacks an integer "code" and a string "message"',
    ],
    [
      "an error with a fractional code (JSON-RPC: an integer)",
      { jsonrpc: "2.0", id: 1, error: { code: 1.5, message: "m" } },
      '"error" lacks an integer "code" and a string "message"',
    ],
    ["an error without message", { jsonrpc: "2.0", id: 1, error: { code: 1 } }, '"error" lacks an integer "code" and a string "message"'],
    ["an envelope with only jsonrpc and id", { jsonrpc: "2.0", id: 1 }, 'neither "method" nor "result" nor "error"'],
  ];
  for (const [what, value, reason] of bad) {
    test(`rejects ${what}, saying ${reason}`, () => {
      assert.equal(whyNotJsonRpc(value), reason);
      assert.equal(isJsonRpcMessage(value), false);
    });
  }
});

describe("the message guards", () => {
  test("a request, a notification, a result and an error are each matched by exactly their guard", () => {
    const cases: Array<[JsonRpcMessage, string]> = [
      [{ jsonrpc: "2.0", id: 1, method: "ping" }, "request"],
      [{ jsonrpc: "2.0", method: "notifications/initialized" }, "notification"],
      [{ jsonrpc: "2.0", id: 1, result: {} }, "result"],
      [{ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }, "error"],
    ];
    for (const [message, kind] of cases) assert.equal(kindOf(message), kind);
  });
});

describe("undeliverableResponse: a malformed response whose id can be read", () => {
  const cases: Array<[string, unknown, { id: number | string; reason: string } | undefined]> = [
    ["both result and error", { jsonrpc: "2.0", id: 3, result: {}, error: { code: 1, message: "m" } }, { id: 3, reason: "result-and-error" }],
    ["a null result", { jsonrpc: "2.0", id: "a", result: null }, { id: "a", reason: "result-not-object" }],
    ["an array result", { jsonrpc: "2.0", id: 4, result: [] }, { id: 4, reason: "result-not-object" }],
    ["an error without a code", { jsonrpc: "2.0", id: 5, error: { message: "m" } }, { id: 5, reason: "bad-error" }],
    ["a well-formed result (deliverable)", { jsonrpc: "2.0", id: 6, result: {} }, undefined],
    ["a well-formed error (deliverable)", { jsonrpc: "2.0", id: 7, error: { code: 1, message: "m" } }, undefined],
    ["a result without an id (nothing to fail)", { jsonrpc: "2.0", result: [] }, undefined],
    ["a request (not a response)", { jsonrpc: "2.0", id: 8, method: "x", params: [] }, undefined],
    ["no jsonrpc member", { id: 9, result: null }, undefined],
  ];
  for (const [what, value, expected] of cases) {
    test(`${what}: ${expected === undefined ? "none" : expected.reason}`, () => {
      const found = undeliverableResponse(value);
      assert.deepEqual(found === undefined ? undefined : { id: found.id, reason: found.reason }, expected);
      if (found !== undefined) assert.ok(found.detail.length > 0);
    });
  }
});
