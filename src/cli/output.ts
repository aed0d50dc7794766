// Everything the `mcpwire` command writes goes out through here. A server decides what its
// strings and JSON hold (issue 13), so every text is redacted with the credentials in play — the
// manager's Redactor, or the one inspect builds from --header and --env — and has its control
// characters made visible (common/terminal-text.ts): no escape sequence a server sends reaches
// the terminal, and no credential is printed. Server data becomes text only through bounded
// renderings (common/bounded.ts), so its depth and size cannot overflow the stack or the screen.

import { boundedCopy, type Bounds, depthMarker, depthOf } from "../common/bounded.ts";
import { setOwn } from "../common/json.ts";
import { redactedJson, Redactor } from "../common/redact.ts";
import { terminalLine, terminalText } from "../common/terminal-text.ts";
import { runtime } from "../runtime/mod.ts";

/** Server data shown inside one line of text: a log message's data, an error's data. */
export const LINE_BOUNDS = { maxDepth: 16, maxChars: 4_000 } as const;
/** One JSON-RPC message in a --trace line: the whole message, up to a size a terminal can take. */
export const TRACE_BOUNDS = { maxDepth: 64, maxChars: 64_000 } as const;
/** A result shown as text by `call`: as large as a result may be, but never deeper than this. */
export const RESULT_BOUNDS = { maxDepth: 64, maxChars: 10_000_000 } as const;
/** A --json document on stdout (a listing, a status, a result): valid JSON, deep values marked. */
export const DOCUMENT_BOUNDS = { maxDepth: 64, maxNodes: 10_000_000 } as const;

let active = new Redactor();

/**
 * The Redactor every output passes through from now on: the verb's (manager.redactor, or
 * inspect's own). Until a verb sets one, the shapes redactText knows still apply.
 */
export function useRedactor(redactor: Redactor): void {
  active = redactor;
}

/** `text` with every credential the active Redactor knows (and every credential shape) replaced. */
export function redacted(text: string): string {
  return active.redact(text);
}

/** Server text shown on one line: redacted, every control character (line feeds too) visible. */
export function lineOf(text: unknown): string {
  return terminalLine(redacted(typeof text === "string" ? text : String(text)));
}

/** Server text that may span lines: redacted, LF and TAB kept, every other control character visible. */
export function textOf(text: unknown): string {
  return terminalText(redacted(typeof text === "string" ? text : String(text)));
}

/**
 * Server data as text, at most `bounds.maxChars` characters: a string as itself, anything else as
 * JSON bounded in depth; past a bound a marker says what was left out. Redacted before it is cut,
 * so a secret that straddles the cut is not shown in part. Control characters are left to the caller.
 */
export function boundedText(value: unknown, bounds: Bounds & { indent?: number } = LINE_BOUNDS): string {
  const max = bounds.maxChars ?? LINE_BOUNDS.maxChars;
  // JSON: each string redacted as itself too (a JSON document inside a string is escaped in the text).
  if (typeof value !== "string") return redactedJson(value, redacted, { ...bounds, maxChars: max }).text;
  // Twice the budget before redaction: a secret that starts before the cut is whole in it.
  const clean = redacted(value.slice(0, 2 * max));
  const longer = clean.length > max || value.length > 2 * max;
  return longer ? `${clean.slice(0, max)}… [cut: more than ${max} characters]` : clean;
}

/** Server data on one line (see boundedText): redacted, bounded, every control character visible. */
export function dataLine(value: unknown, bounds: Bounds = LINE_BOUNDS): string {
  return terminalLine(boundedText(value, bounds));
}

/** True when `value` is nested deeper than `maxDepth` levels (counting stops just past it). */
export function deeperThan(value: unknown, maxDepth: number): boolean {
  return depthOf(value, maxDepth + 1) > maxDepth;
}

/** What --json output shows where a value was nested too deep. */
export const DEEP_MARKER = depthMarker(DOCUMENT_BOUNDS.maxDepth);

/**
 * A JSON document for stdout: a bounded copy of `value` (deeper values become a marker string,
 * so the text stays valid JSON), its strings redacted, pretty-printed; members shaped like a
 * credential (`"apiKey": "…"`) are redacted too. Characters JSON.stringify leaves raw that a
 * terminal acts on (DEL, C1 controls, bidi controls, line separators) are written as \u escapes,
 * which JSON reads back as the same characters.
 */
export function jsonDocument(value: unknown): string {
  const copy = redactStrings(boundedCopy(value, DOCUMENT_BOUNDS));
  const text = JSON.stringify(copy, null, 2) ?? "null";
  const shaped = redacted(text);
  let chosen = text;
  if (shaped !== text) {
    try {
      JSON.parse(shaped);
      chosen = shaped;
    } catch {
      // A credential shape matched across a string's end; the per-string redaction stands.
    }
  }
  return chosen.replace(JSON_UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

// Characters JSON.stringify writes as they are but a terminal interprets or reorders.
const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function redactStrings(value: unknown): unknown {
  if (typeof value === "string") return redacted(value);
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(redactStrings);
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) setOwn(out, redacted(key), redactStrings(member)); // `__proto__` stays a key
  return out;
}

/** Writes text to a stream: redacted, and every control character but LF and TAB made visible. */
export function write(stream: "stdout" | "stderr", text: string): Promise<void> {
  return runtime.write(stream, terminalText(redacted(text)));
}

/** Writes one JSON document (see jsonDocument) and a newline to stdout. */
export function writeJson(value: unknown): Promise<void> {
  return runtime.write("stdout", jsonDocument(value) + "\n");
}

/**
 * Writes text whose control sequences are the CLI's own (the progress bar's CR and erase-line);
 * every server string in it must already have gone through lineOf. Redacted all the same.
 */
export function writeControl(stream: "stdout" | "stderr", text: string): Promise<void> {
  return runtime.write(stream, redacted(text));
}
