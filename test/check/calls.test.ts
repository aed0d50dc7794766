// The check's calls family: a tools/call answer judged against the tool as listed (content item
// types and fields per version, base64, isError, outputSchema, structured content as text, the
// two ways of failing) and the arguments made from a tool's inputSchema — spec 2025-11-25
// server/tools ("Tool Result", "Structured Content", "Output Schema", "Error Handling"), schema
// CallToolResult. Each rule fails on a breaking answer and passes on a conformant one; then the
// read-only tools of server-everything, called with arguments made from their schemas.

import assert from "node:assert/strict";
import { test } from "node:test";
import type { Rule, SeenMessage } from "../../src/check/rule.ts";
import { argumentsFor } from "../../src/check/tool-arguments.ts";
import { CallRules, judgeCallResult } from "../../src/check/tool-call.ts";
import { Client, StdioTransport } from "../../src/mod.ts";
import { behaviour } from "../support/behaviour.ts";
import { EVERYTHING } from "../support/everything-path.ts";
import { RecordingJudge } from "../support/recording-judge.ts";

const ECHO = { name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } };
const WEATHER = {
  name: "weather",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  outputSchema: {
    type: "object",
    properties: { temperature: { type: "number" }, conditions: { type: "string" } },
    required: ["temperature", "conditions"],
  },
};
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

function answer(body: Record<string, unknown>, index = 7): SeenMessage {
  return { index, dir: "receive", method: "tools/call", message: { jsonrpc: "2.0", id: 3, ...body } as SeenMessage["message"], at: 0 };
}

async function judged(tool: unknown, body: Record<string, unknown>, context: { protocolVersion?: string; arguments?: unknown } = {}): Promise<RecordingJudge> {
  const judge = new RecordingJudge();
  await judgeCallResult(tool, answer(body), judge, context);
  return judge;
}

function failed(judge: RecordingJudge, rule: Rule): { details: string[]; pointers: (string | undefined)[] } {
  assert.equal(judge.outcome(rule), "fail", `${rule.id}: ${JSON.stringify(judge.summary())}`);
  const failures = judge.failuresOf(rule);
  return { details: failures.map((each) => each.detail), pointers: failures.map((each) => each.seen?.pointer) };
}

test("a plain text result of a listed tool passes, and the rules it does not touch are skipped saying why", async () => {
  const judge = await judged(ECHO, { result: { content: [{ type: "text", text: "hi" }], isError: false } }, { arguments: { text: "hi" } });
  assert.deepEqual(judge.summary(), {
    "calls/unknown-tool-error": "skip",
    "calls/tool-error-in-result": "pass",
    "calls/content-items": "pass",
    "calls/base64-data": "skip",
    "calls/is-error-boolean": "pass",
    "calls/structured-content-text": "skip",
    "calls/output-schema": "skip",
  });
  assert.equal(Object.keys(judge.summary()).length, Object.keys(CallRules).length);
});

test("content that is missing, not an array, or holds items of unknown types or without their fields breaks content-items", async () => {
  assert.deepEqual(failed(await judged(ECHO, { result: {} }), CallRules.contentItems).details, ['the result has no "content"']);
  assert.deepEqual(failed(await judged(ECHO, { result: { content: "hi" } }), CallRules.contentItems).details, ['"content" is a string, not an array']);
  const broken = failed(
    await judged(ECHO, {
      result: {
        content: [
          { type: "text", text: "fine" },
          { type: "html", html: "<b>" },
          { type: "image", data: PNG },
          7,
          { type: "resource", resource: { uri: "file:///a" } },
        ],
      },
    }),
    CallRules.contentItems,
  );
  assert.deepEqual(broken.details, [
    'content item 1 has type "html", which no version of MCP defines',
    'content item 2 (image) has no "mimeType"',
    "content item 3 is a number, not a content item object (and 1 more)",
  ]);
  assert.deepEqual(broken.pointers, ["/result/content/1/type", "/result/content/2/mimeType", "/result/content/3"]);
});

test("content types are those of the negotiated version: audio from 2025-03-26, resource_link from 2025-06-18", async () => {
  const audio = { type: "audio", data: PNG, mimeType: "audio/wav" };
  const link = { type: "resource_link", uri: "file:///a", name: "a" };
  const old = failed(await judged(ECHO, { result: { content: [audio] } }, { protocolVersion: "2024-11-05" }), CallRules.contentItems);
  assert.deepEqual(old.details, ['content item 0 has type "audio", which protocol 2024-11-05 does not define (it came with 2025-03-26)']);
  const linkOld = failed(await judged(ECHO, { result: { content: [link] } }, { protocolVersion: "2025-03-26" }), CallRules.contentItems);
  assert.match(linkOld.details[0]!, /resource_link", which protocol 2025-03-26 does not define/);
  const now = await judged(ECHO, { result: { content: [audio, link] } }, { protocolVersion: "2025-11-25" });
  assert.equal(now.outcome(CallRules.contentItems), "pass");
});

test("image, audio and blob data that is not base64 breaks base64-data; padded base64 passes", async () => {
  const good = await judged(ECHO, {
    result: { content: [{ type: "image", data: PNG, mimeType: "image/png" }, { type: "resource", resource: { uri: "file:///b", blob: "AAEC" } }] },
  });
  assert.equal(good.outcome(CallRules.base64), "pass");
  const bad = failed(
    await judged(ECHO, {
      result: {
        content: [
          { type: "image", data: "data:image/png;base64," + PNG, mimeType: "image/png" },
          { type: "resource", resource: { uri: "file:///b", blob: "AAE" } },
          { type: "audio", data: "a-b_", mimeType: "audio/wav" },
        ],
      },
    }),
    CallRules.base64,
  );
  assert.deepEqual(bad.pointers, ["/result/content/0/data", "/result/content/1/resource/blob", "/result/content/2/data"]);
  assert.match(bad.details[0]!, /^content item 0 \(image\) holds data that is not base64$/);
});

test("isError that is not a boolean breaks is-error-boolean", async () => {
  const judge = await judged(ECHO, { result: { content: [], isError: "true" } });
  assert.deepEqual(failed(judge, CallRules.isErrorBoolean).details, ['isError is a string ("true"), not a boolean']);
});

test("a tool with an outputSchema: structuredContent missing or not matching breaks output-schema; matching passes", async () => {
  const text = (value: unknown) => ({ type: "text", text: JSON.stringify(value) });
  const missing = await judged(WEATHER, { result: { content: [{ type: "text", text: "22 degrees" }] } });
  assert.deepEqual(failed(missing, CallRules.outputSchema).details, ['tool "weather" declares an outputSchema but returned no structuredContent']);
  const wrong = { temperature: "22", conditions: "sunny" };
  const mismatch = failed(await judged(WEATHER, { result: { content: [text(wrong)], structuredContent: wrong } }), CallRules.outputSchema);
  assert.match(mismatch.details[0]!, /^structuredContent does not match the outputSchema: \/temperature must be number/);
  assert.deepEqual(mismatch.pointers, ["/result/structuredContent/temperature"]);
  const right = { temperature: 22, conditions: "sunny" };
  const good = await judged(WEATHER, { result: { content: [text(right)], structuredContent: right } });
  assert.equal(good.outcome(CallRules.outputSchema), "pass");
  assert.equal(good.outcome(CallRules.structuredText), "pass");
  // A failed call has nothing to conform; a version before 2025-06-18 has no structured content.
  const error = await judged(WEATHER, { result: { content: [{ type: "text", text: "no such city" }], isError: true } });
  assert.equal(error.outcome(CallRules.outputSchema), "skip");
  const old = await judged(WEATHER, { result: { content: [] } }, { protocolVersion: "2025-03-26" });
  assert.equal(old.outcome(CallRules.outputSchema), "skip");
});

test("structuredContent without its JSON in a text item breaks structured-content-text (a SHOULD)", async () => {
  const value = { temperature: 22, conditions: "sunny" };
  const judge = await judged(WEATHER, { result: { content: [{ type: "text", text: "It is 22 and sunny" }], structuredContent: value } });
  assert.deepEqual(failed(judge, CallRules.structuredText).details, ["no text item of content holds structuredContent serialized as JSON"]);
  // Key order and spacing do not matter: the text is compared as JSON.
  const reordered = await judged(WEATHER, {
    result: { content: [{ type: "text", text: '{ "conditions": "sunny", "temperature": 22.0 }' }], structuredContent: value },
  });
  assert.equal(reordered.outcome(CallRules.structuredText), "pass");
});

test("a tool the server does not list answered with a result breaks unknown-tool-error; a JSON-RPC error passes", async () => {
  const result = await judged(undefined, { result: { content: [{ type: "text", text: "Unknown tool" }], isError: true } });
  assert.deepEqual(failed(result, CallRules.unknownToolError).pointers, ["/result"]);
  const error = await judged(undefined, { error: { code: -32602, message: "Unknown tool: nope" } });
  assert.equal(error.outcome(CallRules.unknownToolError), "pass");
  assert.equal(error.outcome(CallRules.contentItems), "skip");
});

test("-32602 for arguments the tool's own inputSchema accepts breaks tool-error-in-result; other cases are not judged", async () => {
  const invalid = { error: { code: -32602, message: "Invalid date: must be in the future" } };
  const judge = await judged(ECHO, invalid, { arguments: { text: "2020-01-01" } });
  assert.deepEqual(failed(judge, CallRules.toolErrorInResult).details, [
    'tool "echo" answered arguments its inputSchema accepts with a -32602 JSON-RPC error: Invalid date: must be in the future',
  ]);
  const notValid = await judged(ECHO, invalid, { arguments: { text: 5 } });
  assert.equal(notValid.outcome(CallRules.toolErrorInResult), "skip");
  const internal = await judged(ECHO, { error: { code: -32603, message: "boom" } }, { arguments: { text: "a" } });
  assert.equal(internal.outcome(CallRules.toolErrorInResult), "skip");
});

test("a 2026-07-28 result that is not final (input_required) is not judged as a tool result", async () => {
  const judge = await judged(ECHO, { result: { resultType: "input_required", inputRequests: {} } }, { protocolVersion: "2026-07-28" });
  assert.equal(judge.outcome(CallRules.contentItems), "skip");
  const final = await judged(ECHO, { result: { resultType: "complete", content: [{ type: "text", text: "a" }] } }, { protocolVersion: "2026-07-28" });
  assert.equal(final.outcome(CallRules.contentItems), "pass");
});

test("answers of the wrong shape everywhere are judged without a throw", async () => {
  const odd: unknown[] = [null, "x", [], { result: null }, { result: [] }, { result: { content: [null, [], { type: 5 }], isError: 0, structuredContent: [] } }];
  for (const body of odd) {
    const judge = new RecordingJudge();
    await judgeCallResult({ name: 5, outputSchema: "x" }, { index: 1, dir: "receive", message: body as SeenMessage["message"], at: 0 }, judge);
    assert.equal(Object.keys(judge.summary()).length, Object.keys(CallRules).length);
  }
});

test("argumentsFor: required properties only, the schema's own const, enum, default and examples first", () => {
  assert.deepEqual(
    argumentsFor({
      type: "object",
      properties: {
        text: { type: "string" },
        mode: { enum: ["fast", "slow"] },
        kind: { const: "k" },
        limit: { type: "integer", default: 10 },
        city: { type: "string", examples: ["Paris"] },
        optional: { type: "string" },
      },
      required: ["text", "mode", "kind", "limit", "city"],
    }),
    { text: "a", mode: "fast", kind: "k", limit: 10, city: "Paris" },
  );
  assert.deepEqual(argumentsFor({ type: "object" }), {});
  assert.deepEqual(argumentsFor({ type: "object", properties: { a: { type: "string" } } }), {});
});

test("argumentsFor: numbers within their bounds, strings of their length and format, arrays of their size, $ref and anyOf", () => {
  assert.deepEqual(
    argumentsFor({
      type: "object",
      properties: {
        count: { type: "integer", minimum: 3, maximum: 9 },
        ratio: { type: "number", exclusiveMinimum: 0, maximum: 1 },
        below: { type: "integer", maximum: -2 },
        step: { type: "integer", minimum: 1, multipleOf: 5 },
        code: { type: "string", minLength: 3, maxLength: 3 },
        email: { type: "string", format: "email" },
        when: { type: "string", format: "date-time" },
        slug: { type: "string", pattern: "^[a-z]+$" },
        tags: { type: "array", items: { type: "string" }, minItems: 2 },
        flag: { type: "boolean" },
        either: { anyOf: [{ type: "null" }, { type: "number" }] },
        nullable: { type: ["null", "string"] },
        place: { $ref: "#/$defs/place" },
      },
      required: ["count", "ratio", "below", "step", "code", "email", "when", "slug", "tags", "flag", "either", "nullable", "place"],
      $defs: { place: { type: "object", properties: { lat: { type: "number", minimum: -90 } }, required: ["lat"] } },
    }),
    {
      count: 3,
      ratio: 0.5,
      below: -2,
      step: 5,
      code: "aaa",
      email: "user@example.com",
      when: "2025-01-01T00:00:00Z",
      slug: "a",
      tags: ["a", "a"],
      flag: false,
      either: null,
      nullable: "a",
      place: { lat: 0 },
    },
  );
});

test("argumentsFor: undefined when no instance can be made with confidence", () => {
  const wrap = (property: unknown) => ({ type: "object", properties: { p: property }, required: ["p"] });
  assert.equal(argumentsFor(wrap({ type: "string", pattern: "^[A-Z]{3}-\\d{4}$" })), undefined);
  assert.equal(argumentsFor(wrap({ type: "integer", minimum: 5, maximum: 4 })), undefined);
  assert.equal(argumentsFor(wrap({ $ref: "https://example.com/schema.json" })), undefined);
  assert.equal(argumentsFor(wrap({ type: "string", default: 5 })), undefined, "a default the schema refuses is not used");
  assert.equal(argumentsFor(wrap({ type: "array", minItems: 2, uniqueItems: true, items: { type: "string" } })), undefined);
  assert.equal(argumentsFor(wrap(false)), undefined);
  assert.equal(argumentsFor({ type: "string" }), undefined);
  assert.equal(argumentsFor("not a schema"), undefined);
  assert.equal(argumentsFor(null), undefined);
  const cycle: Record<string, unknown> = { type: "object", required: ["self"] };
  cycle.properties = { self: cycle };
  assert.equal(argumentsFor(cycle), undefined);
});

behaviour("server-everything: its read-only tools, called with arguments made from their schemas, break no calls rule", async () => {
  const client = new Client({ name: "mcpwire-tests", version: "1.0.0" }, { protocol: "legacy", requestTimeoutMs: 20_000 });
  await client.connect(new StdioTransport({ command: "node", args: [EVERYTHING, "stdio"], onStderr: () => {} }));
  try {
    const called: string[] = [];
    for (const tool of await client.listTools()) {
      // trigger-long-running-operation is read-only but takes seconds: left out to keep the test short.
      if (tool.annotations?.readOnlyHint !== true || tool.name === "trigger-long-running-operation") continue;
      const args = argumentsFor(tool.inputSchema);
      assert.ok(args, `no arguments made for ${tool.name}`);
      const result = await client.callTool(tool.name, args);
      const judge = new RecordingJudge();
      await judgeCallResult(tool, answer({ result }), judge, { protocolVersion: client.protocolVersion, arguments: args });
      assert.deepEqual(judge.failures, [], `${tool.name} with ${JSON.stringify(args)}`);
      called.push(tool.name);
    }
    assert.ok(called.includes("get-structured-content") && called.includes("get-tiny-image") && called.includes("echo"), called.join(", "));
  } finally {
    await client.close();
  }
});
