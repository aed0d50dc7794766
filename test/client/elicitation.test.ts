// Elicitation from the client's side — spec 2025-11-25 client/elicitation: capabilities
// follow the handlers, the restricted form is enforced, SEP-1034 defaults fill omitted
// fields, answers are validated before they are sent, URL mode and -32042.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { UrlElicitationRequiredError } from "../../src/client/elicitation.ts";
import type { UrlElicitationRequest } from "../../src/client/handlers.ts";
import { JSON_SCHEMA_VALIDATORS } from "../../src/client/schema/json-schema.ts";
import { Client, type ElicitFormRequest, RpcError, tasksExtension } from "../../src/mod.ts";
import { coreCapabilities } from "../support/capabilities.ts";
import { everythingClient, untilListed } from "../support/everything.ts";
import { textOf } from "../support/everything-http.ts";
import { type InProcessServer as TestServer, inProcessServer } from "../support/in-process-server.ts";
import { rpcRejection } from "../support/rejection.ts";

const CLIENT_INFO = { name: "mcpwire-tests", version: "1.0.0" };

const testServer = () => inProcessServer({ tools: {} }, {});

const FLAT_SCHEMA = {
  type: "object",
  properties: {
    name: { type: "string", default: "John Doe" },
    age: { type: "integer", minimum: 0, default: 30 },
    score: { type: "number", default: 95.5 },
    status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
    verified: { type: "boolean", default: true },
    email: { type: "string", format: "email" },
    hero: { type: "string", oneOf: [{ const: "h1", title: "Superman" }, { const: "h2", title: "Batman" }] },
    pets: { type: "string", enum: ["p1", "p2"], enumNames: ["Cats", "Dogs"] },
    tags: { type: "array", items: { type: "string", enum: ["a", "b"] }, default: ["a"] },
    fish: { type: "array", items: { anyOf: [{ const: "f1", title: "Tuna" }] } },
  },
  required: ["name"],
};

describe("declared capabilities follow the handlers", () => {
  test("a form handler declares elicitation.form only; a url handler adds elicitation.url", async () => {
    const formOnly = new Client(CLIENT_INFO, { handlers: { elicitation: { form: async () => ({ action: "decline" }) } } });
    assert.deepEqual(coreCapabilities(formOnly.capabilities), { elicitation: { form: {} } });
    // With the tasks extension the client also runs the request as a task (spec 2025-11-25 basic/utilities/tasks).
    const tasks = { list: {}, cancel: {}, requests: { elicitation: { create: {} } } };
    const both = new Client(CLIENT_INFO, {
      handlers: { elicitation: { form: async () => ({ action: "decline" }), url: async () => ({ action: "decline" }) } },
      use: [tasksExtension],
    });
    assert.deepEqual(coreCapabilities(both.capabilities), { elicitation: { form: {}, url: {} }, tasks });

    const server = testServer();
    await both.connect(server.clientEnd);
    try {
      assert.deepEqual(coreCapabilities(server.initializeParams()?.capabilities), { elicitation: { form: {}, url: {} }, tasks });
    } finally {
      await both.close();
    }
  });

  test("no handlers declare nothing; declaring elicitation or sampling without its handler throws at construction", () => {
    assert.deepEqual(coreCapabilities(new Client(CLIENT_INFO).capabilities), {});
    assert.throws(() => new Client(CLIENT_INFO, { capabilities: { elicitation: {} } }), /elicitation\.form.*handlers\.elicitation\.form/);
    assert.throws(
      () => new Client(CLIENT_INFO, { capabilities: { elicitation: { url: {} } }, handlers: { elicitation: { form: async () => ({ action: "cancel" }) } } }),
      /elicitation\.url/,
    );
    assert.throws(() => new Client(CLIENT_INFO, { capabilities: { sampling: {} } }), /sampling.*handlers\.sampling/);
  });

  test("an undeclared mode gets -32602 and no handler runs", async () => {
    const server = testServer();
    let calls = 0;
    const client = new Client(CLIENT_INFO, { handlers: { elicitation: { form: async () => (calls++, { action: "cancel" }) } } });
    await client.connect(server.clientEnd);
    try {
      const error = await rpcRejection(server.peer.request("elicitation/create", {
        mode: "url",
        message: "open it",
        url: "https://example.com/x",
        elicitationId: "e1",
      }));
      assert.equal(error.rpcCode, -32602);
      assert.match(error.message, /did not declare url-mode elicitation/);
      const none = new Client(CLIENT_INFO);
      const other = testServer();
      await none.connect(other.clientEnd);
      const noForm = await rpcRejection(other.peer.request("elicitation/create", { message: "hi", requestedSchema: { type: "object", properties: {} } }));
      assert.equal(noForm.rpcCode, -32602);
      await none.close();
      assert.equal(calls, 0);
    } finally {
      await client.close();
    }
  });
});

// Both validators (schema-validator.ts) check answers alike, formats included.
for (const jsonSchema of JSON_SCHEMA_VALIDATORS) {
  describe(`form mode against an in-process server (${jsonSchema})`, () => {
    let server: TestServer;
    let client: Client;
    let answer: (
      request: ElicitFormRequest,
    ) => Promise<{ action: "accept" | "decline" | "cancel"; content?: Record<string, string | number | boolean | string[]> }>;
    let calls = 0;
    const problems: string[] = [];

    before(async () => {
      server = testServer();
      client = new Client(CLIENT_INFO, {
        name: "in-process",
        jsonSchema,
        handlers: { elicitation: { form: (request) => (calls++, answer(request)) } },
      });
      client.on("problem", ({ message }) => problems.push(message));
      await client.connect(server.clientEnd);
    });
    after(() => client.close());

    test("SEP-1034: an accept with no content gets every default filled in", async () => {
      answer = async () => ({ action: "accept", content: { name: "Ada" } });
      const result = await server.peer.request("elicitation/create", { message: "defaults please", requestedSchema: FLAT_SCHEMA });
      assert.deepEqual(result, {
        action: "accept",
        content: { name: "Ada", age: 30, score: 95.5, status: "active", verified: true, tags: ["a"] },
      });
    });

    test("the handler sees mode form, the message and the schema, and the server's name", async () => {
      let seen: ElicitFormRequest | undefined;
      answer = async (request) => (seen = request, { action: "decline" });
      const result = await server.peer.request("elicitation/create", { message: "who are you?", requestedSchema: FLAT_SCHEMA });
      assert.deepEqual(result, { action: "decline" });
      assert.equal(seen?.mode, "form");
      assert.equal(seen?.message, "who are you?");
      assert.deepEqual(seen?.requestedSchema, FLAT_SCHEMA);
    });

    test("a nested object schema is refused with -32602 naming the property; the handler is never called", async () => {
      const before = calls;
      const error = await rpcRejection(server.peer.request("elicitation/create", {
        message: "nested",
        requestedSchema: { type: "object", properties: { address: { type: "object", properties: { city: { type: "string" } } } } },
      }));
      assert.equal(error.rpcCode, -32602);
      assert.match(error.message, /server "in-process": elicitation\/create: .*property "address" is a nested object/);
      const arrayOfObjects = await rpcRejection(server.peer.request("elicitation/create", {
        message: "array",
        requestedSchema: { type: "object", properties: { list: { type: "array", items: { type: "object" } } } },
      }));
      assert.equal(arrayOfObjects.rpcCode, -32602);
      assert.equal(calls, before);
    });

    test("an answer that fails the schema is not sent: the server gets an error and a problem is reported", async () => {
      answer = async () => ({ action: "accept", content: { name: "Ada", age: -3, email: "not-an-email", status: "gone" } });
      const error = await rpcRejection(server.peer.request("elicitation/create", { message: "bad", requestedSchema: FLAT_SCHEMA }));
      assert.equal(error.rpcCode, -32603);
      assert.match(error.message, /does not match the requestedSchema/);
      assert.match(error.message, /"age"/);
      assert.match(error.message, /"email"/);
      assert.match(error.message, /"status"/);
      assert.ok(problems.some((problem) => problem.includes("was not sent")));
    });

    test("a missing required field and a field the schema does not ask for both fail validation", async () => {
      answer = async () => ({ action: "accept", content: { extra: "x" } });
      const error = await rpcRejection(server.peer.request("elicitation/create", {
        message: "req",
        requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      }));
      assert.match(error.message, /must have required property 'name'/);
      assert.match(error.message, /"extra", which the schema does not ask for/);
    });

    test("decline and cancel are passed on without content", async () => {
      answer = async () => ({ action: "cancel", content: { name: "ignored" } });
      assert.deepEqual(await server.peer.request("elicitation/create", { message: "m", requestedSchema: FLAT_SCHEMA }), { action: "cancel" });
    });
  });
}

describe("URL mode against an in-process server", () => {
  test("the handler gets the full URL and its host; elicitation/complete for a known id is an event, unknown ids are ignored", async () => {
    const server = testServer();
    const seen: UrlElicitationRequest[] = [];
    const client = new Client(CLIENT_INFO, {
      handlers: { elicitation: { url: async (request) => (seen.push(request), { action: "accept", content: { no: "content" } }) } },
    });
    await client.connect(server.clientEnd);
    try {
      const completions: string[] = [];
      client.on("elicitationcomplete", ({ elicitationId }) => completions.push(elicitationId));
      const result = await server.peer.request("elicitation/create", {
        mode: "url",
        message: "Connect your account",
        url: "https://auth.example.com:8443/connect?x=1",
        elicitationId: "el-1",
      });
      assert.deepEqual(result, { action: "accept" });
      assert.deepEqual(seen, [{
        url: "https://auth.example.com:8443/connect?x=1",
        host: "auth.example.com:8443",
        message: "Connect your account",
        elicitationId: "el-1",
      }]);
      await server.peer.notify("notifications/elicitation/complete", { elicitationId: "unknown" });
      await server.peer.notify("notifications/elicitation/complete", { elicitationId: "el-1" });
      await server.peer.notify("notifications/elicitation/complete", { elicitationId: "el-1" }); // already completed
      await client.ping();
      assert.deepEqual(completions, ["el-1"]);
      const bad = await rpcRejection(server.peer.request("elicitation/create", { mode: "url", message: "m", url: "not a url", elicitationId: "e2" }));
      assert.equal(bad.rpcCode, -32602);
    } finally {
      await client.close();
    }
  });

  test("-32042 from a tool call surfaces as UrlElicitationRequiredError with its elicitations", async () => {
    const server = testServer();
    const elicitation = { mode: "url", message: "Authorize", url: "https://example.com/auth", elicitationId: "pre-1" };
    server.peer.setRequestHandler("tools/call", () => {
      throw new RpcError("This request requires browser-based authorization.", -32042, { data: { elicitations: [elicitation] } });
    });
    const client = new Client(CLIENT_INFO, { name: "auth", handlers: { elicitation: { url: async () => ({ action: "decline" }) } } });
    await client.connect(server.clientEnd);
    try {
      const error = await rpcRejection(client.callTool("needs-auth"));
      assert.ok(error instanceof UrlElicitationRequiredError);
      assert.equal(error.rpcCode, -32042);
      assert.deepEqual(error.elicitations, [elicitation]);
      assert.match(error.message, /server "auth": tools\/call needs the user to complete 1 URL elicitation\(s\) first \(https:\/\/example.com\/auth\)/);
      const completed = new Promise((resolve) => client.on("elicitationcomplete", resolve));
      await server.peer.notify("notifications/elicitation/complete", { elicitationId: "pre-1" });
      assert.deepEqual(await completed, { elicitationId: "pre-1" });
    } finally {
      await client.close();
    }
  });
});

describe("server-everything over stdio", () => {
  const asked: ElicitFormRequest[] = [];
  const urls: UrlElicitationRequest[] = [];
  const client = everythingClient({
    handlers: {
      elicitation: {
        // Deterministic: answer only the required field; defaults fill the rest (SEP-1034).
        form: async (request) => (asked.push(request), { action: "accept", content: { name: "Ada Lovelace" } }),
        url: async (request) => (urls.push(request), { action: "accept" }),
      },
    },
  });

  test("trigger-elicitation-request: the schema passes the restricted form and the server receives the answer with defaults", async () => {
    await untilListed(client, "trigger-elicitation-request");
    const result = await client.callTool("trigger-elicitation-request");
    assert.equal(asked.length, 1);
    const text = textOf(result.content);
    assert.match(text, /User provided the requested information/);
    assert.match(text, /- Name: Ada Lovelace/);
    assert.match(text, /- Favorite Integer: 42/);
    assert.match(text, /"firstLine": "It was a dark and stormy night."/);
    assert.match(text, /"titledSingleSelectEnum": "hero-1"/);
  });

  test("trigger-url-elicitation: the handler gets the URL; with errorPath the call fails with -32042 and its elicitations", async () => {
    await untilListed(client, "trigger-url-elicitation");
    const result = await client.callTool("trigger-url-elicitation", { url: "https://example.com/flow", elicitationId: "fixed-id" });
    assert.match(textOf(result.content), /User completed the URL elicitation flow/);
    assert.deepEqual(urls.at(-1), {
      url: "https://example.com/flow",
      host: "example.com",
      message: "Please open the link to complete this action.",
      elicitationId: "fixed-id",
    });
    const error = await rpcRejection(client.callTool("trigger-url-elicitation", { url: "https://example.com/other", errorPath: true }));
    assert.ok(error instanceof UrlElicitationRequiredError);
    assert.equal(error.elicitations.length, 1);
    assert.equal(error.elicitations[0]?.url, "https://modelcontextprotocol.io");
  });
});
