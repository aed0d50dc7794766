// Short quotes of long text for messages: the start of a line that was not JSON, of a body, of
// a command — cut at a limit, marked with "…", never splitting a surrogate pair.

import { boundedJson } from "./bounded.ts";

/** The first `max` UTF-16 units of `text` (one fewer when the cut would split a pair), "…" marking a cut. */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = Math.max(0, max);
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut--; // keep a pair whole: drop its first half
  return text.slice(0, cut) + "…";
}

/** clipText, quoted as a JSON string (so the quote shows where the text starts and ends). */
export function preview(text: string, max: number): string {
  return JSON.stringify(clipText(text, max));
}

/**
 * clipText of `value`'s JSON text, written by boundedJson: a value as large or as deep as a server
 * likes costs only the characters kept, and the quote is the same as of JSON.stringify's text.
 */
export function clipJson(value: unknown, max: number): string {
  // Each level costs a bracket, so nothing deeper than `max` levels is within the first `max` characters.
  return clipText(boundedJson(value, { maxChars: max, maxDepth: max }), max);
}

/** clipText of `text` on one line: runs of whitespace become one space. */
export function clipLine(text: string, max: number): string {
  return clipText(oneLine(text), max);
}

/** `text` on one line in at most `width` units, the "…" of a cut included (a table column's width). */
export function fitLine(text: string, width: number): string {
  const flat = oneLine(text);
  return flat.length <= width ? flat : clipText(flat, width - 1);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
