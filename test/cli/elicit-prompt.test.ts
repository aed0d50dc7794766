// The CLI's elicitation prompt as a unit, with its lines given by the test: what it shows,
// how it parses each kind of field, and how decline / cancel / confirm end it.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { acceptDefaults, cliElicitationHandlers, promptForm, promptUrl } from "../../src/cli/elicit-prompt.ts";
import type { ElicitFormRequest } from "../../src/client/types.ts";

const REQUEST: ElicitFormRequest = {
  mode: "form",
  message: "Set up the deploy",
  requestedSchema: {
    type: "object",
    properties: {
      target: { type: "string", title: "Target", oneOf: [{ const: "stg", title: "Staging" }, { const: "prd", title: "Production" }], default: "stg" },
      replicas: { type: "integer", minimum: 1, maximum: 5 },
      regions: { type: "array", items: { type: "string", enum: ["eu", "us", "ap"] } },
      dryRun: { type: "boolean", default: true },
      note: { type: "string" },
    },
    required: ["replicas"],
  },
};

function io(lines: string[]) {
  const written: string[] = [];
  return {
    written,
    io: { lines: { readLine: () => Promise.resolve(lines.shift()) }, write: (text: string) => void written.push(text), echo: true },
  };
}

describe("promptForm", () => {
  test("names the server, lists choices with the default, re-asks a bad value, and accepts what was typed", async () => {
    const { written, io: prompt } = io(["", "x", "0", "2", "us, eu", "n", "", "y"]);
    const result = await promptForm(REQUEST, 'server "deployer"', prompt);
    assert.deepEqual(result, { action: "accept", content: { replicas: 2, regions: ["us", "eu"], dryRun: false } });
    const text = written.join("");
    assert.match(text, /server "deployer" asks: Set up the deploy/);
    assert.match(text, /target number \[Staging\]: /);
    assert.match(text, / {2}2\) Production \(prd\)/);
    assert.match(text, /replicas \[required\]/);
    assert.match(text, /"x" is not a number/);
    assert.match(text, /"replicas" must be >= 1/);
    assert.match(text, /send these answers to server "deployer"\?/);
  });

  test("an empty required field is asked again; :cancel ends the form with cancel", async () => {
    const { written, io: prompt } = io(["", "", ":cancel"]);
    assert.deepEqual(await promptForm(REQUEST, 'server "d"', prompt), { action: "cancel" });
    assert.match(written.join(""), /"replicas" is required/);
  });

  test(":decline declines; n at the confirmation declines; end of input cancels", async () => {
    assert.deepEqual(await promptForm(REQUEST, 'server "d"', io([":decline"]).io), { action: "decline" });
    assert.deepEqual(await promptForm(REQUEST, 'server "d"', io(["", "3", "", "", "", "n"]).io), { action: "decline" });
    assert.deepEqual(await promptForm(REQUEST, 'server "d"', io(["prd"]).io), { action: "cancel" });
  });
});

describe("the non-interactive modes", () => {
  test("accept-defaults accepts with no content when every required field has a default, else declines naming them", () => {
    const withDefault = { ...REQUEST, requestedSchema: { ...REQUEST.requestedSchema, required: ["target"] } };
    assert.deepEqual(acceptDefaults(withDefault, 'server "d"').result, { action: "accept", content: {} });
    const missing = acceptDefaults(REQUEST, 'server "d"');
    assert.deepEqual(missing.result, { action: "decline" });
    assert.match(missing.note, /required field\(s\) "replicas", which have no default/);
  });

  test("decline mode declines at once and says why", async () => {
    const notes: string[] = [];
    const handlers = cliElicitationHandlers("decline", io([]).io, (text) => notes.push(text), "stdin is not a terminal");
    const context = { server: 'server "d"', signal: new AbortController().signal, requestId: 1 };
    assert.deepEqual(await handlers.form!(REQUEST, context), { action: "decline" });
    assert.deepEqual(notes, ['server "d" asked for input ("Set up the deploy"); declined: stdin is not a terminal']);
  });
});

describe("promptUrl", () => {
  const request = { url: "https://auth.example.com/start?id=7", host: "auth.example.com", message: "Sign in", elicitationId: "e1" };

  test("shows the server, the full URL and its host; y accepts, n declines, end of input cancels", async () => {
    const { written, io: prompt } = io(["y"]);
    assert.deepEqual(await promptUrl(request, 'server "auth"', prompt), { action: "accept" });
    const text = written.join("");
    assert.match(text, /server "auth" asks you to open a link: Sign in/);
    assert.match(text, /https:\/\/auth\.example\.com\/start\?id=7/);
    assert.match(text, /host auth\.example\.com; mcpwire does not open or fetch it/);
    assert.deepEqual(await promptUrl(request, 'server "auth"', io(["n"]).io), { action: "decline" });
    assert.deepEqual(await promptUrl(request, 'server "auth"', io([]).io), { action: "cancel" });
  });

  test("accept-defaults never consents to a link", async () => {
    const notes: string[] = [];
    const handlers = cliElicitationHandlers("accept-defaults", io([]).io, (text) => notes.push(text));
    const context = { server: 'server "auth"', signal: new AbortController().signal, requestId: 2 };
    assert.deepEqual(await handlers.url!(request, context), { action: "decline" });
    assert.match(notes[0], /a link needs the user's consent/);
  });
});
