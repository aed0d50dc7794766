// The request metadata headers the Client makes for the 2026-07-28 Streamable HTTP transport:
// value encoding, the x-mcp-header constraints, and the headers of one request — spec
// 2026-07-28 basic/transports/streamable-http ("Request Metadata").

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { encodeHeaderValue, paramHeadersOf, requestHeaders } from "../../src/client/request-headers.ts";

describe("request-headers", () => {
  test("values are encoded as the spec's table shows: plain ASCII as is, the rest as =?base64?…?=", () => {
    // spec 2026-07-28 streamable-http ("Value Encoding", the encoding examples).
    assert.equal(encodeHeaderValue("us-west1"), "us-west1");
    assert.equal(encodeHeaderValue("Hello, 世界"), "=?base64?SGVsbG8sIOS4lueVjA==?=");
    assert.equal(encodeHeaderValue(" padded "), "=?base64?IHBhZGRlZCA=?=");
    assert.equal(encodeHeaderValue("line1\nline2"), "=?base64?bGluZTEKbGluZTI=?=");
    assert.equal(encodeHeaderValue("=?base64?literal?="), "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=");
    assert.equal(encodeHeaderValue("us west 1"), "us west 1", "internal spaces are plain ASCII");
    assert.equal(encodeHeaderValue("\tindented"), "=?base64?CWluZGVudGVk?=");
  });

  test("annotations on string, integer and boolean parameters reachable through properties are found, nested too", () => {
    const found = paramHeadersOf({
      type: "object",
      properties: {
        region: { type: "string", "x-mcp-header": "Region" },
        limits: { type: "object", properties: { max: { type: "integer", "x-mcp-header": "Max" } } },
        dry: { type: "boolean", "x-mcp-header": "Dry-Run" },
        query: { type: "string" },
      },
    });
    assert.deepEqual(found, {
      headers: [
        { name: "Region", path: ["region"], type: "string" },
        { name: "Max", path: ["limits", "max"], type: "integer" },
        { name: "Dry-Run", path: ["dry"], type: "boolean" },
      ],
    });
  });

  test("every broken annotation makes the tool invalid, with the reason", () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ["empty", { v: { type: "string", "x-mcp-header": "" } }, /empty/],
      ["a space", { v: { type: "string", "x-mcp-header": "My Region" } }, /not an HTTP field-name token/],
      ["a colon", { v: { type: "string", "x-mcp-header": "Region:Primary" } }, /token/],
      ["non-ASCII", { v: { type: "string", "x-mcp-header": "Région" } }, /token/],
      ["a tab", { v: { type: "string", "x-mcp-header": "Region\t1" } }, /token/],
      ["a number", { v: { type: "number", "x-mcp-header": "Score" } }, /only string, integer and boolean/],
      ["an object", { v: { type: "object", "x-mcp-header": "Data" } }, /only string, integer and boolean/],
      ["an array", { v: { type: "array", items: { type: "string" }, "x-mcp-header": "Items" } }, /only string/],
      ["null", { v: { type: "null", "x-mcp-header": "Nil" } }, /only string/],
      ["a duplicate", { a: { type: "string", "x-mcp-header": "Region" }, b: { type: "string", "x-mcp-header": "region" } }, /used twice/],
    ];
    for (const [what, properties, reason] of cases) {
      const found = paramHeadersOf({ type: "object", properties });
      assert.ok("problem" in found, `${what}: accepted`);
      assert.match(found.problem, reason, what);
    }
    const throughItems = paramHeadersOf({
      type: "object",
      properties: { list: { type: "array", items: { type: "string", "x-mcp-header": "Item" } } },
    });
    assert.ok("problem" in throughItems && /not reachable/.test(throughItems.problem));
    const throughAnyOf = paramHeadersOf({ type: "object", anyOf: [{ properties: { v: { type: "string", "x-mcp-header": "V" } } }] });
    assert.ok("problem" in throughAnyOf && /not reachable/.test(throughAnyOf.problem));
  });

  test("a tools/call carries Mcp-Method, Mcp-Name and the annotated values present; null and absent ones are omitted", () => {
    const schema = {
      type: "object",
      properties: {
        region: { type: "string", "x-mcp-header": "Region" },
        priority: { type: "integer", "x-mcp-header": "Priority" },
        verbose: { type: "boolean", "x-mcp-header": "Verbose" },
        missing: { type: "string", "x-mcp-header": "Missing" },
        greeting: { type: "string", "x-mcp-header": "Greeting" },
      },
    };
    const headers = requestHeaders(
      "tools/call",
      { name: "execute_sql", arguments: { region: "us-west1", priority: 42, verbose: null, greeting: "Hello, 世界" } },
      (tool) => (tool === "execute_sql" ? schema : undefined),
    );
    assert.deepEqual(headers, {
      "Mcp-Method": "tools/call",
      "Mcp-Name": "execute_sql",
      "Mcp-Param-Region": "us-west1",
      "Mcp-Param-Priority": "42",
      "Mcp-Param-Greeting": "=?base64?SGVsbG8sIOS4lueVjA==?=",
    });
  });

  test("resources/read names its URI and prompts/get its prompt; other requests carry only Mcp-Method", () => {
    assert.deepEqual(requestHeaders("resources/read", { uri: "file:///a b.txt" }), {
      "Mcp-Method": "resources/read",
      "Mcp-Name": "file:///a b.txt",
    });
    assert.deepEqual(requestHeaders("prompts/get", { name: "greet" }), {
      "Mcp-Method": "prompts/get",
      "Mcp-Name": "greet",
    });
    assert.deepEqual(requestHeaders("tools/list", undefined), { "Mcp-Method": "tools/list" });
  });
});
