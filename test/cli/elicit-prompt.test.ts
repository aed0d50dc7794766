// The CLI's elicitation prompt as a unit, with its lines given by the test: what it shows,
// how it parses each kind of field, and how decline / cancel / confirm end it.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { acceptDefaults, checkLink, cliElicitationHandlers, promptForm, promptUrl } from "../../src/cli/interactive/elicit-prompt.ts";
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

  test("shows the server, the full URL and its origin; y accepts, n declines, end of input cancels", async () => {
    const { written, io: prompt } = io(["y"]);
    assert.deepEqual(await promptUrl(request, 'server "auth"', prompt), { action: "accept" });
    const text = written.join("");
    assert.match(text, /server "auth" asks you to open a link: Sign in/);
    assert.match(text, /https:\/\/auth\.example\.com\/start\?id=7/);
    assert.match(text, /origin https:\/\/auth\.example\.com; mcpwire does not open or fetch it/);
    assert.deepEqual(await promptUrl(request, 'server "auth"', io(["n"]).io), { action: "decline" });
    assert.deepEqual(await promptUrl(request, 'server "auth"', io([]).io), { action: "cancel" });
  });

  test("accept-defaults never consents to a link", async () => {
    const notes: string[] = [];
    const handlers = cliElicitationHandlers("accept-defaults", io([]).io, (text) => notes.push(text));
    const context = { server: 'server "auth"', signal: new AbortController().signal, requestId: 2 };
    assert.deepEqual(await handlers.url!(request, context), { action: "decline" });
    assert.match(notes[0]!, /a link needs the user's consent/);
  });
});

describe("URL-mode links are checked before the user is asked", () => {
  test("https: anywhere and http: to this machine are offered, with their normalized URL and origin", () => {
    assert.deepEqual(checkLink("https://auth.example.com/start?id=7"), {
      ok: true,
      href: "https://auth.example.com/start?id=7",
      origin: "https://auth.example.com",
    });
    for (const url of ["http://localhost:8080/cb", "http://127.0.0.1/cb", "http://127.45.6.7:9/", "http://[::1]:3000/x", "http://2130706433/"]) {
      assert.equal(checkLink(url).ok, true, url);
    }
    // A look-alike host is shown in punycode, as the browser will resolve it.
    const lookAlike = checkLink("https://\u0440aypal.com/login");
    assert.ok(lookAlike.ok && lookAlike.origin === "https://xn--aypal-uye.com", JSON.stringify(lookAlike));
  });

  test("javascript:, file:, data:, plain http: elsewhere, user@host and text that is no URL are refused, each saying why", () => {
    const cases: [string, RegExp][] = [
      ["javascript:alert(1)", /"javascript:" URL, not a web page; only https:/],
      ["file:///etc/passwd", /"file:" URL, not a web page/],
      ["data:text/html,<script>alert(1)</script>", /"data:" URL, not a web page/],
      ["http://evil.example/login", /plain http: to evil\.example, which anyone on the way can read and change/],
      ["http://127.0.0.1.evil.example/", /plain http: to 127\.0\.0\.1\.evil\.example/],
      ["http://localhost.evil.example/", /plain http: to localhost\.evil\.example/],
      ["https://good.example@evil.example/", /user name or password before the host/],
      ["not a url at all", /not a URL that can be parsed/],
    ];
    for (const [url, why] of cases) {
      const check = checkLink(url);
      assert.equal(check.ok, false, url);
      assert.match(check.ok ? "" : check.why, why, url);
    }
  });

  test("a refused link is declined without a prompt, naming the server and the reason", async () => {
    const { written, io: prompt } = io(["y"]);
    const answer = await promptUrl({ url: "javascript:alert(document.cookie)", host: "", message: "Click", elicitationId: "e2" }, 'server "x"', prompt);
    assert.deepEqual(answer, { action: "decline" });
    assert.match(
      written.join(""),
      /server "x" asks you to open javascript:alert\(document\.cookie\) \("Click"\); declined without asking: it is a "javascript:" URL/,
    );
    assert.doesNotMatch(written.join(""), /\[y\]es/);

    const notes: string[] = [];
    const handlers = cliElicitationHandlers("prompt", io(["y"]).io, (text) => notes.push(text));
    const context = { server: 'server "x"', signal: new AbortController().signal, requestId: 3 };
    assert.deepEqual(await handlers.url!({ url: "file:///home/me/.ssh/id_rsa", host: "", message: "Open" }, context), { action: "decline" });
    assert.match(notes[0]!, /^server "x" asks you to open file:\/\/\/home\/me\/\.ssh\/id_rsa \("Open"\); declined without asking: it is a "file:" URL/);
  });

  test("the message and URL are shown with their escapes visible: an OSC 8 hyperlink cannot pose as another host", async () => {
    const { written, io: prompt } = io(["n"]);
    const message = "Sign in at \u001b]8;;https://evil.example/\u0007https://good.example\u001b]8;;\u0007\r\u202e now";
    await promptUrl({ url: "https://evil.example/login", host: "evil.example", message }, 'server "x"', prompt);
    const text = written.join("");
    assert.doesNotMatch(text, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    assert.ok(text.includes("Sign in at \\x1b]8;;https://evil.example/\\x07https://good.example\\x1b]8;;\\x07\\r\\u202e now"), text);
    assert.match(text, /^ {2}https:\/\/evil\.example\/login$/m);
    assert.match(text, /origin https:\/\/evil\.example;/);
  });
});
