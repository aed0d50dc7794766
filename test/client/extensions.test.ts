// Extension negotiation — spec 2026-07-28 basic/versioning ("Extension Negotiation").
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { appsExtension } from "../../src/client/apps/apps-extension.ts";
import { Client } from "../../src/client/client.ts";
import {
  declaredExtensions,
  defaultExtensions,
  EXTENSIONS,
  negotiatedExtension,
  serverExtensions,
  withExtensions,
} from "../../src/client/extension-negotiation.ts";
import { skillsExtension } from "../../src/client/skills/skills-extension.ts";
import { tasksExtension } from "../../src/client/tasks/tasks-extension.ts";

describe("extension negotiation", () => {
  it("declares settings objects as given and drops those turned off", () => {
    const declared = declaredExtensions({ "com.example/thing": { level: 2 }, "com.example/off": false }, { "com.example/off": {} });
    assert.deepEqual(declared["com.example/thing"], { level: 2 });
    assert.equal(declared["com.example/off"], undefined);
  });

  it("refuses an identifier without a prefix, and true for an extension it does not implement", () => {
    assert.throws(() => declaredExtensions({ tasks: {} }), /not an extension identifier/);
    assert.throws(() => declaredExtensions({ "com.example/x": true }), /no default settings/);
  });

  it("puts the map in the capabilities only when it has entries", () => {
    assert.equal(withExtensions({ roots: {} }, {}).extensions, undefined);
    assert.deepEqual(withExtensions({}, { [EXTENSIONS.apps]: {} }).extensions, { [EXTENSIONS.apps]: {} });
  });

  it("reads the server's map, dropping settings that are not objects", () => {
    assert.deepEqual(serverExtensions({ extensions: { "a.b/c": {}, "a.b/d": 3 as unknown as Record<string, unknown> } }), { "a.b/c": {} });
    assert.deepEqual(serverExtensions({ extensions: "x" as unknown as Record<string, Record<string, unknown>> }), {});
    assert.deepEqual(serverExtensions(undefined), {});
  });

  it("is in force only when both sides declared it", () => {
    const server = { extensions: { "a.b/c": { x: 1 } } };
    assert.deepEqual(negotiatedExtension({ "a.b/c": {} }, server, "a.b/c"), { x: 1 });
    assert.equal(negotiatedExtension({}, server, "a.b/c"), undefined);
    assert.equal(negotiatedExtension({ "a.b/c": {} }, {}, "a.b/c"), undefined);
  });

  it("declares the extensions it was given, each one off-switchable; none by default", () => {
    const given = [tasksExtension, skillsExtension, appsExtension];
    assert.deepEqual(defaultExtensions(), []);
    assert.deepEqual(declaredExtensions(undefined), {});
    for (const id of [EXTENSIONS.tasks, EXTENSIONS.skills, EXTENSIONS.apps]) {
      assert.ok(defaultExtensions(given).includes(id), id);
      assert.ok(declaredExtensions(undefined, undefined, given)[id] !== undefined, id);
      assert.equal(declaredExtensions({ [id]: false }, undefined, given)[id], undefined, id);
    }
    assert.deepEqual(declaredExtensions(undefined, undefined, [tasksExtension])[EXTENSIONS.tasks], {});
    assert.throws(() => declaredExtensions({ [EXTENSIONS.tasks]: true }), /needs its code in this client; pass use: \[tasksExtension\]/);
    assert.throws(() => declaredExtensions({ [EXTENSIONS.apps]: true }), /pass use: \[appsExtension\]/);
    assert.deepEqual(declaredExtensions(undefined, undefined, [appsExtension])[EXTENSIONS.apps], { mimeTypes: ["text/html;profile=mcp-app"] });
  });

  it("a Client declares its extensions in its capabilities", () => {
    const client = new Client({ name: "t", version: "1" }, { extensions: { "com.example/thing": {} } });
    assert.deepEqual(client.capabilities.extensions?.["com.example/thing"], {});
    assert.equal(client.extension("com.example/thing"), undefined);
  });
});
