// JSON Schema → the Gemini API's Schema object: "a select subset of an OpenAPI 3.0 schema
// object" (ai.google.dev/api/caching#Schema), which is what `functionDeclarations[].parameters` takes.
//
// The API rejects a whole request for one keyword it has no field for ("Invalid JSON payload
// received. Unknown name \"additionalProperties\""), for `properties` on a non-OBJECT node, for
// `required` names missing from `properties`, for an ARRAY without `items`, for a node without
// a type, and for top-level parameters whose `properties` is empty. So this builds the subset
// from what it understands (an allow-list) rather than deleting what it knows to be refused:
// - kept: type (upper case), description, nullable, enum (strings), format (only the ones the
//   API documents), properties, required, items, anyOf, min/maxItems, min/maxLength, pattern,
//   minimum, maximum, min/maxProperties, default;
// - rewritten: `type: [T, "null"]` and a `{type: "null"}` branch → `nullable`; several types →
//   `anyOf`; `oneOf` → `anyOf`; `const` → a one-value `enum`; local `$ref`s (`#/$defs/…`) inlined
//   (a recursive one ends as a free-form OBJECT); `allOf` merged; a schema that allows anything →
//   STRING described as "any JSON value" (Gemini has no "any");
// - what cannot be said (a number enum, an unsupported format, a non-string const) goes into
//   the description, so the model still reads it; everything else is dropped.

import { isObject, setOwn } from "../../common/json.ts";
import { fragmentTarget } from "../../common/json-pointer.ts";

export type GeminiType = "STRING" | "NUMBER" | "INTEGER" | "BOOLEAN" | "ARRAY" | "OBJECT";

export interface GeminiSchema {
  /** Left out only beside `anyOf`, whose branches carry the types. */
  type?: GeminiType;
  description?: string;
  nullable?: boolean;
  enum?: string[];
  format?: string;
  properties?: Record<string, GeminiSchema>;
  required?: string[];
  items?: GeminiSchema;
  anyOf?: GeminiSchema[];
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minProperties?: number;
  maxProperties?: number;
  default?: string | number | boolean;
}

type Json = Record<string, unknown>;

const TYPES: Readonly<Record<string, GeminiType>> = {
  string: "STRING",
  number: "NUMBER",
  integer: "INTEGER",
  boolean: "BOOLEAN",
  array: "ARRAY",
  object: "OBJECT",
};

/** The formats the API documents per type; others are noted in the description instead. */
const FORMATS: Readonly<Partial<Record<GeminiType, readonly string[]>>> = {
  STRING: ["enum", "date-time"],
  NUMBER: ["float", "double"],
  INTEGER: ["int32", "int64"],
};

/** How deep `$ref`s are followed before a schema is cut off as a free-form object. */
const MAX_REF_DEPTH = 16;

/**
 * A tool's input schema as `functionDeclarations[].parameters`, or undefined when the tool
 * takes no arguments (the API refuses an OBJECT with no properties; the field is then left out).
 */
export function toGeminiParameters(inputSchema: Json): GeminiSchema | undefined {
  const schema = toGeminiSchema(inputSchema);
  if (schema.type !== "OBJECT" || schema.properties === undefined || Object.keys(schema.properties).length === 0) return undefined;
  return schema;
}

/** One JSON Schema (draft 2020-12 or 7, as MCP tools send) in Gemini's subset. */
export function toGeminiSchema(schema: unknown, root: unknown = schema): GeminiSchema {
  return convert(schema, { root, refs: [] });
}

interface Context {
  root: unknown;
  /** The `$ref`s being expanded on the way here (a repeat is a recursive schema). */
  refs: string[];
}

function anyValue(description?: string): GeminiSchema {
  return { type: "STRING", description: joinDescription(description, "any JSON value") };
}

function joinDescription(...parts: (string | undefined)[]): string | undefined {
  const kept = parts.filter((part): part is string => part !== undefined && part !== "");
  return kept.length === 0 ? undefined : kept.join("; ");
}

function convert(input: unknown, context: Context): GeminiSchema {
  if (!isObject(input)) return anyValue(); // `true`, `{}` as a boolean schema, or nonsense
  let node = input;

  // $ref: inline a local reference, with the referring node's own keywords on top.
  if (typeof node.$ref === "string") {
    const ref = node.$ref;
    const target = ref.startsWith("#") ? fragmentTarget(context.root, ref) : undefined;
    const { $ref: _ref, ...rest } = node;
    if (target === undefined || context.refs.includes(ref) || context.refs.length >= MAX_REF_DEPTH) {
      const why = target === undefined ? `see ${ref}` : "recursive";
      const described = stringOf(rest.description) ?? (isObject(target) ? stringOf(target.description) : undefined);
      return { type: "OBJECT", description: joinDescription(described, why) };
    }
    return convert({ ...(isObject(target) ? target : {}), ...rest }, { root: context.root, refs: [...context.refs, ref] });
  }

  if (Array.isArray(node.allOf)) node = mergeAllOf(node, context);

  const description = stringOf(node.description);
  let nullable = node.nullable === true;

  // anyOf / oneOf: a null branch is `nullable`; one branch left is the schema itself.
  const union = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined;
  if (union !== undefined) {
    const branches = union.filter((branch) => {
      const isNull = isObject(branch) && branch.type === "null";
      if (isNull) nullable = true;
      return !isNull;
    });
    if (branches.length === 1) {
      const single = convert({ ...(isObject(branches[0]) ? branches[0] : {}), ...withoutUndefined({ description }) }, context);
      return withNullable(single, nullable || single.nullable === true);
    }
    if (branches.length > 1) {
      // a branch that allows anything makes the union allow anything
      if (branches.some((branch) => !isObject(branch) || Object.keys(branch).length === 0)) return withNullable(anyValue(description), nullable);
      const converted = branches.map((branch) => convert(branch, context));
      return withNullable({ anyOf: converted, ...withoutUndefined({ description }) }, nullable);
    }
  }

  // type: a string, or a list that may include "null".
  const declared = (Array.isArray(node.type) ? node.type : [node.type]).filter((type): type is string => typeof type === "string");
  if (declared.includes("null")) nullable = true;
  let types = declared.filter((type) => type !== "null" && TYPES[type] !== undefined);

  // const and enum: Gemini's enum holds strings only.
  const notes: string[] = [];
  let values: unknown[] | undefined = "const" in node ? [node.const] : Array.isArray(node.enum) ? node.enum : undefined;
  if (values !== undefined) {
    if (values.includes(null)) nullable = true;
    values = values.filter((value) => value !== null);
  }
  let enumStrings: string[] | undefined;
  if (values !== undefined && values.length > 0) {
    if (values.every((value) => typeof value === "string")) {
      enumStrings = values as string[];
      if (types.length === 0) types = ["string"];
    } else {
      notes.push(`${values.length === 1 ? "must be" : "one of"}: ${values.map((value) => JSON.stringify(value)).join(", ")}`);
    }
  }

  if (types.length === 0) {
    if (isObject(node.properties)) types = ["object"];
    else if ("items" in node) types = ["array"];
    else if (values !== undefined && values.length > 0) types = [jsonType(values[0])];
  }
  const [first] = types;
  const type = first === undefined ? undefined : TYPES[first];
  if (type === undefined) return withNullable(anyValue(joinDescription(description, ...notes)), nullable);

  if (types.length > 1) {
    const branches = types.map((type) => convert({ ...node, type, description: undefined, nullable: undefined }, context));
    return withNullable({ anyOf: branches, ...withoutUndefined({ description: joinDescription(description, ...notes) }) }, nullable);
  }

  const out: GeminiSchema = { type };
  if (enumStrings !== undefined && type === "STRING") out.enum = enumStrings;
  else if (enumStrings !== undefined) notes.push(`one of: ${enumStrings.map((value) => JSON.stringify(value)).join(", ")}`);

  const format = stringOf(node.format);
  if (format !== undefined) {
    if (FORMATS[type]?.includes(format)) out.format = format;
    else notes.push(`format: ${format}`);
  }

  switch (type) {
    case "STRING":
      copyNumber(node, out, "minLength");
      copyNumber(node, out, "maxLength");
      if (typeof node.pattern === "string") out.pattern = node.pattern;
      break;
    case "NUMBER":
    case "INTEGER":
      copyNumber(node, out, "minimum");
      copyNumber(node, out, "maximum");
      if (typeof node.exclusiveMinimum === "number") notes.push(`greater than ${node.exclusiveMinimum}`);
      if (typeof node.exclusiveMaximum === "number") notes.push(`less than ${node.exclusiveMaximum}`);
      if (typeof node.multipleOf === "number") notes.push(`a multiple of ${node.multipleOf}`);
      break;
    case "ARRAY":
      // spec: ARRAY needs `items`; a tuple's (`prefixItems`, array `items`) cannot be said, so any value
      out.items = isObject(node.items) ? convert(node.items, context) : anyValue();
      copyNumber(node, out, "minItems");
      copyNumber(node, out, "maxItems");
      if (node.uniqueItems === true) notes.push("items are unique");
      break;
    case "OBJECT": {
      const properties = isObject(node.properties) ? node.properties : {};
      const names = Object.keys(properties);
      if (names.length > 0) {
        out.properties = {};
        // The server's parameter names: `__proto__` is a parameter like any other.
        for (const name of names) setOwn(out.properties, name, convert(properties[name], context));
        // spec: every `required` name must be one of `properties`
        const required = Array.isArray(node.required) ? node.required.filter((name): name is string => typeof name === "string" && names.includes(name)) : [];
        if (required.length > 0) out.required = [...new Set(required)];
      }
      copyNumber(node, out, "minProperties");
      copyNumber(node, out, "maxProperties");
      break;
    }
    case "BOOLEAN":
      break;
  }

  const fallback = node.default;
  if (typeof fallback === "string" || typeof fallback === "number" || typeof fallback === "boolean") out.default = fallback;
  const text = joinDescription(description, ...notes);
  if (text !== undefined) out.description = text;
  return withNullable(out, nullable);
}

function withNullable(schema: GeminiSchema, nullable: boolean): GeminiSchema {
  if (nullable) schema.nullable = true;
  return schema;
}

function withoutUndefined<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function copyNumber<K extends "minLength" | "maxLength" | "minimum" | "maximum" | "minItems" | "maxItems" | "minProperties" | "maxProperties">(
  node: Json,
  out: GeminiSchema,
  key: K,
): void {
  const value = node[key];
  if (typeof value === "number" && Number.isFinite(value)) out[key] = value;
}

function jsonType(value: unknown): string {
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  if (typeof value === "boolean") return "boolean";
  if (Array.isArray(value)) return "array";
  if (typeof value === "object") return "object";
  return "string";
}

/** `allOf` folded into one schema: properties and required joined, other keywords first come first kept. */
function mergeAllOf(node: Json, context: Context): Json {
  const { allOf, ...rest } = node;
  const merged: Json = { ...rest };
  const properties: Json = isObject(rest.properties) ? { ...rest.properties } : {};
  const required = new Set<string>(Array.isArray(rest.required) ? rest.required.filter((name): name is string => typeof name === "string") : []);
  for (let part of allOf as unknown[]) {
    if (isObject(part) && typeof part.$ref === "string" && part.$ref.startsWith("#") && !context.refs.includes(part.$ref)) {
      const target = fragmentTarget(context.root, part.$ref);
      if (isObject(target)) part = { ...target, ...part, $ref: undefined };
    }
    if (!isObject(part)) continue;
    if (isObject(part.properties)) {
      for (const [name, value] of Object.entries(part.properties)) if (!Object.hasOwn(properties, name)) setOwn(properties, name, value);
    }
    if (Array.isArray(part.required)) { for (const name of part.required) if (typeof name === "string") required.add(name); }
    for (const [key, value] of Object.entries(part)) {
      if (key !== "properties" && key !== "required" && key !== "$ref" && value !== undefined && !Object.hasOwn(merged, key)) setOwn(merged, key, value);
    }
  }
  if (Object.keys(properties).length > 0) merged.properties = properties;
  if (required.size > 0) merged.required = [...required];
  return merged;
}
