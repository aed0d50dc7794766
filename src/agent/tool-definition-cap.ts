// What a model is offered of one tool, capped: a description past its budget is cut (at a
// character boundary, marked), an input schema past its budget is offered reduced — its
// annotations left out, else only parameter names with their types and which are required —
// and the description says so. A server's tool definition can be any size (876 KB was seen),
// and a tool once offered goes with every later request; the cap keeps that bounded. The
// registry keeps every definition whole (the Runner checks arguments against the full schema,
// so a model offered a reduced one still learns what is wrong). Spec 2025-11-25 server/tools
// leaves to the host what a model sees of a tool.

import type { JsonObject } from "../client/types.ts";
import { isObject } from "../common/json.ts";
import { ONE_SCHEMA_KEYWORDS, SCHEMA_LIST_KEYWORDS, SCHEMA_MAP_KEYWORDS } from "../common/schema-keywords.ts";
import type { LlmToolSchema } from "../registry/types.ts";

/** Bytes (UTF-8) of a tool's description a model is offered, at most: 2 KB, as Claude Code does. */
export const DEFAULT_MAX_DESCRIPTION_BYTES = 2048;
/** Bytes of a tool's input schema (JSON, UTF-8) a model is offered before it is reduced: 16 KB. */
export const DEFAULT_MAX_TOOL_SCHEMA_BYTES = 16_384;

/** The byte limits on one tool's description and input schema as offered to a model. */
export interface ToolDefinitionLimits {
  /**
   * Bytes (UTF-8) of a tool's description, at most, the cut marked (a note that the schema was
   * reduced comes after it). At least 256; default 2,048.
   */
  maxDescriptionBytes?: number;
  /** Bytes of a tool's input schema as JSON before it is offered reduced. At least 256; default 16,384. */
  maxSchemaBytes?: number;
}

/** How far an input schema was reduced to fit its budget. */
export type SchemaReduction =
  /** Descriptions, titles, examples and defaults left out; the structure whole. */
  | "annotations"
  /** Only the parameter names, their types (and array item types) and which are required. */
  | "names-and-types"
  /** Only the required parameters with their types. */
  | "required-only"
  /** `{"type": "object"}`: nothing of the parameters fitted. */
  | "bare";

/** What was cut of one tool's definition: sizes in bytes, before and after. */
export interface ToolDefinitionCut {
  description?: { from: number; to: number };
  schema?: { from: number; to: number; reduction: SchemaReduction };
}

interface Entry {
  description: string;
  parameters: JsonObject;
  /** The definition offered: the registry's own when nothing was cut. */
  offered: LlmToolSchema | undefined;
  cut: ToolDefinitionCut | undefined;
}

const encoder = new TextEncoder();

/**
 * The cap of one Runner: each tool's offered definition computed once per definition (the same
 * object while the tool is unchanged, so a list compares equal from request to request).
 */
export class ToolDefinitionCap {
  readonly #maxDescription: number;
  readonly #maxSchema: number;
  readonly #off: boolean;
  readonly #entries = new Map<string, Entry>();
  readonly #warned = new Set<string>();

  constructor(limits: ToolDefinitionLimits | false = {}) {
    this.#off = limits === false;
    const given = limits === false ? {} : limits;
    this.#maxDescription = whole("maxDescriptionBytes", given.maxDescriptionBytes, DEFAULT_MAX_DESCRIPTION_BYTES);
    this.#maxSchema = whole("maxSchemaBytes", given.maxSchemaBytes, DEFAULT_MAX_TOOL_SCHEMA_BYTES);
  }

  /** The definition to offer a model: `schema` itself when within the limits, else a cut copy. */
  apply(schema: LlmToolSchema): LlmToolSchema {
    if (this.#off) return schema;
    let entry = this.#entries.get(schema.name);
    if (entry === undefined || entry.description !== schema.description || entry.parameters !== schema.parameters) {
      entry = this.#cut(schema);
      this.#entries.set(schema.name, entry);
    }
    return entry.offered ?? schema;
  }

  /** What apply() cut of the tool named `name` (its last definition), or undefined when nothing. */
  cutOf(name: string): ToolDefinitionCut | undefined {
    return this.#entries.get(name)?.cut;
  }

  /**
   * The warning for a tool whose definition was cut, the first time it is asked for that tool
   * (once per tool for the life of this cap); undefined otherwise. `who` names the tool.
   */
  warningOnce(name: string, who: string): string | undefined {
    const cut = this.cutOf(name);
    if (cut === undefined || this.#warned.has(name)) return undefined;
    this.#warned.add(name);
    const parts: string[] = [];
    if (cut.description) parts.push(`its description of ${sizeText(cut.description.from)} cut to ${sizeText(cut.description.to)}`);
    if (cut.schema) parts.push(`its input schema of ${sizeText(cut.schema.from)} reduced to ${sizeText(cut.schema.to)} (${REDUCED[cut.schema.reduction]})`);
    return `${who}: the model is offered ${parts.join(" and ")}; ` +
      "raise tool_definitions.max_description_bytes / max_schema_bytes in the config to offer more (the tool itself is unchanged)";
  }

  #cut(schema: LlmToolSchema): Entry {
    const entry: Entry = { description: schema.description, parameters: schema.parameters, offered: undefined, cut: undefined };
    const cut: ToolDefinitionCut = {};
    let description = schema.description;
    // UTF-8 takes at most 3 bytes per UTF-16 unit: a short text needs no encoding to be measured.
    if (description.length * 3 > this.#maxDescription) {
      const bytes = utf8Length(description);
      if (bytes > this.#maxDescription) {
        description = cutDescription(description, bytes, this.#maxDescription);
        cut.description = { from: bytes, to: utf8Length(description) };
      }
    }
    let parameters = schema.parameters;
    const schemaBytes = utf8Length(JSON.stringify(parameters));
    if (schemaBytes > this.#maxSchema) {
      const reduced = reduceSchema(parameters, this.#maxSchema);
      parameters = reduced.schema;
      cut.schema = { from: schemaBytes, to: reduced.bytes, reduction: reduced.reduction };
      description += `${description === "" ? "" : "\n"}[input schema reduced by mcpwire to fit ${sizeText(this.#maxSchema)}: ${REDUCED[reduced.reduction]}; ` +
        "the arguments are still checked against the full schema, and a mismatch is explained]";
    }
    if (cut.description === undefined && cut.schema === undefined) return entry;
    entry.offered = { name: schema.name, description, parameters };
    entry.cut = cut;
    return entry;
  }
}

/** What each reduction kept, for the note to the model and the warning. */
const REDUCED: Readonly<Record<SchemaReduction, string>> = {
  annotations: "descriptions, titles, examples and defaults left out",
  "names-and-types": "only the parameter names, their types and which are required are shown",
  "required-only": "only the required parameters and their types are shown",
  bare: "no parameters could be shown",
};

/** The head of `text` that fits `max` bytes with the marker, cut at a character boundary, and the marker. */
function cutDescription(text: string, bytes: number, max: number): string {
  const marker = ` … [description cut at ${sizeText(max)} by mcpwire; the whole is ${sizeText(bytes)}]`;
  const room = Math.max(0, max - utf8Length(marker));
  // encodeInto writes whole characters only: `read` ends at a boundary (a surrogate pair is never split).
  const { read } = encoder.encodeInto(text, new Uint8Array(room));
  return text.slice(0, read) + marker;
}

/** Annotation keywords: what a model may do without when the schema is too big. */
const ANNOTATIONS = new Set([
  "description",
  "title",
  "examples",
  "example",
  "default",
  "$comment",
  "deprecated",
  "readOnly",
  "writeOnly",
  "markdownDescription",
  "enumDescriptions",
]);
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAPS = new Set(SCHEMA_MAP_KEYWORDS);
/** Keywords whose value is one schema (or, for items in older drafts, a list of them). */
const SCHEMA_ONE = new Set(["items", ...ONE_SCHEMA_KEYWORDS, "contentSchema"]);
/** Keywords whose value is a list of schemas. */
const SCHEMA_LISTS = new Set(SCHEMA_LIST_KEYWORDS);
/** Deeper than this a reduced schema stops (the rest is `{}`: any value). */
const MAX_DEPTH = 64;

/** The first reduction of `schema` that fits `max` bytes, from the mildest. */
function reduceSchema(schema: JsonObject, max: number): { schema: JsonObject; bytes: number; reduction: SchemaReduction } {
  const candidates: Array<[SchemaReduction, () => JsonObject]> = [
    ["annotations", () => withObjectType(withoutAnnotations(schema, 0))],
    ["names-and-types", () => namesAndTypes(schema, false)],
    ["required-only", () => namesAndTypes(schema, true)],
  ];
  for (const [reduction, make] of candidates) {
    const reduced = make();
    const bytes = utf8Length(JSON.stringify(reduced));
    if (bytes <= max) return { schema: reduced, bytes, reduction };
  }
  const bare = { type: "object" };
  return { schema: bare, bytes: utf8Length(JSON.stringify(bare)), reduction: "bare" };
}

/** A copy of a schema without annotation keywords, at every depth (property names are kept, even "description"). */
function withoutAnnotations(node: unknown, depth: number): JsonObject {
  if (!isObject(node)) return {};
  if (depth > MAX_DEPTH) return {};
  // Object.fromEntries defines each key as data: a property named "__proto__" stays a property.
  return Object.fromEntries(
    Object.entries(node).flatMap(([key, value]): Array<[string, unknown]> => {
      if (ANNOTATIONS.has(key)) return [];
      if (SCHEMA_MAPS.has(key) && isObject(value)) {
        return [[key, Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, withoutAnnotations(inner, depth + 1)]))]];
      }
      if (SCHEMA_ONE.has(key) && isObject(value)) return [[key, withoutAnnotations(value, depth + 1)]];
      if ((SCHEMA_LISTS.has(key) || key === "items") && Array.isArray(value)) return [[key, value.map((inner) => withoutAnnotations(inner, depth + 1))]];
      return [[key, value]];
    }),
  ) as JsonObject;
}

/** The top level as providers need it: an object schema. */
function withObjectType(schema: JsonObject): JsonObject {
  return schema.type === "object" ? schema : { ...schema, type: "object" };
}

/** The top-level parameters with only their types (and array item types), and `required`; `requiredOnly`: those alone. */
function namesAndTypes(schema: JsonObject, requiredOnly: boolean): JsonObject {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === "string") : [];
  const keep = new Set(required);
  const entries = Object.entries(properties).filter(([name]) => !requiredOnly || keep.has(name));
  return {
    type: "object",
    properties: Object.fromEntries(entries.map(([name, inner]) => [name, typeOnly(inner, 0)])) as JsonObject,
    ...(required.length > 0 ? { required } : {}),
  };
}

/** A parameter's `type` alone; an array's items the same way (providers need `items` on an array). */
function typeOnly(node: unknown, depth: number): JsonObject {
  if (!isObject(node)) return {};
  const type = node.type;
  const out: JsonObject = {};
  if (typeof type === "string" || (Array.isArray(type) && type.every((entry) => typeof entry === "string"))) out.type = type as string | string[];
  const isArray = type === "array" || (Array.isArray(type) && type.includes("array"));
  if (isArray) out.items = depth < 8 && isObject(node.items) ? typeOnly(node.items, depth + 1) : {};
  return out;
}

/** UTF-8 bytes of a string. */
function utf8Length(text: string): number {
  return encoder.encode(text).length;
}

/** 2 KB, 856.4 KB, 900 bytes. */
function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const kb = bytes / 1024;
  return `${Number.isInteger(kb) ? kb : kb.toFixed(1)} KB`;
}

function whole(what: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 256) {
    throw new RangeError(`toolDefinitions.${what} must be a whole number of bytes, at least 256 (got ${String(value)})`);
  }
  return value;
}
