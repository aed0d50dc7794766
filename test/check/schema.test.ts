// The schema family of `mcpwire check` (src/check/message-schema.ts): the specification's own
// example messages pass, hand-broken copies fail with the rule and the JSON Pointer of the
// broken value; the shipped schemas are the published files unchanged and load for each
// version; both validators read them (spec 2025-11-25 basic/index, "Schema").

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { judgeSchema, MAX_FAILURES_PER_RULE, SchemaRules } from "../../src/check/message-schema.ts";
import type { Observed } from "../../src/check/observed.ts";
import type { SeenMessage } from "../../src/check/rule.ts";
import { EraSchema, loadEraSchema, SHIPPED_SCHEMA_VERSIONS, shippedSchema } from "../../src/check/spec-schemas.ts";
import { interpretingValidator } from "../../src/client/schema/interpreting-validator.ts";
import { loadJsonSchema } from "../../src/client/schema/json-schema.ts";
import type { JsonObject } from "../../src/client/types.ts";
import { RecordingJudge } from "../support/recording-judge.ts";

const EXAMPLES = new URL("../fixtures/check/spec-examples-2026-07-28/", import.meta.url);

/** A session's messages: each received, answering `method` when given (and a request we sent before it). */
function observed(protocolVersion: string, received: { message: unknown; method?: string }[], sent: unknown[] = []): Observed {
  const messages: SeenMessage[] = [];
  for (const message of sent) messages.push({ index: messages.length + 1, dir: "send", message: message as SeenMessage["message"], at: 0 });
  for (const { message, method } of received) {
    messages.push({ index: messages.length + 1, dir: "receive", method, message: message as SeenMessage["message"], at: 0 });
  }
  return { era: protocolVersion === "2026-07-28" ? "modern" : "legacy", protocolVersion, capabilities: {}, lists: {}, messages };
}

async function judged(protocolVersion: string, received: { message: unknown; method?: string }[], sent: unknown[] = []): Promise<RecordingJudge> {
  const judge = new RecordingJudge();
  await judgeSchema(observed(protocolVersion, received, sent), judge);
  // The interpreting validator (a browser's, a Worker's) comes to the same verdicts.
  const again = new RecordingJudge();
  await judgeSchema(observed(protocolVersion, received, sent), again, { jsonSchema: "interpreting" });
  assert.deepEqual(again.verdicts, judge.verdicts);
  return judge;
}

/** The method each result definition of the examples answers. */
const METHOD_OF: Record<string, string> = {
  CallToolResult: "tools/call",
  CompleteResult: "completion/complete",
  DiscoverResult: "server/discover",
  GetPromptResult: "prompts/get",
  InputRequiredResult: "tools/call",
  ListPromptsResult: "prompts/list",
  ListResourceTemplatesResult: "resources/templates/list",
  ListResourcesResult: "resources/list",
  ListToolsResult: "tools/list",
  ReadResourceResult: "resources/read",
  SubscriptionsListenResult: "subscriptions/listen",
};

/** Every example as a message the server sent: a bare result or error object wrapped in a response. */
function examples(): { name: string; message: Record<string, unknown>; method?: string }[] {
  const found: { name: string; message: Record<string, unknown>; method?: string }[] = [];
  for (const folder of readdirSync(EXAMPLES).filter((name) => !name.includes("."))) {
    for (const file of readdirSync(new URL(`${folder}/`, EXAMPLES))) {
      const value = JSON.parse(readFileSync(new URL(`${folder}/${file}`, EXAMPLES), "utf8")) as Record<string, unknown>;
      const name = `${folder}/${file}`;
      const definition = folder.replace(/Response$/, "");
      if (value.jsonrpc === "2.0") found.push({ name, message: value, method: METHOD_OF[definition] });
      else if (folder.endsWith("Error")) found.push({ name, message: { jsonrpc: "2.0", id: 1, error: value } });
      else found.push({ name, message: { jsonrpc: "2.0", id: 1, result: value }, method: METHOD_OF[folder] });
    }
  }
  return found;
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

describe("the shipped schemas", () => {
  // Recorded from the specification repository's files (scripts/check-schemas.mjs).
  const PUBLISHED: Record<string, string> = {
    "2025-11-25": "268a5f82ba70fd7e4b6dc4aa1e64f116f74b4d0edcb69dc046829c79dd4e97e7",
    "2026-07-28": "ef70b61f99b6d2e5e3b46863822eab08dff6a45bedc7a08914e0e5b133f40203",
  };

  test("each is the published file unchanged: its text hashes to the sha256 recorded with where it came from", async () => {
    assert.deepEqual([...SHIPPED_SCHEMA_VERSIONS], Object.keys(PUBLISHED));
    for (const version of SHIPPED_SCHEMA_VERSIONS) {
      const shipped = await shippedSchema(version);
      assert.equal(await sha256(shipped.text), PUBLISHED[version], version);
      assert.equal(shipped.sha256, PUBLISHED[version], version);
      assert.match(shipped.source, new RegExp(`modelcontextprotocol/modelcontextprotocol, schema/${version}/schema\\.json at [0-9a-f]{7}`));
    }
  });

  test("each version loads and validates its negotiation result: initialize (2025-11-25), server/discover (2026-07-28)", async () => {
    const initialize = {
      protocolVersion: "2025-11-25",
      capabilities: { tools: { listChanged: true } },
      serverInfo: { name: "s", version: "1" },
    };
    const discover = {
      resultType: "complete",
      supportedVersions: ["2026-07-28"],
      capabilities: {},
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "s", version: "1" } },
      ttlMs: 0,
      cacheScope: "private",
    };
    const cases = [
      { version: "2025-11-25", method: "initialize", good: initialize, definition: "InitializeResult", missing: "serverInfo" },
      { version: "2026-07-28", method: "server/discover", good: discover, definition: "DiscoverResult", missing: "supportedVersions" },
    ];
    for (const { version, method, good, definition, missing } of cases) {
      const pass = await judged(version, [{ message: { jsonrpc: "2.0", id: 1, result: good }, method }]);
      assert.deepEqual(pass.failures, [], version);
      assert.ok(pass.passed.includes("schema/result"), version);
      const { [missing]: _gone, ...broken } = good as Record<string, unknown>;
      const fail = await judged(version, [{ message: { jsonrpc: "2.0", id: 1, result: broken }, method }]);
      assert.equal(fail.failures.length, 1, `${version}: ${JSON.stringify(fail.failures)}`);
      assert.equal(fail.failures[0]!.rule, "schema/result");
      assert.equal(fail.failures[0]!.seen?.pointer, "/result");
      assert.match(fail.failures[0]!.detail, new RegExp(`required property '${missing}'.*${definition}, keyword required; spec ${version} schema`));
      const { source, page } = fail.rules.get("schema/result")!.spec;
      assert.equal(`${source} ${page}`, `${version} schema`);
    }
  });

  test("a version whose schema is not shipped is skipped, naming the version", async () => {
    for (const version of ["2024-11-05", "2025-03-26", "2025-06-18"]) {
      const verdicts = await judged(version, [{ message: { jsonrpc: "2.0", id: 1, result: {} }, method: "initialize" }]);
      assert.deepEqual(verdicts.failures, []);
      assert.deepEqual(verdicts.skipped.map((each) => each.rule), ["schema/result", "schema/error", "schema/notification", "schema/request"]);
      assert.match(verdicts.skipped[0]!.reason, new RegExp(`no JSON Schema for protocol version "${version}"`));
    }
  });

  test("the interpreting validator (no code generation) reads both schemas' $defs and $refs as ajv does", async () => {
    for (const version of SHIPPED_SCHEMA_VERSIONS) {
      const { $schema: _dialect, ...root } = JSON.parse((await shippedSchema(version)).text) as JsonObject;
      const check = interpretingValidator.compile({ ...root, allOf: [{ $ref: "#/$defs/ListToolsResult" }] }, "2020-12");
      const tools = [{ name: "a", inputSchema: { type: "object" } }, { name: 5, inputSchema: { type: "object" } }];
      const result = version === "2026-07-28" ? { resultType: "complete", tools, ttlMs: 1, cacheScope: "public" } : { tools };
      const failures = check(result);
      assert.ok(failures !== undefined, version);
      assert.ok(failures.some((failure) => failure.path === "/tools/1/name" && failure.keyword === "type"), JSON.stringify(failures));
      assert.equal(check({ ...result, tools: [tools[0]] }), undefined, version);
    }
  });
});

describe("the specification's example messages (2026-07-28 schema/examples)", () => {
  // The one example its own schema refuses: written before resources/read results had to carry
  // the cache hints (2026-07-28 changelog item 5, SEP-2549: ttlMs and cacheScope required).
  const STALE = "ReadResourceResultResponse/read-resource-result-response.json";

  test("every message a server sends passes: results, result responses, errors, notifications", async () => {
    const all = examples();
    assert.ok(all.length >= 40, `${all.length} examples`);
    const failing: string[] = [];
    for (const example of all) {
      const verdicts = await judged("2026-07-28", [example]);
      if (verdicts.failures.length > 0) {
        failing.push(`${example.name}: ${verdicts.failures.map((failure) => failure.detail).join("; ")}`);
        continue;
      }
      assert.equal(verdicts.passed.length, 1, `${example.name}: ${JSON.stringify(verdicts)}`);
    }
    assert.deepEqual(failing, [
      `${STALE}: resources/read result: /result must have required property 'cacheScope' (ReadResourceResult, keyword required; spec 2026-07-28 schema); ` +
      "resources/read result: /result must have required property 'ttlMs' (ReadResourceResult, keyword required; spec 2026-07-28 schema)",
    ]);
  });

  test("a broken result fails schema/result at the broken value's pointer in the whole message", async () => {
    const example = examples().find((each) => each.name.startsWith("ListToolsResultResponse/"))!;
    const message = structuredClone(example.message) as { result: { tools: { inputSchema: unknown; name: unknown }[] } };
    message.result.tools[0]!.inputSchema = { type: 5 };
    const verdicts = await judged("2026-07-28", [{ message, method: "tools/list" }, { message: example.message, method: "tools/list" }]);
    assert.ok(verdicts.failures.length >= 1);
    for (const failure of verdicts.failures) {
      assert.equal(failure.rule, "schema/result");
      assert.equal(failure.seen?.index, 1);
      assert.equal(failure.seen?.pointer, "/result/tools/0/inputSchema/type");
      assert.match(
        failure.detail,
        /^tools\/list result: \/result\/tools\/0\/inputSchema\/type must be .*\(ListToolsResult, keyword (const|type); spec 2026-07-28 schema\)$/,
      );
      assert.equal(failure.seen?.excerpt, "5");
    }
    assert.ok(!verdicts.passed.includes("schema/result"));
  });

  test("a broken notification, error and input-required result fail their rules at their pointers", async () => {
    const find = (prefix: string) => structuredClone(examples().find((each) => each.name.startsWith(prefix))!);
    const log = find("LoggingMessageNotification/");
    (log.message.params as Record<string, unknown>).level = "loud";
    const error = find("MethodNotFoundError/");
    (error.message.error as Record<string, unknown>).code = "-32601";
    const input = find("InputRequiredResult/");
    (input.message.result as Record<string, unknown>).requestState = 42;
    const verdicts = await judged("2026-07-28", [log, error, input]);
    const places = verdicts.failures.map((failure) => `${failure.rule} ${failure.seen?.index} ${failure.seen?.pointer}`);
    assert.deepEqual(places, [
      "schema/notification 1 /params/level",
      "schema/error 2 /error/code",
      "schema/result 3 /result/requestState",
    ]);
    assert.match(
      verdicts.failures[0]!.detail,
      /notifications\/message: \/params\/level must be equal to one of the allowed values \(LoggingMessageNotification, keyword enum/,
    );
    assert.match(verdicts.failures[1]!.detail, /\(Error, keyword type; spec 2026-07-28 schema\)/);
    assert.match(verdicts.failures[2]!.detail, /\(InputRequiredResult, keyword type/);
  });

  test("an error with a definition of its own (-32022) must carry the data it defines", async () => {
    const example = examples().find((each) => each.name.startsWith("UnsupportedProtocolVersionError/"))!;
    const broken = structuredClone(example.message) as { error: { data: Record<string, unknown> } };
    delete broken.error.data.supported;
    const verdicts = await judged("2026-07-28", [{ message: broken, method: "server/discover" }]);
    assert.deepEqual(verdicts.failures.map((failure) => `${failure.rule} ${failure.seen?.pointer}`), ["schema/error /error/data"]);
    assert.match(
      verdicts.failures[0]!.detail,
      /^error response to server\/discover: \/error\/data must have required property 'supported' \(UnsupportedProtocolVersionError, keyword required/,
    );
    // The same code under 2025-11-25, whose schema defines no such error, is judged as any error.
    assert.deepEqual((await judged("2025-11-25", [{ message: broken }])).failures, []);
  });

  test("a value broken in many places is reported by its first places and a count", async () => {
    const example = examples().find((each) => each.name.startsWith("ListToolsResultResponse/"))!;
    const message = structuredClone(example.message) as { result: { tools: unknown[] } };
    message.result.tools = Array.from({ length: 30 }, () => ({ name: 7, inputSchema: { type: "object" } }));
    const verdicts = await judged("2026-07-28", [{ message, method: "tools/list" }]);
    assert.equal(verdicts.failures.length, 5);
    assert.match(verdicts.failures[4]!.detail, /\(and 25 more in this message\)$/);
  });
});

describe("what a message is judged as", () => {
  test("a session broken the same way in many messages is told by the first findings and a count", async () => {
    const broken = { jsonrpc: "2.0", method: "notifications/message", params: { level: "loud", data: 1 } };
    const verdicts = await judged("2025-11-25", Array.from({ length: 40 }, () => ({ message: broken })));
    assert.equal(verdicts.failures.length, MAX_FAILURES_PER_RULE);
    assert.match(verdicts.failures.at(-1)!.detail, /\(and 15 more findings in later messages\)$/);
    assert.equal(verdicts.failures.at(-1)!.seen?.index, MAX_FAILURES_PER_RULE);
  });

  test("a request of the server (2025-11-25) fails schema/request at its pointer; an unknown method is skipped, named", async () => {
    const request = { jsonrpc: "2.0", id: 9, method: "sampling/createMessage", params: { maxTokens: 10 } };
    const odd = { jsonrpc: "2.0", id: 10, method: "vendor/thing", params: {} };
    const verdicts = await judged("2025-11-25", [{ message: request }, { message: odd }]);
    assert.deepEqual(verdicts.failures.map((failure) => `${failure.rule} ${failure.seen?.pointer}`), ["schema/request /params"]);
    assert.match(verdicts.failures[0]!.detail, /required property 'messages'.*CreateMessageRequest/);
    const ok = await judged("2025-11-25", [{ message: { ...request, params: { maxTokens: 10, messages: [] } } }, { message: odd }]);
    assert.ok(ok.passed.includes("schema/request"));
    const unknown = await judged("2025-11-25", [{ message: odd }, { message: { jsonrpc: "2.0", method: "notifications/vendor" } }]);
    assert.deepEqual(unknown.passed, []);
    const reasons = Object.fromEntries(unknown.skipped.map((each) => [each.rule, each.reason]));
    assert.match(reasons["schema/request"]!, /vendor\/thing \(no ServerRequest of the 2025-11-25 schema\)/);
    assert.match(reasons["schema/notification"]!, /notifications\/vendor \(no ServerNotification/);
  });

  test("a value that matches no alternative is read as the definition its type names, else the anyOf is reported", async () => {
    const content = [{ type: "image", mimeType: "image/png" }, { type: "text", text: 5 }, { type: "bogus" }, { type: "text", text: "ok" }];
    const verdicts = await judged("2025-11-25", [{ message: { jsonrpc: "2.0", id: 1, result: { content } }, method: "tools/call" }]);
    assert.deepEqual(verdicts.failures.map((failure) => failure.detail), [
      "tools/call result: /result/content/0 must have required property 'data' (CallToolResult, its value read as ImageContent by its type, keyword required; spec 2025-11-25 schema)",
      "tools/call result: /result/content/1/text must be string (CallToolResult, its value read as TextContent by its type, keyword type; spec 2025-11-25 schema)",
      "tools/call result: /result/content/2 must match a schema in anyOf (CallToolResult, keyword anyOf; spec 2025-11-25 schema)",
    ]);
    assert.deepEqual(verdicts.failures.map((failure) => failure.seen?.pointer), ["/result/content/0", "/result/content/1/text", "/result/content/2"]);
  });

  test("a task-augmented tools/call (2025-11-25) is judged as CreateTaskResult", async () => {
    const sent = [{ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "slow", arguments: {}, task: { ttl: 1000 } } }];
    const task = { taskId: "t1", status: "working", createdAt: "2025-11-25T00:00:00Z", lastUpdatedAt: "2025-11-25T00:00:00Z", ttl: 1000 };
    const pass = await judged("2025-11-25", [{ message: { jsonrpc: "2.0", id: 3, result: { task } }, method: "tools/call" }], sent);
    assert.deepEqual(pass.failures, []);
    const fail = await judged("2025-11-25", [{ message: { jsonrpc: "2.0", id: 3, result: { content: [] } }, method: "tools/call" }], sent);
    assert.match(fail.failures[0]!.detail, /required property 'task'.*CreateTaskResult/);
  });

  test("the envelope is the json-rpc family's: a wrong jsonrpc in a notification is not reported here", async () => {
    const verdicts = await judged("2025-11-25", [{ message: { jsonrpc: "1.0", method: "notifications/tools/list_changed" } }]);
    assert.deepEqual(verdicts.failures, []);
  });

  test("a draft-07 schema with `definitions` (the shape of 2024-11-05 to 2025-06-18) is read the same way", async () => {
    const validator = await loadJsonSchema();
    const draft07 = {
      $schema: "http://json-schema.org/draft-07/schema#",
      definitions: {
        ClientRequest: { anyOf: [{ $ref: "#/definitions/ListToolsRequest" }, { $ref: "#/definitions/PingRequest" }] },
        ListToolsRequest: { properties: { method: { const: "tools/list", type: "string" } }, required: ["method"], type: "object" },
        PingRequest: { properties: { method: { const: "ping", type: "string" } }, required: ["method"], type: "object" },
        ListToolsResult: { properties: { tools: { items: { $ref: "#/definitions/Tool" }, type: "array" } }, required: ["tools"], type: "object" },
        Tool: { properties: { name: { type: "string" } }, required: ["name"], type: "object" },
        EmptyResult: { $ref: "#/definitions/Result" },
        Result: { additionalProperties: {}, type: "object" },
        JSONRPCError: {
          properties: { error: { properties: { code: { type: "integer" }, message: { type: "string" } }, required: ["code", "message"], type: "object" } },
          type: "object",
        },
      },
    };
    const era = new EraSchema("2025-11-25", draft07, validator);
    assert.equal(era.dialect, "draft-07");
    assert.equal(era.resultFor("tools/list"), "ListToolsResult");
    assert.equal(era.resultFor("ping"), "EmptyResult");
    assert.equal(era.resultFor("vendor/x"), undefined);
    assert.deepEqual(era.check("ListToolsResult")({ tools: [{ name: "a" }, {}] })?.map((failure) => failure.path), ["/tools/1"]);
    assert.deepEqual(era.check(era.errorRef()!)({ code: 1.5, message: "m" })?.map((failure) => failure.path), ["/code"]);
    assert.equal(era.check("EmptyResult")({}), undefined);
  });

  test("a definition is compiled once per process: the same check each time", async () => {
    const era = await loadEraSchema("2025-11-25")!;
    assert.equal(era.check("ListToolsResult"), era.check("ListToolsResult"));
    assert.equal(await loadEraSchema("2025-11-25"), era);
  });

  test("either validator judges alike: ajv and the interpreting one give the same failures", async () => {
    const result = { tools: [{ name: "a", inputSchema: { type: "object" } }, { name: 5, inputSchema: { type: 3 } }, {}] };
    const failures = [];
    for (const validator of ["ajv", "interpreting"] as const) {
      const era = await loadEraSchema("2025-11-25", validator)!;
      failures.push(era.check("ListToolsResult")(result));
    }
    assert.ok(failures[0] !== undefined && failures[0].length >= 3);
    assert.deepEqual(failures[1], failures[0]);
  });

  test("the catalogue's rules are MUSTs of area schema", () => {
    for (const each of Object.values(SchemaRules)) {
      assert.equal(each.level, "MUST");
      assert.equal(each.area, "schema");
    }
  });
});
