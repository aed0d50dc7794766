// The LLM-facing string of a tool call: `{"result": "<text>"}` or `{"error": "<message>"}`,
// built from an MCP CallToolResult (spec 2025-11-25 server/tools, "Tool Result") or a
// built-in tool's value.
//
// `result` is always a string, never the structured value: it is what LLM function-calling
// APIs take as a tool's output, and one shape is easier to rely on than two.
// - text blocks are joined with newlines;
// - structuredContent is added as JSON, unless a text block already is that JSON (compared
//   parsed, so whitespace and key order do not matter — spec 2025-11-25 server/tools
//   recommends servers also send it as text);
// - images and audio become `[image: image/png, 1.2 KB]` (decoded size; never base64);
// - resource links are listed with uri, name, mimeType (and description, size);
// - embedded resources: text is included under a header line, blobs become placeholders;
// - the text is capped (default 100,000 characters): head and tail are kept and the cut
//   is marked with the number of characters removed; with result files (result-files.ts) the
//   whole text is also written to a file named on the first line, and binary blocks are
//   saved as files shown with their path;
// - JSON is shown to 64 levels of nesting: a server decides how deep its structuredContent is,
//   and JSON.stringify recurses once per level (100,000 levels is a stack overflow), so deeper
//   levels are replaced by a marker and a line says whose result was cut.

import type { CallToolResult, ContentBlock, JsonObject } from "../client/types.ts";
import { boundedJson, DEFAULT_MAX_DEPTH, depthOf } from "../common/bounded.ts";

export const DEFAULT_MAX_RESULT_CHARS = 100_000;
/** Levels of nesting a result's JSON is shown to; deeper values become a marker. */
export const MAX_RESULT_DEPTH = DEFAULT_MAX_DEPTH;
/** Levels jsonEqual compares to; values nested deeper count as different. */
const MAX_COMPARE_DEPTH = 1_000;

/** Who produced a value, for the line that says it was shown shortened: `server "x", tool "y"`. */
export interface ResultSource {
  source?: string;
}

/** How formatToolResultText shows blocks saved as files (see result-files.ts): block → path. */
export interface ResultTextOptions extends ResultSource {
  savedFiles?: ReadonlyMap<ContentBlock, string>;
}

/** How long the LLM's string of a result may be. */
export interface ResultFormatOptions {
  /** Longest text kept (in UTF-16 code units, as JavaScript counts). Default 100,000. */
  maxChars?: number;
}

/** The string a caller hands to the LLM. */
export function resultString(text: string, options: ResultFormatOptions = {}): string {
  return JSON.stringify({ result: capText(text, options.maxChars) });
}

/** The `{"error": …}` string a caller hands to the LLM for a failed call. */
export function errorString(message: string, options: ResultFormatOptions = {}): string {
  return JSON.stringify({ error: capText(message, options.maxChars) });
}

/** True for a value with the shape of a CallToolResult (a `content` array). */
export function isCallToolResult(value: unknown): value is CallToolResult {
  return typeof value === "object" && value !== null && Array.isArray((value as JsonObject).content);
}

/**
 * The text of a built-in tool's value: a string as it is, a CallToolResult as its content,
 * undefined as "", anything else as JSON.
 */
export function formatValueText(value: unknown, options: ResultTextOptions = {}): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  if (isCallToolResult(value)) return formatToolResultText(value, options);
  const json = jsonText(value, "the value", options.source);
  return json === undefined ? String(value) : json;
}

/**
 * The text of a CallToolResult: its content blocks, then structuredContent unless a text block
 * repeats it. Never throws for parsed JSON however deep: past 64 levels structuredContent is
 * shown with a marker in place of the deeper levels and a line naming `options.source`.
 */
export function formatToolResultText(result: CallToolResult, options: ResultTextOptions = {}): string {
  const parts: string[] = [];
  let structuredShown = result.structuredContent === undefined;
  const saved = options.savedFiles;
  for (const block of result.content) {
    if (!structuredShown && block.type === "text" && textIsJsonOf(block.text, result.structuredContent)) {
      structuredShown = true;
    }
    // A text block (blockText's first case, inline: nearly every result is one) as it is.
    parts.push(block.type === "text" ? (typeof block.text === "string" ? block.text : "") : blockText(block, saved?.get(block)));
  }
  if (!structuredShown) parts.push(jsonText(result.structuredContent, "structuredContent", options.source) ?? "null");
  return parts.join("\n");
}

/**
 * JSON.stringify(value), except for a value nested deeper than MAX_RESULT_DEPTH: that is shown
 * to that depth, the deeper levels replaced by a marker, followed by a line saying so and naming
 * the source. What JSON.stringify refuses for other reasons (a cycle, a BigInt) still throws.
 */
function jsonText(value: unknown, what: string, source: string | undefined): string | undefined {
  if (depthOf(value, MAX_RESULT_DEPTH + 1) <= MAX_RESULT_DEPTH) return JSON.stringify(value);
  refuseAsJsonDoes(value); // a cycle or a BigInt is the caller's error, as for a shallow value
  return `${boundedJson(value, { maxDepth: MAX_RESULT_DEPTH, maxChars: Infinity })}\n` + deepNote(what, source);
}

/**
 * Throws the TypeError JSON.stringify throws for a cycle or a BigInt in `value`, walking it
 * without recursion: JSON.stringify of a value 100,000 levels deep only overflows the stack, and
 * Bun 1.4 takes seconds to get there (Node a few milliseconds). What a toJSON method returns is
 * not walked.
 */
function refuseAsJsonDoes(value: unknown): void {
  const path = new Set<object>();
  const stack: Array<{ object: object; members: unknown[]; next: number }> = [];
  const enter = (item: unknown) => {
    if (typeof item === "bigint") throw new TypeError("Do not know how to serialize a BigInt");
    if (item === null || typeof item !== "object" || typeof (item as { toJSON?: unknown }).toJSON === "function") return;
    if (path.has(item)) throw new TypeError("Converting circular structure to JSON");
    path.add(item);
    stack.push({ object: item, members: Array.isArray(item) ? item : Object.values(item), next: 0 });
  };
  enter(value);
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.next < top.members.length) enter(top.members[top.next++]);
    else {
      path.delete(top.object);
      stack.pop();
    }
  }
}

/** The line after a JSON text cut at MAX_RESULT_DEPTH. */
function deepNote(what: string, source: string | undefined): string {
  return `[${source === undefined ? "" : `${source}: `}${what} is nested deeper than ${MAX_RESULT_DEPTH} levels; ` +
    `the levels past ${MAX_RESULT_DEPTH} were left out]`;
}

/**
 * One content block as text. Unknown block types get a placeholder naming the type. A binary
 * block saved as a file (`savedPath`) is shown with its path, for the model to hand on.
 */
export function blockText(block: ContentBlock, savedPath?: string): string {
  const saved = savedPath === undefined ? "" : `, saved to ${savedPath}`;
  switch (block.type) {
    case "text":
      return typeof block.text === "string" ? block.text : "";
    case "image":
    case "audio":
      return `[${block.type}: ${block.mimeType ?? "unknown type"}, ${formatBytes(base64DecodedBytes(block.data))}${saved}]`;
    case "resource_link": {
      const fields = [`uri=${JSON.stringify(block.uri)}`, `name=${JSON.stringify(block.name)}`];
      if (block.title !== undefined) fields.push(`title=${JSON.stringify(block.title)}`);
      if (block.mimeType !== undefined) fields.push(`mimeType=${JSON.stringify(block.mimeType)}`);
      if (typeof block.size === "number") fields.push(`size=${formatBytes(block.size)}`);
      if (block.description !== undefined) fields.push(`description=${JSON.stringify(block.description)}`);
      return `[resource link: ${fields.join(" ")}]`;
    }
    case "resource": {
      const resource = block.resource;
      const type = resource.mimeType === undefined ? "" : `, ${resource.mimeType}`;
      if ("text" in resource && typeof resource.text === "string") {
        return `[resource: ${resource.uri}${type}]\n${resource.text}`;
      }
      const blob = "blob" in resource && typeof resource.blob === "string" ? resource.blob : "";
      return `[resource: ${resource.uri}${type}, ${formatBytes(base64DecodedBytes(blob))}${saved}]`;
    }
    default:
      return `[${String((block as { type?: unknown }).type)} content]`;
  }
}

/** Whether `text` is the JSON of `value` (parsed and compared, not compared as strings). */
function textIsJsonOf(text: string, value: unknown): boolean {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return false; // cheap: not JSON of an object
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return false;
  }
  return jsonEqual(parsed, value);
}

/**
 * Deep equality of JSON values; object key order does not matter. Values nested deeper than
 * 1,000 levels count as different (the comparison never overflows the stack).
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return equalTo(a, b, 0);
}

function equalTo(a: unknown, b: unknown, depth: number): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (depth >= MAX_COMPARE_DEPTH) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => equalTo(item, b[i], depth + 1));
  }
  const aKeys = Object.keys(a).filter((key) => (a as JsonObject)[key] !== undefined);
  const bKeys = Object.keys(b).filter((key) => (b as JsonObject)[key] !== undefined);
  if (aKeys.length !== bKeys.length) return false;
  return aKeys.every((key) => Object.hasOwn(b, key) && equalTo((a as JsonObject)[key], (b as JsonObject)[key], depth + 1));
}

/** Bytes that a base64 string decodes to, without decoding it. */
export function base64DecodedBytes(data: string): number {
  let length = 0;
  let padding = 0;
  for (let i = 0; i < data.length; i++) {
    const code = data.charCodeAt(i);
    if (code === 0x3d) padding++; // "="
    else if (code > 0x20) length++; // whitespace and line breaks do not count
  }
  const bytes = Math.floor(((length + padding) * 3) / 4) - padding;
  return Math.max(0, bytes);
}

/** `512 bytes`, `1.2 KB`, `3.4 MB` (1 KB = 1024 bytes). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return bytes === 1 ? "1 byte" : `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(1)} GB`;
}

/**
 * Keeps at most `maxChars` characters: the head and the tail, with a marker in between
 * saying how many characters were cut. The marker counts towards the cap; a cut never
 * splits a surrogate pair.
 */
export function capText(text: string, maxChars: number = DEFAULT_MAX_RESULT_CHARS): string {
  if (text.length <= maxChars) return text;
  // The marker's length depends on the number it carries; two rounds settle it.
  let marker = cutMarker(text.length);
  for (let round = 0; round < 2; round++) {
    marker = cutMarker(text.length - Math.max(0, maxChars - marker.length));
  }
  const keep = Math.max(0, maxChars - marker.length);
  let headEnd = Math.ceil(keep / 2);
  let tailStart = text.length - (keep - headEnd);
  if (isLowSurrogateAt(text, headEnd)) headEnd--; // do not split a pair at the head's end
  if (isLowSurrogateAt(text, tailStart)) tailStart++; // nor at the tail's start
  let capped = text.slice(0, headEnd) + cutMarker(tailStart - headEnd) + text.slice(tailStart);
  // A pair kept whole can push the count to one more digit; give the head up for it.
  while (capped.length > maxChars && headEnd > 0) {
    headEnd--;
    if (isLowSurrogateAt(text, headEnd)) headEnd--;
    capped = text.slice(0, headEnd) + cutMarker(tailStart - headEnd) + text.slice(tailStart);
  }
  return capped;
}

/**
 * A text over `maxChars` whose whole is in a file: a first line naming the file and the size,
 * then the head and the tail (capText), all within `maxChars`.
 */
export function capTextWithFile(text: string, path: string, maxChars: number = DEFAULT_MAX_RESULT_CHARS): string {
  const note = `[the result is ${text.length.toLocaleString("en-US")} characters, over the ${maxChars.toLocaleString("en-US")} shown here; ` +
    `the whole of it is in the file ${path}; below are its head and its tail]\n`;
  return note + capText(text, Math.max(0, maxChars - note.length));
}

function cutMarker(cut: number): string {
  return `\n[… ${cut.toLocaleString("en-US")} characters cut …]\n`;
}

function isLowSurrogateAt(text: string, index: number): boolean {
  if (index <= 0 || index >= text.length) return false;
  const code = text.charCodeAt(index);
  const before = text.charCodeAt(index - 1);
  return code >= 0xdc00 && code <= 0xdfff && before >= 0xd800 && before <= 0xdbff;
}
