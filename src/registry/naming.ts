// Registered names of MCP tools: a format with {server} and {tool}, sanitised to
// [A-Za-z0-9_-] and cut to 64 characters with a short stable hash, so every name is a
// valid LLM function name (OpenAI, Anthropic and Gemini all accept this alphabet and length).

/** The seed agent's form; mcphost-style hosts use `{server}__{tool}`. */
export const DEFAULT_NAMING = "mcp_{server}_{tool}";

/** The longest function name LLM APIs accept. */
export const MAX_TOOL_NAME_LENGTH = 64;

/** `_` and 8 hex digits of FNV-1a, appended to a name that was cut. */
const HASH_SUFFIX_LENGTH = 9;

const VALID_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const INVALID_CHARACTER = /[^A-Za-z0-9_-]/gu;
const PLACEHOLDER = /\{([^{}]*)\}/g;

/** True when `name` is usable as an LLM function name as it is. */
export function isValidToolName(name: string): boolean {
  return VALID_NAME.test(name);
}

/** Every character outside [A-Za-z0-9_-] becomes `_` (one per code point, so an emoji is one `_`). */
export function sanitizeName(name: string): string {
  return name.replace(INVALID_CHARACTER, "_");
}

const encoder = new TextEncoder();

/**
 * 32-bit FNV-1a over the UTF-8 bytes, as 8 hex digits. Stable across runs, runtimes and
 * versions (it is the algorithm, not a library), which is all a name suffix needs.
 */
export function fnv1a32(text: string): string {
  let hash = 0x811c9dc5;
  for (const byte of encoder.encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/**
 * Fits a raw name into the LLM alphabet and length. Names of at most 64 characters (after
 * sanitising) are only sanitised; longer ones keep their first 55 characters and get `_`
 * and the hash of the whole raw name, so two long names that differ anywhere (even only
 * in characters that sanitise alike) get different results, and the same name always
 * gets the same result.
 */
export function fitToolName(raw: string): string {
  const sanitized = sanitizeName(raw);
  if (sanitized.length <= MAX_TOOL_NAME_LENGTH) return sanitized;
  return `${sanitized.slice(0, MAX_TOOL_NAME_LENGTH - HASH_SUFFIX_LENGTH)}_${fnv1a32(raw)}`;
}

/**
 * Checks a naming format once, before any tool is named: it must contain `{tool}` (or every
 * tool would get the same name) and no placeholder but `{server}` and `{tool}`.
 * Returns the problem, or undefined when the format is usable.
 */
export function namingFormatProblem(format: string): string | undefined {
  for (const [, placeholder] of format.matchAll(PLACEHOLDER)) {
    if (placeholder !== "server" && placeholder !== "tool") {
      return `naming ${JSON.stringify(format)} has an unknown placeholder {${placeholder}}; use {server} and {tool}`;
    }
  }
  if (!format.includes("{tool}")) {
    return `naming ${JSON.stringify(format)} has no {tool}, so every tool would get the same name; ` +
      `use a format like "mcp_{server}_{tool}" or "{server}__{tool}"`;
  }
  return undefined;
}

/**
 * The registered name of `tool` from `server` under `format` (default `mcp_{server}_{tool}`):
 * placeholders filled with the raw names, then fitted with fitToolName. The format should
 * have been checked with namingFormatProblem.
 */
export function toolName(server: string, tool: string, format: string = DEFAULT_NAMING): string {
  const raw = format.replace(PLACEHOLDER, (whole, placeholder: string) => placeholder === "server" ? server : placeholder === "tool" ? tool : whole);
  return fitToolName(raw);
}
