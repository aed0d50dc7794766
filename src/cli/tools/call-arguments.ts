// The arguments of `mcpwire call`: `key=value` words typed by the tool's input schema
// (`a=2 b=40 tags=[x,y] flag=true nested={"k":1}`, `key:=JSON` for a JSON value as written),
// one JSON object (`'{"a":2}'`), or a JSON file (`--args-file F`, `-` for stdin). An inputSchema
// is a JSON Schema object (spec 2025-11-25 server/tools, "Tool"); this reads the keywords tools
// use — type (a string or a list), enum, const, anyOf/oneOf of simple types, items, properties,
// required, additionalProperties — and reads what it does not know as JSON, else as a string.
// Everything here fails before a request is sent, naming the argument and what to write.

import type { JsonObject } from "../../client/types.ts";
import { boundedJson, DEFAULT_MAX_DEPTH, depthOf, jsonTextDepth } from "../../common/bounded.ts";
import { isObject } from "../../common/json.ts";
import type { McpwireErrorOptions } from "../../common/mcpwire-error.ts";
import { clipText } from "../../common/preview.ts";
import { didYouMean, suggestNames } from "../../registry/suggest.ts";
import { FileError } from "../../runtime/errors.ts";
import { runtime } from "../../runtime/mod.ts";
import { UsageError } from "../args.ts";
import type { CallArgumentsErrorCode } from "../errors.ts";
import { type Loose, parseLoose, plainValue } from "./loose-value.ts";
import { schemaType } from "./signature.ts";

/** Arguments of `mcpwire call` that cannot be used: a usage error (exit 2) found before the call; `code` says what was wrong. */
export class CallArgumentsError extends UsageError {
  override readonly name: string = "CallArgumentsError";
  declare readonly code: CallArgumentsErrorCode;
  constructor(message: string, code: CallArgumentsErrorCode, options?: McpwireErrorOptions) {
    super(message, code, options);
  }
}

/** One `key=value` (or `key:=JSON`) word. */
export interface ArgumentPair {
  key: string;
  text: string;
  /** `key:=JSON`: the value is JSON as written, not typed by the schema. */
  json: boolean;
}

/** The arguments as given, before the tool's schema is known. */
export type GivenArguments =
  | { form: "none" }
  | { form: "object"; value: JsonObject }
  | { form: "pairs"; pairs: ArgumentPair[] };

/** The typed arguments, and what the caller may want to say about them (keys the schema does not list). */
export interface TypedArguments {
  args: JsonObject;
  warnings: string[];
}

/** The longest args file or stdin read: arguments, not a data channel. */
export const MAX_ARGS_FILE_CHARS = 16 * 1024 * 1024;
/**
 * Levels of nesting the arguments may have, the object itself being the first: as deep as a
 * result is shown (common/bounded.ts). Deeper arguments are refused before they are parsed or
 * sent: JSON.stringify of the request recurses once per level, and overflows the stack (Node,
 * about 5,000 levels) long before 16 MiB of `[[[…]]]` ends.
 */
export const MAX_ARGUMENTS_DEPTH = DEFAULT_MAX_DEPTH;
/** What is said of arguments nested too deep. */
const tooDeep = `nested deeper than ${MAX_ARGUMENTS_DEPTH} levels, the most mcpwire sends as a tool's arguments; ` +
  "flatten it, or pass the deep part as a JSON string or in a file the tool reads";
/** Levels of a schema followed when typing or checking a value; deeper is taken as it is. */
const MAX_SCHEMA_DEPTH = 32;
/**
 * Schema nodes visited while typing one command line's arguments. A server's schema can nest
 * anyOf in anyOf so that trying every branch takes forever; past this budget a value is taken
 * as it is (JSON, else text) and judging it is left to the server.
 */
const MAX_STEPS = 100_000;
let steps = 0;
/** Enum members named in a message. */
const MAX_CHOICES = 10;

const EXAMPLE = `a=2 name=hi tags=[x,y] or '{"a":2}'`;

/**
 * The words after the tool name: nothing, one JSON object, or `key=value` words. Checks the
 * form only (no schema yet): a word that is no pair, an empty or repeated key.
 */
export function parseArgumentWords(words: readonly string[]): GivenArguments {
  if (words.length === 0) return { form: "none" };
  const [first = ""] = words;
  if (words.length === 1 && /^\s*[[{]/.test(first)) return { form: "object", value: jsonObject(first, "the JSON argument") };
  const pairs: ArgumentPair[] = [];
  const seen = new Set<string>();
  for (const word of words) {
    const eq = word.indexOf("=");
    if (/^\s*\{/.test(word)) {
      throw new CallArgumentsError(`a JSON object cannot be combined with key=value arguments (got ${quote(word)}); give one or the other`, "mixed-forms");
    }
    if (eq === -1) {
      throw new CallArgumentsError(`argument ${quote(word)} is not key=value; write the arguments as ${EXAMPLE}`, "not-a-pair");
    }
    const json = eq > 0 && word[eq - 1] === ":";
    const key = word.slice(0, json ? eq - 1 : eq);
    if (key === "") throw new CallArgumentsError(`argument ${quote(word)} has no key before "="; write key=value`, "not-a-pair");
    if (seen.has(key)) {
      throw new CallArgumentsError(`argument "${key}" is given twice; give each key once (an array is written ${key}=[x,y])`, "duplicate-key");
    }
    seen.add(key);
    pairs.push({ key, text: word.slice(eq + 1), json });
  }
  return { form: "pairs", pairs };
}

/** Where an args file is read from: the file system and stdin (tests may pass their own). */
export interface ArgumentSources {
  file: (path: string) => Promise<string>;
  stdin: () => Promise<string>;
}

/** This process's files and stdin. */
export const RUNTIME_SOURCES: ArgumentSources = {
  file: (path) => runtime.readTextFile(path),
  stdin: readStdin,
};

/**
 * All of stdin (to its end), at most MAX_ARGS_FILE_CHARS: the pieces as they arrive, joined
 * once at the end (linear however the input is cut); past the limit the reading stops at once.
 */
async function readStdin(): Promise<string> {
  const input = runtime.stdinLines();
  const parts: string[] = [];
  let length = 0;
  for (let text = await input.readText(); text !== undefined; text = await input.readText()) {
    length += text.length;
    if (length > MAX_ARGS_FILE_CHARS) {
      throw new CallArgumentsError(
        `stdin (--args-file -) is longer than ${MAX_ARGS_FILE_CHARS} characters; arguments that large belong in a file the tool reads`,
        "args-file",
      );
    }
    parts.push(text);
  }
  return parts.join("");
}

/**
 * The arguments in a JSON file, or on stdin for `-`. A file that is missing or unreadable,
 * text that is not a JSON object: a CallArgumentsError naming it.
 */
export async function readArgumentsFile(path: string, read: ArgumentSources = RUNTIME_SOURCES): Promise<GivenArguments> {
  const source = path === "-" ? "stdin (--args-file -)" : `--args-file "${path}"`;
  let text: string;
  try {
    text = path === "-" ? await read.stdin() : await read.file(path);
  } catch (error) {
    if (error instanceof CallArgumentsError) throw error;
    const reason = error instanceof FileError
      ? error.code === "ENOENT" ? "no such file" : error.code === "EISDIR" ? "it is a directory" : error.code === "EACCES" ? "permission denied" : error.message
      : error instanceof Error
      ? error.message
      : String(error);
    throw new CallArgumentsError(`cannot read ${source}: ${reason}; give a JSON file of the arguments, or - for stdin`, "args-file", { cause: error });
  }
  if (text.length > MAX_ARGS_FILE_CHARS) {
    throw new CallArgumentsError(
      `${source} is longer than ${MAX_ARGS_FILE_CHARS} characters; arguments that large belong in a file the tool reads`,
      "args-file",
    );
  }
  if (text.trim() === "") throw new CallArgumentsError(`${source} is empty; write a JSON object of the arguments, such as {"a":2}`, "not-json");
  return { form: "object", value: jsonObject(text, source) };
}

/**
 * The arguments typed by the tool's input schema, checked before the call: each `key=value`
 * typed by its property's schema, every required property present. `who` names the tool in
 * messages (`server "everything", tool "get-sum"`).
 */
export function typeArguments(given: GivenArguments, inputSchema: unknown, who: string): TypedArguments {
  const schema = isObject(inputSchema) ? inputSchema : {};
  const properties = isObject(schema.properties) ? schema.properties : {};
  const names = Object.keys(properties);
  const listed = names.length === 0 ? "it lists none" : `it lists ${listOf(names)}`;
  const warnings: string[] = [];
  /** Given keys the schema does not list, each with the nearest listed names ("" when none is near). */
  const unlisted: { key: string; near: string }[] = [];
  /** Whether `key` is a listed parameter; one that is not is refused (additionalProperties: false) or warned of. */
  const listedKey = (key: string): boolean => {
    if (Object.hasOwn(properties, key)) return true;
    const near = didYouMean(suggestNames(key, names));
    if (schema.additionalProperties === false) {
      throw new CallArgumentsError(`${who} has no parameter "${key}" (${listed})${near === "" ? "" : `; ${near}`}`, "unknown-parameter");
    }
    unlisted.push({ key, near });
    warnings.push(`${who}: "${key}" is not a parameter its schema lists (${listed}); sent as given${near === "" ? "" : `; ${near}`}`);
    return false;
  };
  steps = 0;
  let args: JsonObject;
  if (given.form === "none") args = {};
  else if (given.form === "object") {
    args = given.value;
    // A JSON object is sent as written; a key the schema does not list still gets its nearest names.
    if (names.length > 0 || schema.additionalProperties === false) { for (const key of Object.keys(args)) listedKey(key); }
  } else {
    const entries: [string, unknown][] = [];
    for (const pair of given.pairs) {
      const property = listedKey(pair.key) ? properties[pair.key] : isObject(schema.additionalProperties) ? schema.additionalProperties : undefined;
      const value = pair.json ? jsonPair(pair, property, who) : typeValue(pair.text, property, pair.key, who, 0);
      // The value is one level below the arguments object.
      if (depthOf(value, MAX_ARGUMENTS_DEPTH) >= MAX_ARGUMENTS_DEPTH) {
        throw new CallArgumentsError(`${who}: argument ${pair.key} is ${tooDeep}`, "too-deep");
      }
      entries.push([pair.key, value]);
    }
    // fromEntries: every key an own property, `__proto__` included.
    args = Object.fromEntries(entries);
  }
  const required = Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === "string") : [];
  const missing = required.filter((name) => !Object.hasOwn(args, name));
  if (missing.length > 0) {
    const shown = missing.slice(0, MAX_CHOICES);
    const more = missing.length > shown.length ? ` and ${missing.length - shown.length} more` : "";
    const own = (name: string) => (Object.hasOwn(properties, name) ? properties[name] : undefined);
    const described = shown.map((name) => `${name} (${schemaType(own(name))}${describedAs(own(name))})`);
    const needs = `the required argument${missing.length === 1 ? "" : "s"} ${described.join(", ")}${more}; ` +
      `add ${shown.map((name) => `${name}=…`).join(" ")} (\`mcpwire tools --signatures\` shows every parameter)`;
    // A misspelt parameter is the likely reason one is missing: it leads, with its nearest names.
    const typo = unlisted.find((each) => each.near !== "");
    throw new CallArgumentsError(
      typo === undefined ? `${who}: missing ${needs}` : `${who} has no parameter "${typo.key}" (${typo.near}), and misses ${needs}`,
      typo === undefined ? "missing-required" : "unknown-parameter",
    );
  }
  return { args, warnings };
}

// --- typing one value --------------------------------------------------------------------------

/** A value a schema may accept, with how specific the reading is (lower wins). */
interface Reading {
  value: unknown;
  rank: number;
}

// When a schema allows several types, the most specific reading of the text wins: `2` under
// number|string is the number, `null` under string|null is null, `abc` can only be the string.
const RANK = { literal: 0, null: 1, boolean: 2, integer: 3, number: 4, array: 5, object: 6, string: 7, any: 8 } as const;

/** A number as people write it: 2, -1.5, 1e3, .5 (not hex, not empty, not Infinity). */
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** `text` as the value `schema` asks for, or a CallArgumentsError naming `path` and the type. */
function typeValue(text: string, schema: unknown, path: string, who: string, depth: number): unknown {
  const readings = readingsOf(text, schema, depth);
  if (readings.length === 0) throw mismatch(text, schema, path, who);
  return best(readings).value;
}

function readingsOf(text: string, schema: unknown, depth: number): Reading[] {
  if (++steps > MAX_STEPS || !isObject(schema) || depth >= MAX_SCHEMA_DEPTH) return [anyReading(text)];
  if (Array.isArray(schema.enum)) return literalReadings(text, schema.enum);
  if ("const" in schema) return literalReadings(text, [schema.const]);
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) return onePerRank(options.map((option) => readingsOf(text, option, depth + 1)));
  }
  const kinds = kindsOf(schema);
  if (kinds.length === 0) return [anyReading(text)];
  return onePerRank(kinds.map((kind) => kindReadings(text, kind, schema, depth)));
}

function kindReadings(text: string, kind: string, schema: Record<string, unknown>, depth: number): Reading[] {
  switch (kind) {
    case "string":
      return [{ value: text, rank: RANK.string }];
    case "null":
      return text === "null" ? [{ value: null, rank: RANK.null }] : [];
    case "boolean":
      return text === "true" || text === "false" ? [{ value: text === "true", rank: RANK.boolean }] : [];
    case "integer":
    case "number": {
      if (!NUMBER.test(text.trim())) return [];
      const value = Number(text);
      if (!Number.isFinite(value) || (kind === "integer" && !Number.isInteger(value))) return [];
      return [{ value, rank: RANK[kind] }];
    }
    case "array":
    case "object": {
      // JSON first (`tags='["a","b"]'`); else the loose form a shell leaves (`[x,y]`, `{k:1}`).
      const json = parseJson(text);
      if (json !== undefined && isKind(json, kind) && fits(json, schema, depth)) return [{ value: json, rank: RANK[kind] }];
      const loose = parseLoose(text);
      return loose === undefined || loose.kind !== kind ? [] : looseReadings(loose, schema, depth).filter((reading) => isKind(reading.value, kind));
    }
    default:
      return [anyReading(text)];
  }
}

/** What a schema that says nothing of its type gets: the JSON value when the text is JSON, else the text. */
function anyReading(text: string): Reading {
  const value = parseJson(text);
  if (value !== undefined) return { value, rank: RANK.any };
  const loose = /^\s*[[{]/.test(text) ? parseLoose(text) : undefined;
  return { value: loose === undefined ? text : plainValue(loose), rank: RANK.any };
}

/** The enum (or const) member the text names: itself as a string, or as JSON (`3`, `true`, `null`). */
function literalReadings(text: string, members: unknown[]): Reading[] {
  if (members.includes(text)) return [{ value: text, rank: RANK.literal }];
  const value = parseJson(text);
  if (value === undefined) return [];
  const json = jsonKey(value);
  return members.some((member) => typeof member !== "string" && jsonKey(member) === json) ? [{ value, rank: RANK.literal }] : [];
}

/** `key:=JSON`: the JSON value as written, checked against the property's type. */
function jsonPair(pair: ArgumentPair, schema: unknown, who: string): unknown {
  const value = parseJson(pair.text);
  if (value === undefined) {
    throw new CallArgumentsError(
      `${who}: argument ${pair.key}:= needs a JSON value, got ${quote(pair.text)}; write ${pair.key}=value to have it typed`,
      "not-json",
    );
  }
  if (!fits(value, schema, 0)) throw mismatch(pair.text, schema, pair.key, who);
  return value;
}

// --- the loose form ----------------------------------------------------------------------------

/** The readings of a loose value under a schema: scalars typed as readingsOf types text. */
function looseReadings(node: Loose, schema: unknown, depth: number): Reading[] {
  if (node.kind === "scalar") {
    if (!node.quoted) return readingsOf(node.text, schema, depth);
    if (!isObject(schema)) return [{ value: node.text, rank: RANK.any }];
    const readings = readingsOf(node.text, schema, depth);
    const string = readings.find((reading) => typeof reading.value === "string");
    return string === undefined ? readings : [string];
  }
  if (++steps > MAX_STEPS || !isObject(schema) || depth >= MAX_SCHEMA_DEPTH) return [{ value: plainValue(node), rank: RANK.any }];
  if (Array.isArray(schema.enum) || "const" in schema) {
    const value = plainValue(node);
    return fits(value, schema, depth) ? [{ value, rank: RANK.literal }] : [];
  }
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) return onePerRank(options.map((option) => looseReadings(node, option, depth + 1)));
  }
  const kinds = kindsOf(schema);
  if (kinds.length === 0) return [{ value: plainValue(node), rank: RANK.any }];
  if (node.kind === "array" && kinds.includes("array")) {
    const items: unknown[] = [];
    for (const item of node.items) {
      const readings = looseReadings(item, schema.items, depth + 1);
      if (readings.length === 0) return [];
      items.push(best(readings).value);
    }
    return [{ value: items, rank: RANK.array }];
  }
  if (node.kind === "object" && kinds.includes("object")) {
    const properties = isObject(schema.properties) ? schema.properties : {};
    const entries: [string, unknown][] = [];
    for (const [key, member] of node.entries) {
      const property = Object.hasOwn(properties, key) ? properties[key] : isObject(schema.additionalProperties) ? schema.additionalProperties : undefined;
      const readings = looseReadings(member, property, depth + 1);
      if (readings.length === 0) return [];
      entries.push([key, best(readings).value]);
    }
    const object = Object.fromEntries(entries);
    return fits(object, schema, depth) ? [{ value: object, rank: RANK.object }] : [];
  }
  return [];
}

/** The readings of several branches, the first of each rank only: a list never longer than the ranks. */
function onePerRank(lists: Reading[][]): Reading[] {
  const byRank = new Map<number, Reading>();
  for (const list of lists) for (const reading of list) if (!byRank.has(reading.rank)) byRank.set(reading.rank, reading);
  return [...byRank.values()];
}

function best(readings: Reading[]): Reading {
  return readings.reduce((chosen, reading) => (reading.rank < chosen.rank ? reading : chosen));
}

// --- checking a JSON value ---------------------------------------------------------------------

/**
 * Whether a JSON value fits a schema as far as types go: type, enum, const, anyOf/oneOf, items,
 * properties and required. Anything else (formats, bounds, patterns) is the server's to judge.
 */
function fits(value: unknown, schema: unknown, depth: number): boolean {
  if (schema === false) return false;
  if (++steps > MAX_STEPS || !isObject(schema) || depth >= MAX_SCHEMA_DEPTH) return true;
  if (Array.isArray(schema.enum)) {
    const json = jsonKey(value);
    return schema.enum.some((member) => jsonKey(member) === json);
  }
  if ("const" in schema) return jsonKey(schema.const) === jsonKey(value);
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) return options.some((option) => fits(value, option, depth + 1));
  }
  const kinds = kindsOf(schema);
  if (kinds.length > 0 && !kinds.some((kind) => isKind(value, kind))) return false;
  if (Array.isArray(value)) return !isObject(schema.items) || value.every((item) => fits(item, schema.items, depth + 1));
  if (isObject(value)) {
    const properties = isObject(schema.properties) ? schema.properties : {};
    const required = Array.isArray(schema.required) ? schema.required : [];
    if (!required.every((name) => typeof name !== "string" || Object.hasOwn(value, name))) return false;
    return Object.entries(value).every(([key, member]) => !Object.hasOwn(properties, key) || fits(member, properties[key], depth + 1));
  }
  return true;
}

/** A value as JSON text for comparing (enum members), bounded in depth: a deep value cannot overflow the stack. */
function jsonKey(value: unknown): string {
  return boundedJson(value, { maxDepth: MAX_SCHEMA_DEPTH, maxChars: 100_000 });
}

function isKind(value: unknown, kind: string): boolean {
  switch (kind) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value);
    case "object":
      return isObject(value);
    default:
      return true;
  }
}

/** The JSON types a schema names: `type` (a string or a list), or what its keywords imply. */
function kindsOf(schema: Record<string, unknown>): string[] {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((kind): kind is string => typeof kind === "string");
  if (isObject(schema.properties)) return ["object"];
  if (isObject(schema.items)) return ["array"];
  return [];
}

// --- messages ----------------------------------------------------------------------------------

function mismatch(text: string, schema: unknown, path: string, who: string): CallArgumentsError {
  const value = clipText(text, 80);
  const expected = isObject(schema) && Array.isArray(schema.enum)
    ? `is not one of ${schema.enum.slice(0, MAX_CHOICES).map((member) => boundedJson(member, { maxDepth: 4, maxChars: 60 })).join(", ")}${
      schema.enum.length > MAX_CHOICES ? ", …" : ""
    }`
    : `does not fit ${path}: ${clipText(schemaType(schema), 300)}`;
  return new CallArgumentsError(`${who}: argument ${path}=${value} ${expected}; ${hintFor(path, schema)}`, "type-mismatch");
}

/** How to write a value of this schema's type on the command line. */
function hintFor(path: string, schema: unknown): string {
  const kinds = isObject(schema) ? kindsOf(schema) : [];
  if (isObject(schema) && (Array.isArray(schema.enum) || "const" in schema)) return `write ${path}=<one of those>`;
  if (kinds.includes("integer")) return `write a whole number, e.g. ${path}=3`;
  if (kinds.includes("number")) return `write a number, e.g. ${path}=42`;
  if (kinds.includes("boolean")) return `write ${path}=true or ${path}=false`;
  if (kinds.includes("array")) return `write a list, e.g. ${path}=[x,y] or ${path}='["x","y"]'`;
  if (kinds.includes("object")) return `write a JSON object, e.g. ${path}='{"key":"value"}'`;
  return `write ${path}:=<JSON> for a JSON value`;
}

/** `: Second number` from a property's description, or "". */
function describedAs(schema: unknown): string {
  return isObject(schema) && typeof schema.description === "string" && schema.description.trim() !== ""
    ? `: ${clipText(schema.description.replace(/\s+/g, " ").trim(), 80)}`
    : "";
}

function listOf(names: string[]): string {
  return names.length > 12 ? `${names.slice(0, 12).join(", ")}, …` : names.join(", ");
}

function quote(word: string): string {
  return JSON.stringify(clipText(word, 80));
}

/** The last text parsed and its value: schema branches ask for the same text again and again. */
let lastParsed: { text: string; value: unknown } | undefined;

function parseJson(text: string): unknown {
  if (lastParsed?.text === text) return lastParsed.value;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  lastParsed = { text, value };
  return value;
}

/**
 * Text that must be one JSON object: the argument, a file or stdin (`source` names it). Its
 * depth is counted in the text first, so that nothing deeper than MAX_ARGUMENTS_DEPTH is parsed.
 */
function jsonObject(text: string, source: string): JsonObject {
  if (jsonTextDepth(text, MAX_ARGUMENTS_DEPTH + 1) > MAX_ARGUMENTS_DEPTH) throw new CallArgumentsError(`${source} is ${tooDeep}`, "too-deep");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CallArgumentsError(
      `${source} is not valid JSON (${(error as Error).message}); pass an object like '{"message":"hi"}', or key=value words`,
      "not-json",
    );
  }
  if (!isObject(value)) {
    throw new CallArgumentsError(
      `${source} must be a JSON object like '{"message":"hi"}', not ${Array.isArray(value) ? "an array" : clipText(JSON.stringify(value), 80)}`,
      "not-object",
    );
  }
  return value as JsonObject;
}
