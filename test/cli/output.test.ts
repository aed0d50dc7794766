// The CLI's one output path (src/cli/output.ts) as a unit: what a server's text and data become
// before they reach a terminal — redacted, bounded, control characters visible — and that a
// --json document stays valid JSON that reads back as what the server sent.

import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { boundedText, dataLine, jsonDocument, LINE_BOUNDS, lineOf, textOf, useRedactor } from "../../src/cli/output.ts";
import { Redactor } from "../../src/common/redact.ts";

const SECRET = "sk-test-secret-4a7f19c2e8";

afterEach(() => useRedactor(new Redactor()));

function deep(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { d: value };
  return value;
}

describe("server text on a terminal", () => {
  test("lineOf makes every control character visible, line feeds too, and redacts the secrets in play", () => {
    useRedactor(new Redactor([SECRET]));
    assert.equal(lineOf(`a\u001b[2Jb\u0007\r\n\u202e ${SECRET}`), String.raw`a\x1b[2Jb\x07\r\n\u202e [redacted]`);
    assert.equal(textOf("two\nlines\u009b"), "two\nlines\\x9b");
  });

  test("dataLine renders deep data with a marker and cuts long data, never throwing", () => {
    const line = dataLine(deep(100_000));
    assert.match(line, /^\{"d":\{"d":.*"\[nested deeper than 16 levels: not shown\]"\}+$/);
    const long = dataLine("x".repeat(50_000));
    assert.equal(long, `${"x".repeat(LINE_BOUNDS.maxChars)}… [cut: more than ${LINE_BOUNDS.maxChars} characters]`);
  });

  test("a secret that straddles the cut is redacted before the cut, so no part of it is shown", () => {
    useRedactor(new Redactor([SECRET]));
    const text = "y".repeat(LINE_BOUNDS.maxChars - 5) + SECRET + "z".repeat(100);
    const shown = boundedText(text);
    assert.ok(!shown.includes(SECRET.slice(0, 5)), shown.slice(-60));
    assert.ok(shown.endsWith(`${"y".repeat(LINE_BOUNDS.maxChars - 5)}[reda… [cut: more than ${LINE_BOUNDS.maxChars} characters]`), shown.slice(-60));
  });
});

describe("server text of any shape is redacted in time proportional to its length", () => {
  test("long runs of name characters (a.a.a…, apikey-apikey-…, eyJ-eyJ-…) do not make redaction quadratic", () => {
    useRedactor(new Redactor([SECRET]));
    // Quadratic, 200 KB of a.a.a… took a minute, of eyJ-eyJ-… half a minute; linear, milliseconds.
    const started = performance.now();
    for (const unit of ["a.", "a-", "token", "apikey-", "eyJ-", '"token":"']) {
      const text = unit.repeat(Math.ceil(200_000 / unit.length));
      assert.equal(lineOf(text).length >= text.length - 20, true, unit);
    }
    const seconds = (performance.now() - started) / 1000;
    assert.ok(seconds < 10, `${seconds.toFixed(1)} s for 1.2 MB`);
  });
});

describe("--json documents", () => {
  test("stay valid JSON and read back as the server's text, with terminal-active characters as \\u escapes", () => {
    const value = { text: "red \u001b[31m, C1 \u009b, bidi \u202e, separator \u2028, DEL \u007f" };
    const text = jsonDocument(value);
    assert.doesNotMatch(text, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2028\u2029]/);
    assert.deepEqual(JSON.parse(text), value);
  });

  test("redact the secrets in play, inside strings and as credential-shaped members, and stay valid JSON", () => {
    useRedactor(new Redactor([SECRET]));
    const text = jsonDocument({ note: `key ${SECRET}`, apiKey: "a-value-the-redactor-does-not-know", hint: 'set token=abcdefghijkl" then' });
    const parsed = JSON.parse(text);
    assert.equal(parsed.note, "key [redacted]");
    assert.equal(parsed.apiKey, "[redacted]");
    assert.match(parsed.hint, /token=\[redacted\]/);
  });

  test("mark what lies deeper than the bound instead of overflowing the stack", () => {
    const parsed = JSON.parse(jsonDocument({ deep: deep(100_000) }));
    let level: unknown = parsed;
    while (typeof level === "object" && level !== null) level = Object.values(level)[0];
    assert.equal(level, "[nested deeper than 64 levels: not shown]");
  });
});
