// Text that reads otherwise than it is: a word that mixes scripts (a Latin name with a Cyrillic
// "е" or a Greek "ο" that looks the same: UTS #39 "mixed-script confusables") and text written in
// Unicode tag characters (U+E0020–E007E), which a terminal draws as nothing but a model reads as
// ASCII. terminal-text.ts makes each invisible character visible; this says what they spell and
// which letters are not what they seem, for the places a person decides whether to trust a text
// (`mcpwire pin diff`, `pin status`), and which hidden characters a text holds (`mcpwire check`'s
// hygiene: bidi controls that reorder what is read, invisible ones, tag characters).

import { joinerIsText } from "./terminal-text.ts";

/** The scripts whose letters are taken for one another (UTS #39's common confusables). */
const SCRIPTS = [
  ["Latin", /\p{Script=Latin}/u],
  ["Cyrillic", /\p{Script=Cyrillic}/u],
  ["Greek", /\p{Script=Greek}/u],
  ["Armenian", /\p{Script=Armenian}/u],
  ["Cherokee", /\p{Script=Cherokee}/u],
] as const;

/** A word: letters, the marks on them and digits (`_` and `-` separate words: `get_wеather` holds the word `wеather`). */
const WORD = /[\p{L}\p{M}\p{Nd}]+/gu;
const TAGS = /[\u{e0000}-\u{e007f}]+/gu;
/** The most words, and letters per word, a note names. */
const MAX_WORDS = 5;
const MAX_LETTERS = 5;
/** The most characters of hidden text a note shows. */
const MAX_HIDDEN_CHARS = 200;

/** A word whose letters come from more than one script: each script, and the letters of all but the most used one. */
export interface MixedScriptWord {
  word: string;
  /** The scripts of its letters, the most used first. */
  scripts: string[];
  /** The letters not of the word's main script, each once, with its code point (`е` U+0435). */
  odd: { letter: string; codePoint: string; script: string }[];
}

function scriptOf(letter: string): string | undefined {
  for (const [name, pattern] of SCRIPTS) if (pattern.test(letter)) return name;
  return undefined;
}

/** The words of `text` that mix letters of different scripts, in order, at most MAX_WORDS. */
export function mixedScriptWords(text: string): MixedScriptWord[] {
  const found: MixedScriptWord[] = [];
  for (const [word] of text.matchAll(WORD)) {
    const counts = new Map<string, number>();
    const letters = [...word].map((letter) => ({ letter, script: scriptOf(letter) }));
    for (const { script } of letters) if (script !== undefined) counts.set(script, (counts.get(script) ?? 0) + 1);
    if (counts.size < 2) continue;
    const scripts = [...counts].sort((a, b) => b[1] - a[1]).map(([script]) => script);
    const odd = new Map<string, { letter: string; codePoint: string; script: string }>();
    for (const { letter, script } of letters) {
      if (script === undefined || script === scripts[0] || odd.has(letter) || odd.size >= MAX_LETTERS) continue;
      odd.set(letter, { letter, codePoint: `U+${letter.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`, script });
    }
    found.push({ word, scripts, odd: [...odd.values()] });
    if (found.length >= MAX_WORDS) break;
  }
  return found;
}

/** What the runs of Unicode tag characters in `text` spell, as ASCII (`\u{e0049}\u{e0047}` → "IG"); "" when there are none. */
export function tagCharacterText(text: string): string {
  let spelt = "";
  for (const [run] of text.matchAll(TAGS)) {
    for (const char of run) {
      const ascii = char.codePointAt(0)! - 0xe0000;
      // U+E0001 (language tag) and U+E007F (cancel tag) spell nothing.
      if (ascii >= 0x20 && ascii <= 0x7e) spelt += String.fromCharCode(ascii);
    }
    spelt += " ";
    if (spelt.length > MAX_HIDDEN_CHARS) break;
  }
  const trimmed = spelt.trim();
  return trimmed.length > MAX_HIDDEN_CHARS ? `${trimmed.slice(0, MAX_HIDDEN_CHARS)}…` : trimmed;
}

/**
 * What a person should know before trusting `text` (`what`: "its description"), one line each:
 * words that mix scripts, with the odd letters and their code points; the text hidden in tag
 * characters. Empty when there is nothing to say. The lines hold the text's letters as they are:
 * show them through terminalLine.
 */
export function deceptionNotes(text: string, what: string): string[] {
  const notes: string[] = [];
  const mixed = mixedScriptWords(text);
  if (mixed.length > 0) {
    const words = mixed.map((each) =>
      `"${each.word}" (${each.scripts.join(" and ")}: ${each.odd.map((odd) => `${odd.letter} is ${odd.script} ${odd.codePoint}`).join(", ")})`
    );
    notes.push(`${what} mixes scripts in ${mixed.length === 1 ? "a word" : "words"}, letters that look alike but differ: ${words.join(", ")}`);
  }
  const hidden = tagCharacterText(text);
  if (hidden !== "") notes.push(`${what} hides text in Unicode tag characters (invisible on a terminal, read by a model): ${JSON.stringify(hidden)}`);
  return notes;
}

/** Bidi controls (Unicode UAX #9): the Arabic letter mark, LRM and RLM, embeddings, overrides and isolates. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
/**
 * Characters drawn as nothing: the Hangul fillers, the Mongolian vowel separator, zero-width
 * space, non-joiner and joiner, word joiner and invisible operators, the deprecated format
 * characters, the BOM, and the variation selectors supplement (which can encode bytes after any letter).
 */
const INVISIBLE = /[\u115f\u1160\u180e\u200b-\u200d\u2060-\u2064\u206a-\u206f\u3164\ufeff\uffa0\u{e0100}-\u{e01ef}]/u;
const HIDDEN =
  /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u115f\u1160\u180e\u200b-\u200d\u2060-\u2064\u206a-\u206f\u3164\ufeff\uffa0\u{e0000}-\u{e007f}\u{e0100}-\u{e01ef}]/gu;
/** The most code points of each kind a HiddenCharacters names. */
const MAX_CODE_POINTS = 5;

/** The characters of a text a reader does not see: each kind's code points (each once, at most five) and what tag characters spell. */
export interface HiddenCharacters {
  /** Bidi controls, which reorder what is shown (`U+202E`). */
  bidi: string[];
  /** Characters drawn as nothing (`U+200B`); a joiner inside an emoji or a Persian or Indic word is not counted. */
  invisible: string[];
  /** What Unicode tag characters spell, as tagCharacterText gives it ("" when there are none). */
  tags: string;
}

function codePointOf(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** The hidden characters of `text`, or undefined when it holds none. */
export function hiddenCharacters(text: string): HiddenCharacters | undefined {
  const bidi = new Set<string>();
  const invisible = new Set<string>();
  let tagged = false;
  for (const match of text.matchAll(HIDDEN)) {
    const char = match[0];
    if (BIDI.test(char)) {
      if (bidi.size < MAX_CODE_POINTS) bidi.add(codePointOf(char));
    } else if (INVISIBLE.test(char)) {
      if (invisible.size < MAX_CODE_POINTS && !joinerIsText(text, match.index)) invisible.add(codePointOf(char));
    } else tagged = true;
  }
  if (bidi.size === 0 && invisible.size === 0 && !tagged) return undefined;
  return { bidi: [...bidi], invisible: [...invisible], tags: tagged ? tagCharacterText(text) || "(nothing printable)" : "" };
}
