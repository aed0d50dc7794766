// `mcpwire tools --signatures`: each tool as a TypeScript-style signature under its description,
// `mcp_everything_get-sum(a: number, b: number)`, its types read from the tool's inputSchema (a
// JSON Schema object — spec 2025-11-25 server/tools, "Tool" and "JSON Schema Usage"). Schemas and
// descriptions are the server's: types are bounded in depth and size, each text goes through
// output.ts (redacted, control characters made visible) and is wrapped to the width.

import { isObject } from "../../common/json.ts";
import { clipText } from "../../common/preview.ts";
import { lineOf } from "../output.ts";

/** What a signature is made of: a registered tool, and its outputSchema when the server listed one. */
export interface SignatureTool {
  name: string;
  description?: string;
  inputSchema: unknown;
  outputSchema?: unknown;
}

export interface SignatureOptions {
  /** Columns the text is wrapped to. Default 100. */
  width?: number;
}

const DEFAULT_WIDTH = 100;
/** Levels of nested schemas spelled out; deeper ones are `…`. */
const MAX_DEPTH = 6;
/** Properties of one object, members of one union or enum, shown before `…`. */
const MAX_MEMBERS = 40;
/** One inline type at most this long. */
const MAX_TYPE_CHARS = 600;
const MAX_DESCRIPTION_CHARS = 2_000;
const MAX_PARAM_DESCRIPTION_CHARS = 500;
const MAX_LITERAL_CHARS = 40;
/**
 * Schema nodes visited for one signature (or one schemaType): anyOf nested in anyOf would take
 * forever to spell out in full; past the budget the rest is `…`.
 */
const MAX_VISITS = 20_000;
let visits = 0;

type Schema = Record<string, unknown>;

/** One tool: its description as a doc comment, then its signature; lines joined, no final newline. */
export function toolSignature(tool: SignatureTool, options: SignatureOptions = {}): string {
  visits = 0;
  const width = Math.max(40, options.width ?? DEFAULT_WIDTH);
  const schema = isObject(tool.inputSchema) ? tool.inputSchema : {};
  const params = parametersOf(schema);
  return [...docComment(tool.description ?? "", params, width), ...signatureLines(lineOf(tool.name), params, tool.outputSchema, width)].join("\n");
}

/** A schema as one TypeScript-style type: `string`, `"a" | "b"`, `{ k: number; n?: string[] }`. */
export function schemaType(schema: unknown): string {
  visits = 0;
  return clipText(typeAt(schema, 0), MAX_TYPE_CHARS);
}

// --- parameters ------------------------------------------------------------------------------

interface Parameter {
  /** As written in the signature: an identifier, or a quoted name. */
  label: string;
  optional: boolean;
  schema: unknown;
}

/** The top-level properties, required ones first (as TypeScript wants them), in listing order. */
function parametersOf(schema: Schema): Parameter[] {
  const properties = isObject(schema.properties) ? Object.entries(schema.properties) : [];
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((name) => typeof name === "string") : []);
  const params = properties.slice(0, MAX_MEMBERS).map(([name, property]) => ({ label: propertyLabel(name), optional: !required.has(name), schema: property }));
  params.sort((a, b) => Number(a.optional) - Number(b.optional));
  if (properties.length > MAX_MEMBERS) params.push({ label: `…${properties.length - MAX_MEMBERS} more`, optional: false, schema: undefined });
  const extra = schema.additionalProperties;
  if (properties.length === 0 && isObject(extra)) params.push({ label: "...rest", optional: false, schema: { type: "object", additionalProperties: extra } });
  return params;
}

function propertyLabel(name: string): string {
  return lineOf(/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(clipText(name, MAX_LITERAL_CHARS)));
}

/** `name(a: number, b?: string): R`, or one parameter a line when that is wider than `width`. */
function signatureLines(name: string, params: Parameter[], outputSchema: unknown, width: number): string[] {
  const returns = outputSchema === undefined ? "" : `: ${schemaType(outputSchema)}`;
  const inline = params.map((param) => paramText(param, typeAt(param.schema, 0)));
  const oneLine = `${name}(${inline.join(", ")})${returns}`;
  if (oneLine.length <= width) return [oneLine];
  const lines = [`${name}(`];
  for (const param of params) {
    const head = `  ${paramText(param, "")}`;
    const type = param.schema === undefined ? [""] : typeLines(param.schema, head.length, 2, width, 0);
    lines.push(head + type[0], ...type.slice(1));
    lines[lines.length - 1] += ",";
  }
  lines.push(`)${returns}`);
  return lines;
}

function paramText(param: Parameter, type: string): string {
  if (param.schema === undefined) return param.label; // the "…N more" marker
  return `${param.label}${param.optional ? "?" : ""}: ${type}`;
}

/**
 * A type written over several lines when it does not fit after `column`: an object's properties
 * one a line (and an array of such objects), indented from `indent`. The first line continues
 * the line it starts on.
 */
function typeLines(schema: unknown, column: number, indent: number, width: number, depth: number): string[] {
  const inline = clipText(typeAt(schema, depth), MAX_TYPE_CHARS);
  if (column + inline.length <= width || depth >= MAX_DEPTH || !isObject(schema)) return [inline];
  const objectSchema = objectWithProperties(schema);
  const arrayItems = objectSchema === undefined && kindsOf(schema).length === 1 && kindsOf(schema)[0] === "array"
    ? objectWithProperties(schema.items)
    : undefined;
  const target = objectSchema ?? arrayItems;
  if (target === undefined) return [inline];
  const suffix = arrayItems === undefined ? "" : "[]";
  const properties = Object.entries(target.properties as Schema);
  const required = new Set(Array.isArray(target.required) ? target.required : []);
  const pad = " ".repeat(indent + 2);
  const lines = ["{"];
  for (const [name, property] of properties.slice(0, MAX_MEMBERS)) {
    const head = `${pad}${propertyLabel(name)}${required.has(name) ? "" : "?"}: `;
    const type = typeLines(property, head.length, indent + 2, width, depth + 1);
    lines.push(head + type[0], ...type.slice(1));
    lines[lines.length - 1] += ";";
  }
  if (properties.length > MAX_MEMBERS) lines.push(`${pad}…${properties.length - MAX_MEMBERS} more`);
  lines.push(`${" ".repeat(indent)}}${suffix}`);
  return lines;
}

function objectWithProperties(schema: unknown): Schema | undefined {
  if (!isObject(schema) || !isObject(schema.properties) || Object.keys(schema.properties).length === 0) return undefined;
  const kinds = kindsOf(schema);
  return kinds.length === 1 && kinds[0] === "object" ? schema : undefined;
}

// --- types -------------------------------------------------------------------------------------

/** The JSON types a schema names: `type` (a string or an array), or what its keywords imply. */
function kindsOf(schema: Schema): string[] {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((kind): kind is string => typeof kind === "string");
  if (isObject(schema.properties) || isObject(schema.additionalProperties)) return ["object"];
  if ("items" in schema || Array.isArray(schema.prefixItems)) return ["array"];
  return [];
}

function typeAt(schema: unknown, depth: number): string {
  if (schema === false) return "never";
  if (!isObject(schema)) return "unknown";
  if (depth >= MAX_DEPTH || ++visits > MAX_VISITS) return "…";
  if (Array.isArray(schema.enum)) return union(schema.enum.slice(0, MAX_MEMBERS + 1).map(literal));
  if ("const" in schema) return literal(schema.const);
  if (typeof schema.$ref === "string") return lineOf(clipText(schema.$ref.slice(schema.$ref.lastIndexOf("/") + 1) || "unknown", MAX_LITERAL_CHARS));
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) return union(options.slice(0, MAX_MEMBERS + 1).map((option) => typeAt(option, depth + 1)));
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
    return [...new Set(schema.allOf.slice(0, MAX_MEMBERS).map((part) => grouped(typeAt(part, depth + 1))))].join(" & ");
  }
  const kinds = kindsOf(schema);
  if (kinds.length === 0) return "unknown";
  return union(kinds.slice(0, MAX_MEMBERS + 1).map((kind) => kindType(kind, schema, depth)));
}

function kindType(kind: string, schema: Schema, depth: number): string {
  switch (kind) {
    case "string":
    case "number":
    case "boolean":
    case "null":
      return kind;
    case "integer":
      return "number";
    case "array":
      return arrayType(schema, depth);
    case "object":
      return objectType(schema, depth);
    default:
      return "unknown";
  }
}

function arrayType(schema: Schema, depth: number): string {
  // Tuples: prefixItems (2020-12) or an items array (draft 7 and before).
  const tuple = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : undefined;
  if (tuple !== undefined) return `[${tuple.slice(0, MAX_MEMBERS).map((item) => typeAt(item, depth + 1)).join(", ")}]`;
  return `${grouped(typeAt(schema.items, depth + 1))}[]`;
}

function objectType(schema: Schema, depth: number): string {
  const members: string[] = [];
  if (isObject(schema.properties)) {
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const properties = Object.entries(schema.properties);
    for (const [name, property] of properties.slice(0, MAX_MEMBERS)) {
      members.push(`${propertyLabel(name)}${required.has(name) ? "" : "?"}: ${typeAt(property, depth + 1)}`);
    }
    if (properties.length > MAX_MEMBERS) members.push(`…${properties.length - MAX_MEMBERS} more`);
  }
  const extra = schema.additionalProperties;
  if (isObject(extra)) {
    const value = typeAt(extra, depth + 1);
    if (members.length === 0) return `Record<string, ${value}>`;
    members.push(`[key: string]: ${value}`);
  }
  return members.length === 0 ? "object" : `{ ${members.join("; ")} }`;
}

/** `A | B`, duplicates dropped, at most MAX_MEMBERS members. */
function union(members: string[]): string {
  const unique = [...new Set(members)];
  const shown = unique.slice(0, MAX_MEMBERS);
  if (unique.length > MAX_MEMBERS) shown.push("…");
  return shown.join(" | ");
}

/** A literal type: a JSON value, a long string cut. */
function literal(value: unknown): string {
  if (typeof value === "string") return lineOf(JSON.stringify(clipText(value, MAX_LITERAL_CHARS)));
  if (value === null || typeof value === "number" || typeof value === "boolean") return String(value);
  return Array.isArray(value) ? "unknown[]" : "object";
}

/** A type in parentheses when `|` or `&` joins its top level (so `[]` or `&` binds to all of it). */
function grouped(type: string): string {
  let level = 0;
  let quoted = false;
  for (let i = 0; i < type.length; i++) {
    const char = type[i];
    if (quoted) {
      if (char === "\\") i++;
      else if (char === '"') quoted = false;
    } else if (char === '"') quoted = true;
    else if (char === "{" || char === "[" || char === "(" || char === "<") level++;
    else if (char === "}" || char === "]" || char === ")" || char === ">") level--;
    else if (level === 0 && (char === "|" || char === "&")) return `(${type})`;
  }
  return type;
}

// --- the doc comment ---------------------------------------------------------------------------

/** `/** … *\/` with the description wrapped and an `@param` line per described parameter. */
function docComment(description: string, params: Parameter[], width: number): string[] {
  const body = paragraphLines(clipText(description, MAX_DESCRIPTION_CHARS), width - 3);
  const tags: string[] = [];
  for (const param of params) {
    if (!isObject(param.schema)) continue;
    const text = typeof param.schema.description === "string" ? clipText(param.schema.description, MAX_PARAM_DESCRIPTION_CHARS) : "";
    const notes = notesOf(param.schema);
    const line = [text.replace(/\s+/g, " ").trim(), notes.length > 0 ? `(${notes.join(", ")})` : ""].filter((part) => part !== "").join(" ");
    if (line !== "") tags.push(...wrap(`@param ${param.label.replace(/^"|"$/g, "")} ${lineOf(line)}`, width - 3, "  "));
  }
  if (body.length === 0 && tags.length === 0) return [];
  if (tags.length === 0 && body.length === 1 && body[0]!.length + 7 <= width) return [`/** ${body[0]} */`];
  const lines = [...body, ...(body.length > 0 && tags.length > 0 ? [""] : []), ...tags];
  return ["/**", ...lines.map((line) => (line === "" ? " *" : ` * ${line}`)), " */"];
}

/** What a schema says beyond its type: integer, bounds, format, default, deprecated. */
function notesOf(schema: Schema): string[] {
  const notes: string[] = [];
  if (kindsOf(schema).includes("integer")) notes.push("integer");
  const bound = (key: string, text: string) => {
    if (typeof schema[key] === "number") notes.push(`${text} ${schema[key]}`);
  };
  bound("minimum", "≥");
  bound("exclusiveMinimum", ">");
  bound("maximum", "≤");
  bound("exclusiveMaximum", "<");
  bound("minLength", "length ≥");
  bound("maxLength", "length ≤");
  bound("minItems", "items ≥");
  bound("maxItems", "items ≤");
  if (typeof schema.format === "string") notes.push(`format: ${clipText(schema.format, MAX_LITERAL_CHARS)}`);
  if (typeof schema.pattern === "string") notes.push(`pattern: ${clipText(schema.pattern, MAX_LITERAL_CHARS)}`);
  if ("default" in schema) notes.push(`default: ${literalValue(schema.default)}`);
  if (schema.deprecated === true) notes.push("deprecated");
  return notes;
}

function literalValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(clipText(value, MAX_LITERAL_CHARS));
  if (value === null || typeof value === "number" || typeof value === "boolean") return String(value);
  return Array.isArray(value) ? (value.length === 0 ? "[]" : "[…]") : isObject(value) && Object.keys(value).length === 0 ? "{}" : "{…}";
}

/** A description's lines, each made visible and wrapped; runs of blank lines become one. */
function paragraphLines(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const raw of text.replace(/\r\n?/g, "\n").split("\n")) {
    const line = lineOf(raw.replace(/\t/g, " ").trimEnd()).replaceAll("*/", "*\\/");
    if (line.trim() === "") {
      if (lines.length > 0 && lines[lines.length - 1] !== "") lines.push("");
      continue;
    }
    const indent = /^\s*/.exec(line)![0].slice(0, 8);
    lines.push(...wrap(line.trimStart(), width - indent.length, "").map((part) => indent + part));
  }
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Words wrapped to `width` columns, continuation lines prefixed with `hang`; a longer word is split. */
function wrap(text: string, columns: number, hang: string): string[] {
  const width = Math.max(columns, 20 + hang.length);
  const lines: string[] = [];
  let current = "";
  for (let word of text.split(/ +/)) {
    if (word === "") continue;
    const room = () => width - (lines.length === 0 ? 0 : hang.length);
    while (current === "" && word.length > room()) {
      lines.push(word.slice(0, room()));
      word = word.slice(room());
    }
    if (current === "") current = word;
    else if (current.length + 1 + word.length <= room()) current += " " + word;
    else {
      lines.push(current);
      current = word;
      while (current.length > room()) {
        lines.push(current.slice(0, room()));
        current = current.slice(room());
      }
    }
  }
  if (current !== "") lines.push(current);
  return lines.map((line, index) => (index === 0 ? line : hang + line));
}

// --- a listing ---------------------------------------------------------------------------------

/** A registered tool as the listing needs it: its server (null for a built-in) with the rest. */
export interface ListedTool extends SignatureTool {
  server: string | null;
}

/**
 * Every tool's signature, grouped under a `// server "name": N tools` line per server, a blank
 * line between tools; ends with a newline. Empty groups are not shown.
 */
export function signatureListing(tools: readonly ListedTool[], options: SignatureOptions = {}): string {
  const groups = new Map<string | null, ListedTool[]>();
  for (const tool of tools) groups.set(tool.server, [...(groups.get(tool.server) ?? []), tool]);
  const blocks: string[] = [];
  for (const [server, members] of groups) {
    const count = `${members.length} tool${members.length === 1 ? "" : "s"}`;
    blocks.push(`// ${server === null ? "built-in tools" : `server ${lineOf(JSON.stringify(server))}`}: ${count}`);
    for (const tool of members) blocks.push(toolSignature(tool, options));
  }
  return blocks.length === 0 ? "" : blocks.join("\n\n") + "\n";
}
