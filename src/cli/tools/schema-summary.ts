// A one-line summary of a tool's input schema for humans: `(message*: string, count: number)`.
// `*` marks a required property. Only the top level is shown; nested shapes get their type.
// The schema is the server's: how deep it goes is bounded here, so it never overflows the stack.

import { boundedJson } from "../../common/bounded.ts";
import { isObject } from "../../common/json.ts";

/** How many levels of items/anyOf/oneOf a type is spelled out to; deeper ones are "…". */
const MAX_TYPE_DEPTH = 8;
const VALUE_BOUNDS = { maxDepth: 4, maxChars: 80 };

type Schema = Record<string, unknown>;

/** A short type for one property schema: string, number, "a"|"b", string[], object, … */
export function typeOf(schema: unknown, depth = 0): string {
  if (!isObject(schema)) return "any";
  if (depth >= MAX_TYPE_DEPTH) return "…";
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => boundedJson(value, VALUE_BOUNDS)).join("|");
  if ("const" in schema) return boundedJson(schema.const, VALUE_BOUNDS);
  const type = schema.type;
  if (type === "array") return `${typeOf(schema.items, depth + 1)}[]`;
  if (typeof type === "string") return type;
  if (Array.isArray(type)) return type.map(String).join("|");
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = schema[key];
    if (Array.isArray(options)) return options.map((option) => typeOf(option, depth + 1)).join("|");
  }
  return "any";
}

export function summarizeInputSchema(schema: unknown): string {
  if (!isObject(schema) || !isObject(schema.properties)) return "()";
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const parts = Object.entries(schema.properties).map(
    ([name, property]) => `${name}${required.has(name) ? "*" : ""}: ${typeOf(property)}`,
  );
  return `(${parts.join(", ")})`;
}
