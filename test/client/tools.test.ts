// The Client's tool methods against hand-written in-process servers: listing across pages,
// calling with progress, tool errors and protocol errors, and checking structuredContent
// against outputSchema — spec 2025-11-25 server/tools, server/utilities/pagination.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { JSON_SCHEMA_VALIDATORS } from "../../src/client/schema/json-schema.ts";
import type { JsonSchemaValidator } from "../../src/client/schema/schema-validator.ts";
import type { RequestHandler } from "../../src/jsonrpc/peer.ts";
import {
  CapabilityError,
  Client,
  OutputValidationError,
  type Params,
  type Progress,
  ProtocolError,
  RpcError,
  StdioTransport,
  type Tool,
} from "../../src/mod.ts";
import { fixturePath } from "../support/fixture-process.ts";
import { type InProcessServer, inProcessServer, requestsFor } from "../support/in-process-server.ts";
import { rejection } from "../support/rejection.ts";

const CLIENT_INFO = { name: "mcpwire-tests", version: "1.0.0" };

function tool(name: string, outputSchema?: Params): Tool {
  return outputSchema === undefined ? { name, inputSchema: { type: "object" } } : { name, inputSchema: { type: "object" }, outputSchema };
}

async function connected(server: InProcessServer, options: { maxPages?: number; jsonSchema?: JsonSchemaValidator } = {}): Promise<Client> {
  const client = new Client(CLIENT_INFO, { name: "in-process", requestTimeoutMs: 10_000, ...options });
  await client.connect(server.clientEnd);
  return client;
}

describe("listTools follows cursors", () => {
  test("every page is fetched in order, each with the cursor the previous page gave", async () => {
    const pages: Record<string, Params> = {
      first: { tools: [tool("a"), tool("b")], nextCursor: "page 2 ✓" },
      "page 2 ✓": { tools: [tool("c")], nextCursor: "3" },
      "3": { tools: [tool("d")] },
    };
    const server = inProcessServer({ tools: {} }, {
      "tools/list": (params) => pages[typeof params?.cursor === "string" ? params.cursor : "first"]!,
    });
    const client = await connected(server);
    try {
      const tools = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name), ["a", "b", "c", "d"]);
      assert.deepEqual(requestsFor(server, "tools/list").map((params) => params.cursor), [undefined, "page 2 ✓", "3"]);
      assert.deepEqual([...client.knownTools.keys()], ["a", "b", "c", "d"]);
    } finally {
      await client.close();
    }
  });

  test("a repeated cursor is a ProtocolError naming it, not an endless loop", async () => {
    const server = inProcessServer({ tools: {} }, {
      "tools/list": () => ({ tools: [tool("again")], nextCursor: "same" }),
    });
    const client = await connected(server);
    try {
      const error = await rejection(client.listTools());
      assert.ok(error instanceof ProtocolError);
      assert.match(error.message, /server "in-process": tools\/list: the server repeated cursor "same" on page 2/);
      assert.equal(requestsFor(server, "tools/list").length, 2);
    } finally {
      await client.close();
    }
  });

  test("more pages than maxPages is a ProtocolError naming the limit, after exactly maxPages requests", async () => {
    let page = 0;
    const server = inProcessServer({ tools: {} }, {
      "tools/list": () => ({ tools: [tool(`t${page}`)], nextCursor: `cursor-${++page}` }),
    });
    const client = await connected(server, { maxPages: 5 });
    try {
      const error = await rejection(client.listTools());
      assert.ok(error instanceof ProtocolError);
      assert.match(error.message, /more than 5 pages/);
      assert.match(error.message, /raise maxPages/);
      assert.equal(requestsFor(server, "tools/list").length, 5);
    } finally {
      await client.close();
    }
  });

  test("resources, resource templates and prompts follow cursors the same way", async () => {
    const twoPages = (key: string, items: Params[]): RequestHandler => (params) =>
      params?.cursor === "next" ? { [key]: items.slice(1) } : { [key]: items.slice(0, 1), nextCursor: "next" };
    const server = inProcessServer({ resources: {}, prompts: {} }, {
      "resources/list": twoPages("resources", [{ uri: "test://1", name: "one" }, { uri: "test://2", name: "two" }]),
      "resources/templates/list": twoPages("resourceTemplates", [
        { uriTemplate: "test://a/{x}", name: "a" },
        { uriTemplate: "test://b/{x}", name: "b" },
      ]),
      "prompts/list": twoPages("prompts", [{ name: "p1" }, { name: "p2" }]),
    });
    const client = await connected(server);
    try {
      assert.deepEqual((await client.listResources()).map((r) => r.uri), ["test://1", "test://2"]);
      assert.deepEqual((await client.listResourceTemplates()).map((r) => r.uriTemplate), ["test://a/{x}", "test://b/{x}"]);
      assert.deepEqual((await client.listPrompts()).map((p) => p.name), ["p1", "p2"]);
    } finally {
      await client.close();
    }
  });

  test("a page without the list's array is a ProtocolError naming the page", async () => {
    const server = inProcessServer({ tools: {} }, { "tools/list": () => ({ tols: [] }) });
    const client = await connected(server);
    try {
      const error = await rejection(client.listTools());
      assert.ok(error instanceof ProtocolError);
      assert.match(error.message, /page 1 of the result has no "tools" array/);
    } finally {
      await client.close();
    }
  });
});

describe("callTool", () => {
  let server: InProcessServer;
  let client: Client;

  before(async () => {
    server = inProcessServer({ tools: {} }, {
      "tools/list": () => ({ tools: [tool("slow"), tool("fails"), tool("text")] }),
      "tools/call": async (params) => {
        const token = (params?._meta as Params | undefined)?.progressToken;
        switch (params?.name) {
          case "slow":
            await server.peer.notify("notifications/progress", { progressToken: token, progress: 1, total: 2, message: "half" });
            await server.peer.notify("notifications/progress", { progressToken: token, progress: 2, total: 2 });
            return { content: [{ type: "text", text: "done" }] };
          case "fails":
            return { content: [{ type: "text", text: "the tool could not do it" }], isError: true };
          case "text":
            return { content: [{ type: "text", text: `token ${typeof token}` }] };
          default:
            throw new RpcError(`Unknown tool: ${String(params?.name)}`, -32602, { data: { tool: params?.name } });
        }
      },
    });
    client = await connected(server);
    await client.listTools();
  });

  after(() => client.close());

  test("progress notifications for the call reach onProgress in order, and the result follows", async () => {
    const updates: Progress[] = [];
    const result = await client.callTool("slow", {}, { onProgress: (progress) => updates.push(progress) });
    assert.deepEqual(updates, [{ progress: 1, total: 2, message: "half" }, { progress: 2, total: 2 }]);
    assert.deepEqual(result.content, [{ type: "text", text: "done" }]);
  });

  test("every call carries _meta.progressToken, even without onProgress, and the arguments as given", async () => {
    await client.callTool("text", { a: 1, nested: { b: [true] } });
    const params = requestsFor(server, "tools/call").at(-1)!;
    assert.equal(params.name, "text");
    assert.deepEqual(params.arguments, { a: 1, nested: { b: [true] } });
    const token = (params._meta as Params | undefined)?.progressToken;
    assert.ok(typeof token === "number" || typeof token === "string");
  });

  test("a tool error (isError: true) is returned as a result, not thrown", async () => {
    const result = await client.callTool("fails");
    assert.equal(result.isError, true);
    assert.deepEqual(result.content, [{ type: "text", text: "the tool could not do it" }]);
  });

  test("a protocol error is thrown as RpcError with the server's code, message and data", async () => {
    const error = await rejection(client.callTool("no-such-tool"));
    assert.ok(error instanceof RpcError);
    assert.equal(error.rpcCode, -32602);
    assert.equal(error.message, "Unknown tool: no-such-tool");
    assert.deepEqual(error.data, { tool: "no-such-tool" });
    assert.equal(client.state, "ready");
  });

  test("a result whose content is not an array is a ProtocolError", async () => {
    server.peer.setRequestHandler("tools/call", () => ({ content: "just text" }));
    try {
      const error = await rejection(client.callTool("text"));
      assert.ok(error instanceof ProtocolError);
      assert.match(error.message, /tools\/call "text" returned "content" that is not an array/);
    } finally {
      server.peer.removeRequestHandler("tools/call");
    }
  });

  test("a server without the tools capability: listTools is [] without asking, callTool is a CapabilityError", async () => {
    const bare = inProcessServer({}, {});
    const other = await connected(bare);
    try {
      assert.deepEqual(await other.listTools(), []);
      const error = await rejection(other.callTool("anything"));
      assert.ok(error instanceof CapabilityError);
      assert.equal(error.capability, "tools");
      assert.deepEqual(requestsFor(bare, "tools/list"), []);
      assert.deepEqual(requestsFor(bare, "tools/call"), []);
    } finally {
      await other.close();
    }
  });
});

// --- output validation ---------------------------------------------------------------

const WEATHER_SCHEMA = {
  type: "object",
  properties: {
    temperature: { type: "number" },
    conditions: { type: "string" },
  },
  required: ["temperature", "conditions"],
  additionalProperties: false,
};
const PAIR_PREFIX_ITEMS = {
  type: "object",
  properties: { pair: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }] } },
};
const PAIR_ITEMS_ARRAY = {
  type: "object",
  properties: { pair: { type: "array", items: [{ type: "string" }, { type: "number" }] } },
};
const DRAFT_07 = "http://json-schema.org/draft-07/schema#";

/** Page 1 and page 2 of the listing; every tool returns `arguments.out` as structuredContent. */
const PAGE_1: Tool[] = [
  tool("weather", WEATHER_SCHEMA),
  tool("pair-2020-12", PAIR_PREFIX_ITEMS),
  tool("pair-draft-07", { $schema: DRAFT_07, ...PAIR_PREFIX_ITEMS }),
  tool("tuple-draft-07", { $schema: DRAFT_07, ...PAIR_ITEMS_ARRAY }),
  tool("tuple-2020-12", PAIR_ITEMS_ARRAY), // items as an array is not 2020-12: does not compile
  tool("broken", { type: "object", properties: { n: { type: "no-such-type" } } }),
  tool("unknown-dialect", { $schema: "https://example.com/my-own-dialect", type: "object" }),
  tool("untyped"),
];
const PAGE_2: Tool[] = [
  tool("late", { type: "object", properties: { n: { type: "integer" } }, required: ["n"] }),
  tool("with-id", {
    $id: "https://example.com/schemas/with-id",
    type: "object",
    properties: { n: { type: "number" }, child: { $ref: "#" } },
    required: ["n"],
  }),
  tool("draft-07-https", {
    $schema: "https://json-schema.org/draft-07/schema",
    type: "object",
    properties: { n: { type: "number" } },
    required: ["n"],
  }),
  tool("defs-2020-12", {
    type: "object",
    properties: { n: { $ref: "#/$defs/count" } },
    $defs: { count: { type: "integer", minimum: 0 } },
  }),
  tool("definitions-draft-07", {
    $schema: DRAFT_07,
    type: "object",
    properties: { n: { $ref: "#/definitions/count" } },
    definitions: { count: { type: "integer", minimum: 0 } },
  }),
];

// Both validators (schema-validator.ts) pass the same tests, with the same messages.
for (const jsonSchema of JSON_SCHEMA_VALIDATORS) {
  describe(`output validation against the listed outputSchema (${jsonSchema})`, () => {
    let server: InProcessServer;
    let client: Client;
    const problems: string[] = [];

    before(async () => {
      server = inProcessServer({ tools: {} }, {
        // Each listing is a fresh copy, as it would be off the wire.
        "tools/list": (params) => params?.cursor === "2" ? { tools: structuredClone(PAGE_2) } : { tools: structuredClone(PAGE_1), nextCursor: "2" },
        "tools/call": (params) => {
          const args = (params?.arguments ?? {}) as Params;
          const result: Params = { content: [{ type: "text", text: JSON.stringify(args.out ?? null) }] };
          if ("out" in args) result.structuredContent = args.out;
          if (args.isError === true) result.isError = true;
          return result;
        },
      });
      client = await connected(server, { jsonSchema });
      client.on("problem", ({ message }) => problems.push(message));
      await client.listTools();
    });

    after(() => client.close());

    async function validationError(name: string, out: unknown): Promise<OutputValidationError> {
      const error = await rejection(client.callTool(name, { out }));
      assert.ok(error instanceof OutputValidationError, `got ${error.name}: ${error.message}`);
      return error;
    }

    test("a result that matches passes, with structuredContent exactly as the server sent it", async () => {
      const out = { temperature: 21.5, conditions: "sunny" };
      const result = await client.callTool("weather", { out });
      assert.deepEqual(result.structuredContent, out);
    });

    test("a mismatch throws OutputValidationError naming the tool and the failing path", async () => {
      const error = await validationError("weather", { temperature: "warm", conditions: "sunny" });
      assert.equal(error.tool, "weather");
      assert.equal(error.path, "/temperature");
      assert.match(error.message, /server "in-process": tool "weather" returned structuredContent that does not match/);
      assert.match(error.message, /\/temperature must be number/);
    });

    test("every failure is listed: a missing property and an extra one", async () => {
      const error = await validationError("weather", { temperature: 1, wind: "strong" });
      const messages = error.errors.map((failure) => failure.message).join("\n");
      assert.match(messages, /must have required property 'conditions'/);
      assert.match(messages, /must NOT have additional properties \(wind\)/);
    });

    test("a tool with an outputSchema that returns no structuredContent is an OutputValidationError", async () => {
      const error = await rejection(client.callTool("weather", {}));
      assert.ok(error instanceof OutputValidationError);
      assert.equal(error.tool, "weather");
      assert.match(error.message, /declares an outputSchema but returned no structuredContent/);
    });

    test("an isError result is not validated", async () => {
      const result = await client.callTool("weather", { out: { temperature: "n/a" }, isError: true });
      assert.equal(result.isError, true);
      assert.deepEqual(result.structuredContent, { temperature: "n/a" });
    });

    test("a tool without an outputSchema passes any structuredContent", async () => {
      const result = await client.callTool("untyped", { out: { anything: [1, "two"] } });
      assert.deepEqual(result.structuredContent, { anything: [1, "two"] });
    });

    test("2020-12 is the default dialect: prefixItems checks each position of an array", async () => {
      await client.callTool("pair-2020-12", { out: { pair: ["a", 1] } });
      const error = await validationError("pair-2020-12", { pair: ["a", "b"] });
      assert.equal(error.path, "/pair/1");
    });

    test("$schema draft-07 selects draft-07: prefixItems means nothing there, and items as an array is a tuple", async () => {
      // The same schema and value as above: under draft-07 prefixItems is an unknown keyword.
      const result = await client.callTool("pair-draft-07", { out: { pair: ["a", "b"] } });
      assert.deepEqual(result.structuredContent, { pair: ["a", "b"] });
      await client.callTool("tuple-draft-07", { out: { pair: ["a", 1] } });
      const error = await validationError("tuple-draft-07", { pair: ["a", "b"] });
      assert.equal(error.path, "/pair/1");
    });

    test("$ref into $defs (2020-12) and into definitions (draft-07) both resolve", async () => {
      await client.callTool("defs-2020-12", { out: { n: 3 } });
      assert.equal((await validationError("defs-2020-12", { n: -1 })).path, "/n");
      await client.callTool("definitions-draft-07", { out: { n: 3 } });
      assert.equal((await validationError("definitions-draft-07", { n: 1.5 })).path, "/n");
    });

    test("a tool listed on page 2 is validated too", async () => {
      await client.callTool("late", { out: { n: 7 } });
      const error = await validationError("late", { n: 7.5 });
      assert.equal(error.tool, "late");
      assert.equal(error.path, "/n");
    });

    test("a draft-07 $schema spelled with https still compiles and validates", async () => {
      await client.callTool("draft-07-https", { out: { n: 1 } });
      assert.equal((await validationError("draft-07-https", { n: "one" })).path, "/n");
      assert.ok(!problems.some((message) => message.includes("draft-07-https")), problems.join("\n"));
    });

    test("a schema that does not compile is reported once as a problem, and its results pass", async () => {
      const before = problems.length;
      for (let i = 0; i < 3; i++) {
        const result = await client.callTool("broken", { out: { n: "whatever" } });
        assert.deepEqual(result.structuredContent, { n: "whatever" });
      }
      // items as an array is not 2020-12 (it is prefixItems there): the schema is invalid.
      await client.callTool("tuple-2020-12", { out: { pair: ["a", "b"] } });
      await client.callTool("unknown-dialect", { out: { x: 1 } });
      const reported = problems.slice(before);
      assert.equal(reported.length, 3, reported.join("\n"));
      assert.match(reported[0]!, /server "in-process": tool "broken": outputSchema does not compile \(.+\); its results are not validated/);
      assert.match(reported[1]!, /tool "tuple-2020-12": outputSchema does not compile/);
      assert.match(reported[2]!, /tool "unknown-dialect": outputSchema has an unknown \$schema "https:\/\/example.com\/my-own-dialect"/);
    });

    test("listing the tools again keeps validating, without reporting a broken schema a second time", async () => {
      const before = problems.length;
      await client.listTools();
      // A schema with $id, compiled before, compiles again from the new listing.
      await client.callTool("with-id", { out: { n: 1, child: { n: 2 } } });
      const error = await validationError("with-id", { n: 1, child: { n: "two" } });
      assert.equal(error.path, "/child/n");
      await client.listTools();
      assert.equal((await validationError("with-id", { n: "one" })).path, "/n");
      assert.equal((await validationError("weather", { temperature: "hot", conditions: "" })).path, "/temperature");
      await client.callTool("broken", { out: {} });
      assert.deepEqual(problems.slice(before), []);
    });

    test("outputSchemas are passed through unchanged, before and after validation", async () => {
      const listed = await client.listTools();
      assert.deepEqual(listed, [...PAGE_1, ...PAGE_2]);
      await client.callTool("weather", { out: { temperature: 1, conditions: "fog" } });
      await client.callTool("draft-07-https", { out: { n: 1 } });
      await client.callTool("with-id", { out: { n: 1 } });
      assert.deepEqual(listed, [...PAGE_1, ...PAGE_2]);
      assert.deepEqual(client.knownTools.get("pair-draft-07")?.outputSchema, { $schema: DRAFT_07, ...PAIR_PREFIX_ITEMS });
    });

    test("a schema that changes between listings is compiled afresh, even under the same $id", async () => {
      const changed = inProcessServer({ tools: {} }, {
        "tools/list": () => ({
          tools: [tool("shape", { $id: "https://example.com/schemas/shape", type: "object", required: [version === 1 ? "a" : "b"] })],
        }),
        "tools/call": (params) => ({ content: [], structuredContent: (params?.arguments as Params).out }),
      });
      let version = 1;
      const other = await connected(changed, { jsonSchema });
      const problems: string[] = [];
      other.on("problem", ({ message }) => problems.push(message));
      try {
        await other.listTools();
        await other.callTool("shape", { out: { a: 1 } });
        version = 2;
        await other.listTools();
        const error = await rejection(other.callTool("shape", { out: { a: 1 } }));
        assert.ok(error instanceof OutputValidationError, `got ${error.name}: ${error.message}`);
        assert.match(error.message, /must have required property 'b'/);
        assert.deepEqual(problems, []);
      } finally {
        await other.close();
      }
    });

    test("a call made before listTools has no listed schema, so it is not validated", async () => {
      const fresh = new Client(CLIENT_INFO, { jsonSchema });
      const unlisted = inProcessServer({ tools: {} }, {
        "tools/call": () => ({ content: [], structuredContent: { temperature: "not a number" } }),
      });
      await fresh.connect(unlisted.clientEnd);
      try {
        const result = await fresh.callTool("weather");
        assert.deepEqual(result.structuredContent, { temperature: "not a number" });
      } finally {
        await fresh.close();
      }
    });
  });
}

describe("structuredContent that is not a JSON object", () => {
  // spec 2025-11-25 server/tools ("Structured Content"): a JSON object; spec 2026-07-28
  // server/tools: any JSON value. A value the negotiated version does not allow is a protocol
  // problem the client survives: the result is returned as it is, its text unchanged.
  async function fixtureClient(modern: boolean): Promise<{ client: Client; problems: string[] }> {
    const client = new Client(CLIENT_INFO, { name: "sc", requestTimeoutMs: 10_000, protocol: modern ? "modern" : "legacy" });
    const problems: string[] = [];
    client.on("problem", ({ message }) => problems.push(message));
    const args = [fixturePath("structured-content-server.mjs"), ...(modern ? ["--modern"] : [])];
    await client.connect(new StdioTransport({ command: "node", args }));
    await client.listTools();
    return { client, problems };
  }

  test("2025-11-25: an array, a string, a number or null is reported as a problem naming the tool and the kind; the result stands", async () => {
    const { client, problems } = await fixtureClient(false);
    try {
      assert.equal(client.protocolVersion, "2025-11-25");
      const expected: Record<string, [unknown, string, string]> = {
        array: [[{ name: "Alice" }, { name: "Bob" }], "2 users: Alice and Bob", "an array"],
        string: ["plain", "the answer is plain", "a string"],
        number: [42, "forty-two", "a number"],
        null: [null, "nothing", "null"],
      };
      for (const [name, [structured, text, kind]] of Object.entries(expected)) {
        problems.length = 0;
        const result = await client.callTool(name);
        assert.deepEqual(result.content, [{ type: "text", text }], name);
        assert.deepEqual(result.structuredContent, structured, name);
        assert.equal(problems.length, 1, `${name}: ${problems.join("; ")}`);
        assert.match(
          problems[0]!,
          new RegExp(
            `^server "sc": tools/call "${name}" returned structuredContent that is not a JSON object \\(${kind}\\), which protocol 2025-11-25 requires`,
          ),
        );
      }
      problems.length = 0;
      await client.callTool("words");
      assert.deepEqual(problems, [], "an object is not reported");
    } finally {
      await client.close();
    }
  });

  test("2025-11-25 with an outputSchema: the schema decides, as for any mismatch (OutputValidationError), and no second report", async () => {
    const { client, problems } = await fixtureClient(false);
    try {
      const error = await rejection(client.callTool("typed-array"));
      assert.ok(error instanceof OutputValidationError, `got ${error.name}: ${error.message}`);
      assert.match(error.message, /tool "typed-array" returned structuredContent that does not match its outputSchema/);
      assert.deepEqual(problems, []);
    } finally {
      await client.close();
    }
  });

  test("2026-07-28: any JSON value is allowed, nothing is reported", async () => {
    const { client, problems } = await fixtureClient(true);
    try {
      assert.equal(client.era, "modern");
      for (const name of ["array", "string", "number", "null"]) {
        const result = await client.callTool(name);
        assert.notEqual(result.structuredContent, undefined, name);
      }
      assert.deepEqual(problems, []);
    } finally {
      await client.close();
    }
  });
});
