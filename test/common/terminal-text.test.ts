// Server text shown on a terminal: escape sequences and control characters are made visible,
// never sent to the terminal as they are.

import { test } from "node:test";
import assert from "node:assert/strict";
import { isTerminalSafe, terminalLine, terminalText } from "../../src/common/terminal-text.ts";

const OSC8 = "\u001b]8;;https://evil.example\u0007good.example\u001b]8;;\u0007";

test("CSI, OSC 8 hyperlinks, BEL and CR are shown as escapes", () => {
  assert.equal(terminalText("\u001b[31mred\u001b[0m"), "\\x1b[31mred\\x1b[0m");
  assert.equal(terminalText(OSC8), "\\x1b]8;;https://evil.example\\x07good.example\\x1b]8;;\\x07");
  assert.equal(terminalText("progress 10%\rprogress 100%"), "progress 10%\\rprogress 100%");
  assert.equal(terminalText("a\u009b31mb"), "a\\x9b31mb", "the one-byte C1 CSI");
});

test("bidi overrides are made visible (a reader sees what is there)", () => {
  assert.equal(terminalText("abc\u202Edef\u2066"), "abc\\u202edef\\u2066");
});

test("line feeds and tabs stay in text, line feeds become visible in a line", () => {
  assert.equal(terminalText("one\n\ttwo"), "one\n\ttwo");
  assert.equal(terminalLine("one\n\ttwo"), "one\\n\ttwo");
});

test("ordinary text, unicode included, is untouched", () => {
  const text = "Grüße — 你好 👋 (a, b) [c] {d}";
  assert.equal(terminalText(text), text);
  assert.ok(isTerminalSafe(text));
  assert.ok(!isTerminalSafe(OSC8));
  assert.ok(isTerminalSafe(terminalText(OSC8)));
});
