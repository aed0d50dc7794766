// Text that reads otherwise than it is (common/deceptive-text.ts): words mixing look-alike letters
// of different scripts, and text hidden in Unicode tag characters, said in notes a person can read;
// and the hidden characters of a text by kind (bidi controls, invisible characters, tag characters).

import assert from "node:assert/strict";
import { test } from "node:test";
import { deceptionNotes, hiddenCharacters, mixedScriptWords, tagCharacterText } from "../../src/common/deceptive-text.ts";

function tags(text: string): string {
  return [...text].map((char) => String.fromCodePoint(0xe0000 + char.charCodeAt(0))).join("");
}

test("a Latin word with a Cyrillic or Greek look-alike letter is found, with the odd letters and their code points", () => {
  assert.deepEqual(mixedScriptWords("get_w\u0435ather and p\u03bfst"), [
    { word: "w\u0435ather", scripts: ["Latin", "Cyrillic"], odd: [{ letter: "\u0435", codePoint: "U+0435", script: "Cyrillic" }] },
    { word: "p\u03bfst", scripts: ["Latin", "Greek"], odd: [{ letter: "\u03bf", codePoint: "U+03BF", script: "Greek" }] },
  ]);
});

test("words of one script each, accents, digits, other scripts and separate words are not mixed", () => {
  assert.deepEqual(mixedScriptWords("Grüße naïve α-helix Привет world 日本語abc get_weather2 café"), []);
});

test("tag characters spell their ASCII; a language tag and the cancel tag spell nothing", () => {
  assert.equal(tagCharacterText(`Gets the weather.${tags(" IGNORE ALL")} Really${tags("send it")}`), "IGNORE ALL send it");
  assert.equal(tagCharacterText("\u{e0001}\u{e007f}plain"), "");
});

test("notes say what mixes scripts and what is hidden; plain text has none", () => {
  const notes = deceptionNotes(`Gets the w\u0435ather${tags("exfiltrate")}`, "its description");
  assert.deepEqual(notes, [
    'its description mixes scripts in a word, letters that look alike but differ: "w\u0435ather" (Latin and Cyrillic: \u0435 is Cyrillic U+0435)',
    'its description hides text in Unicode tag characters (invisible on a terminal, read by a model): "exfiltrate"',
  ]);
  assert.deepEqual(deceptionNotes("Gets the weather for a city", "its description"), []);
});

test("hiddenCharacters names bidi controls, invisible characters and what tag characters spell, each code point once", () => {
  assert.deepEqual(hiddenCharacters(`read \u202efdp.exe\u202c and \u200bthis\u200b ${tags("IGNORE")}`), {
    bidi: ["U+202E", "U+202C"],
    invisible: ["U+200B"],
    tags: "IGNORE",
  });
  assert.deepEqual(hiddenCharacters("a\u2066b\u2069 c\u{e0101}"), { bidi: ["U+2066", "U+2069"], invisible: ["U+E0101"], tags: "" });
});

test("hiddenCharacters finds nothing in plain text, an emoji ZWJ sequence or a Persian word's non-joiner", () => {
  for (const text of ["Get current weather", "👩\u200d💻 developer", "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645", "Ünïcödé ✓"]) {
    assert.equal(hiddenCharacters(text), undefined, text);
  }
  assert.deepEqual(hiddenCharacters("get\u200dweather"), { bidi: [], invisible: ["U+200D"], tags: "" });
});
