// Server data as redacted, bounded JSON text (common/redact.ts redactedJson), what traces, telemetry
// and terminal lines show of a message (issue 37, items 8 and 12): every string redacted as a
// terminal shows it, nothing past the bound read or shown, a secret across the cut found whole.

import assert from "node:assert/strict";
import { test } from "node:test";
import { REDACT_SLACK_CHARS, REDACTED, redactedJson, redactText } from "../../src/common/redact.ts";

test("redactedJson: a JSON document inside a string is redacted as itself, as a terminal shows it", () => {
  const message = { result: { content: [{ type: "text", text: JSON.stringify({ api_key: "sk-abcdef123456", note: "hi" }) }] } };
  // As JSON text the inner quotes are escaped (\"api_key\"): the field is not found there.
  assert.ok(redactText(JSON.stringify(message)).includes("sk-abcdef123456"));
  const { text, cut, changed } = redactedJson(message, (text) => redactText(text));
  assert.equal(cut, false);
  assert.equal(changed, true);
  assert.deepEqual(JSON.parse(text), { result: { content: [{ type: "text", text: `{"api_key":"${REDACTED}","note":"hi"}` }] } });
  assert.deepEqual(redactedJson({ a: "plain", b: [1, true, null] }, (text) => redactText(text)), {
    text: '{"a":"plain","b":[1,true,null]}',
    cut: false,
    changed: false,
  });
});

test("redactedJson: a 50 MB string costs the redaction its first maxChars and slack, and what is past them is never shown", () => {
  const value = { text: "a".repeat(50_000_000) + " Bearer sk-very-secret-123456" };
  let read = 0;
  const { text, cut } = redactedJson(value, (given) => {
    read += given.length;
    return redactText(given);
  }, { maxChars: 100_000 });
  assert.equal(cut, true);
  assert.ok(read <= 2 * (100_000 + REDACT_SLACK_CHARS), `the redactor read ${read} characters`);
  assert.ok(text.length < 100_100, `${text.length} characters`);
  assert.match(text, /… \[cut: more than 100000 characters\]$/);
  assert.ok(!text.includes("sk-very-secret"));
  // A secret that straddles the cut is found whole, and none of it is shown.
  const straddling = redactedJson({ text: "a".repeat(99_970) + " Bearer sk-straddling-123456" }, (given) => redactText(given), { maxChars: 100_000 });
  assert.ok(!straddling.text.includes("sk-strad"), straddling.text.slice(-80));
});
