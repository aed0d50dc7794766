// Arguments for a tool the check calls by itself (`--call-read-only`): a minimal instance of the
// tool's inputSchema — its required properties only, each from the schema's own const, enum,
// default or examples first, else the least value of its type within its bounds — and given
// only when the project's validator accepts it against the whole schema. Where it cannot be
// made with confidence (a pattern none of a few candidates matches, a $ref that leaves the
// document, contradicting bounds) there are no arguments, and the caller skips the tool saying so.
// JSON Schema 2020-12 (the default dialect, spec 2025-11-25 basic "JSON Schema Usage"), draft-07.

import type { JsonObject } from "../client/types.ts";
import { isObject } from "../common/json.ts";
import { fragmentTarget } from "../common/json-pointer.ts";
import { conforms } from "./tool-call.ts";

/** Nesting followed before giving up ($ref chains, objects in objects). */
const MAX_DEPTH = 24;
/** Array items made for a minItems: past this the schema is not "minimal" enough to guess. */
const MAX_ITEMS = 16;
const MAX_STRING = 256;

/** Strings for a `format` (JSON Schema 2020-12 validation §7.3), each valid for it. */
const FORMATS: Readonly<Record<string, string>> = {
  "date-time": "2025-01-01T00:00:00Z",
  date: "2025-01-01",
  time: "00:00:00Z",
  duration: "P1D",
  email: "user@example.com",
  "idn-email": "user@example.com",
  hostname: "example.com",
  "idn-hostname": "example.com",
  ipv4: "127.0.0.1",
  ipv6: "::1",
  uri: "https://example.com/",
  "uri-reference": "https://example.com/",
  iri: "https://example.com/",
  "iri-reference": "https://example.com/",
  url: "https://example.com/",
  uuid: "00000000-0000-4000-8000-000000000000",
  "json-pointer": "",
  regex: ".*",
};
/** Strings tried against a `pattern`, in order. */
const PATTERN_CANDIDATES = [
  "a",
  "example",
  "0",
  "1",
  "A",
  "abc",
  "a1",
  "example.com",
  "https://example.com/",
  "user@example.com",
  "2025-01-01",
  "a-b",
  "a_b",
  "",
];

type Made = { value: unknown } | undefined;

/**
 * A minimal valid instance of a tool's inputSchema (required properties only; const, enum,
 * default and examples first), checked against the schema; undefined when none can be made
 * with confidence — the caller then skips the tool, saying so.
 */
export function argumentsFor(inputSchema: unknown): JsonObject | undefined {
  if (!isObject(inputSchema)) return undefined;
  let made: Made;
  try {
    made = new Maker(inputSchema).make(inputSchema, 0);
  } catch {
    return undefined; // a schema shaped past what the maker reads (a cycle, a getter): no arguments
  }
  if (made === undefined || !isObject(made.value)) return undefined;
  return conforms(inputSchema, made.value) === true ? made.value : undefined;
}

class Maker {
  readonly #root: JsonObject;

  constructor(root: JsonObject) {
    this.#root = root;
  }

  make(schema: unknown, depth: number): Made {
    if (depth > MAX_DEPTH) return undefined;
    if (schema === true) return { value: null };
    if (!isObject(schema)) return undefined;
    if ("const" in schema) return { value: schema.const };
    if (Array.isArray(schema.enum)) return schema.enum.length > 0 ? { value: schema.enum[0] } : undefined;
    // The schema's own choices first; the whole instance is validated at the end.
    if ("default" in schema && schema.default !== undefined) return { value: schema.default };
    if (Array.isArray(schema.examples) && schema.examples.length > 0) return { value: schema.examples[0] };
    if (typeof schema.$ref === "string") {
      const target = this.#resolve(schema.$ref);
      if (target === undefined) return undefined;
      const { $ref: _ref, ...rest } = schema;
      return this.make(Object.keys(rest).length === 0 ? target : merged([target, rest]), depth + 1);
    }
    if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
      const { allOf, ...rest } = schema;
      const parts = allOf.map((part: unknown) => (isObject(part) && typeof part.$ref === "string" ? this.#resolve(part.$ref) : part));
      if (!parts.every(isObject)) return undefined;
      return this.make(merged([rest, ...(parts as JsonObject[])]), depth + 1);
    }
    for (const keyword of ["anyOf", "oneOf"] as const) {
      const choices = schema[keyword];
      if (!Array.isArray(choices)) continue;
      const { [keyword]: _choices, ...rest } = schema;
      for (const choice of choices) {
        const candidate = isObject(choice) ? merged([rest, choice]) : choice;
        const made = this.make(candidate, depth + 1);
        // A choice that refers elsewhere cannot be checked alone: the whole instance is, at the end.
        if (made !== undefined && (!isObject(candidate) || conforms(candidate, made.value) !== false)) return made;
      }
      return undefined;
    }
    return this.#ofType(schema, typeOf(schema), depth);
  }

  #ofType(schema: JsonObject, type: string | undefined, depth: number): Made {
    switch (type) {
      case "object":
        return this.#object(schema, depth);
      case "array":
        return this.#array(schema, depth);
      case "string":
        return stringFor(schema);
      case "integer":
      case "number":
        return numberFor(schema, type === "integer");
      case "boolean":
        return { value: false };
      case "null":
        return { value: null };
      default:
        // No type and nothing that implies one: any value is valid; a short string is the likeliest to be meant.
        return { value: "a" };
    }
  }

  #object(schema: JsonObject, depth: number): Made {
    const properties = isObject(schema.properties) ? schema.properties : {};
    const required = Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === "string") : [];
    const value: JsonObject = {};
    for (const name of new Set(required)) {
      const property = Object.hasOwn(properties, name) ? properties[name] : (schema.additionalProperties ?? true);
      const made = this.make(property, depth + 1);
      if (made === undefined) return undefined;
      Object.defineProperty(value, name, { value: made.value, enumerable: true, writable: true, configurable: true });
    }
    if (typeof schema.minProperties === "number" && schema.minProperties > Object.keys(value).length) return undefined;
    return { value };
  }

  #array(schema: JsonObject, depth: number): Made {
    const min = typeof schema.minItems === "number" ? Math.ceil(schema.minItems) : 0;
    if (min === 0) return { value: [] };
    if (min > MAX_ITEMS) return undefined;
    const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : [];
    const rest = Array.isArray(schema.items) ? schema.additionalItems : schema.items;
    const value: unknown[] = [];
    for (let index = 0; index < min; index++) {
      const made = this.make(index < prefix.length ? prefix[index] : (rest ?? true), depth + 1);
      if (made === undefined) return undefined;
      value.push(made.value);
    }
    // The same item made twice is not unique: too far from minimal to guess.
    if (schema.uniqueItems === true && min > 1) return undefined;
    return { value };
  }

  /** A `$ref` inside this document (`#`, `#/$defs/…`, `#/definitions/…`); undefined for any other. */
  #resolve(ref: string): JsonObject | undefined {
    const at = fragmentTarget(this.#root, ref);
    return isObject(at) ? at : undefined;
  }
}

/** The schemas' keywords together (properties merged, required joined): enough for allOf of object parts. */
function merged(parts: JsonObject[]): JsonObject {
  const out: JsonObject = {};
  const properties: JsonObject = {};
  const required: unknown[] = [];
  for (const part of parts) {
    for (const [key, value] of Object.entries(part)) {
      if (key === "properties" && isObject(value)) Object.assign(properties, value);
      else if (key === "required" && Array.isArray(value)) required.push(...value);
      else if (!(key in out)) Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    }
  }
  if (Object.keys(properties).length > 0) out.properties = properties;
  if (required.length > 0) out.required = required;
  return out;
}

/** The type to make: the first listed that is not "null" (else null), or the one the keywords imply. */
function typeOf(schema: JsonObject): string | undefined {
  const type = schema.type;
  if (typeof type === "string") return type;
  if (Array.isArray(type)) {
    const named = type.filter((each): each is string => typeof each === "string");
    return named.find((each) => each !== "null") ?? named[0];
  }
  if (isObject(schema.properties) || Array.isArray(schema.required)) return "object";
  if ("items" in schema || "prefixItems" in schema || "minItems" in schema) return "array";
  if ("pattern" in schema || "minLength" in schema || "maxLength" in schema || "format" in schema) return "string";
  if ("minimum" in schema || "maximum" in schema || "exclusiveMinimum" in schema || "exclusiveMaximum" in schema || "multipleOf" in schema) return "number";
  return undefined;
}

function stringFor(schema: JsonObject): Made {
  const min = typeof schema.minLength === "number" ? Math.ceil(schema.minLength) : 0;
  const max = typeof schema.maxLength === "number" ? Math.floor(schema.maxLength) : Infinity;
  if (min > max || min > MAX_STRING) return undefined;
  const fits = (text: string) => [...text].length >= min && [...text].length <= max;
  const format = typeof schema.format === "string" && Object.hasOwn(FORMATS, schema.format) ? FORMATS[schema.format] : undefined;
  if (typeof schema.pattern === "string") {
    let pattern: RegExp;
    try {
      pattern = new RegExp(schema.pattern, "u");
    } catch {
      return undefined;
    }
    const candidates = [...(format === undefined ? [] : [format]), ...PATTERN_CANDIDATES, "a".repeat(Math.max(min, 1))];
    const found = candidates.find((text) => fits(text) && pattern.test(text));
    return found === undefined ? undefined : { value: found };
  }
  if (format !== undefined) return fits(format) ? { value: format } : undefined;
  const text = "a".repeat(Math.max(min, 1));
  return fits(text) ? { value: text } : max === 0 ? { value: "" } : undefined;
}

function numberFor(schema: JsonObject, integer: boolean): Made {
  const bound = (key: string): number | undefined => (typeof schema[key] === "number" && Number.isFinite(schema[key]) ? schema[key] : undefined);
  let low = bound("minimum");
  let high = bound("maximum");
  const step = integer ? 1 : 0.5;
  // 2020-12 exclusive bounds are numbers; draft-04's are booleans beside minimum/maximum.
  const exclusiveLow = schema.exclusiveMinimum === true ? low : bound("exclusiveMinimum");
  const exclusiveHigh = schema.exclusiveMaximum === true ? high : bound("exclusiveMaximum");
  if (exclusiveLow !== undefined) low = Math.max(low ?? -Infinity, integer ? Math.floor(exclusiveLow) + 1 : exclusiveLow + step);
  if (exclusiveHigh !== undefined) high = Math.min(high ?? Infinity, integer ? Math.ceil(exclusiveHigh) - 1 : exclusiveHigh - step);
  let value = low !== undefined && low > 0 ? low : high !== undefined && high < 0 ? high : 0;
  if (integer) value = value === high ? Math.floor(value) : Math.ceil(value);
  const multiple = bound("multipleOf");
  if (multiple !== undefined && multiple > 0) value = Math.ceil(value / multiple) * multiple;
  if ((low !== undefined && value < low) || (high !== undefined && value > high)) return undefined;
  return { value };
}
