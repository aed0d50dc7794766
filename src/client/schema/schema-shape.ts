// Whether a schema is well formed for its dialect, for the interpreting validator: keyword by
// keyword, what ajv learns by checking a schema against the dialect's meta-schema, checked
// without the meta-schemas (each is kilobytes a browser bundle would carry). The keywords a
// dialect does not have (`prefixItems` in a draft-07 schema) are unknown there: not checked,
// and not applied (json-schema-interpreter.ts asks isForeignKeyword).

import { isObject } from "../../common/json.ts";
import { ONE_SCHEMA_KEYWORDS, SCHEMA_LIST_KEYWORDS, SCHEMA_MAP_KEYWORDS } from "../../common/schema-keywords.ts";
import { jsonEqual } from "./json-equal.ts";
import type { Dialect } from "./schema-validator.ts";

const TYPES = new Set(["array", "boolean", "integer", "null", "number", "object", "string"]);
/** Keywords whose value is a count: a whole number, at least 0. */
const COUNTS = ["minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "minContains", "maxContains"];
const NUMBERS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"];
const STRINGS = ["$ref", "$id", "$anchor", "format"];

/** Keywords a dialect does not have (later drafts added them; 2020-12 replaced $recursiveRef): unknown there, so ignored. */
const FOREIGN: Record<Dialect, readonly string[]> = {
  "2020-12": ["$recursiveRef", "$recursiveAnchor", "additionalItems"],
  "2019-09": ["prefixItems"],
  "draft-07": [
    "prefixItems",
    "dependentRequired",
    "dependentSchemas",
    "unevaluatedProperties",
    "unevaluatedItems",
    "minContains",
    "maxContains",
    "$recursiveRef",
    "$recursiveAnchor",
    "$anchor",
  ],
  "draft-06": [
    "prefixItems",
    "dependentRequired",
    "dependentSchemas",
    "unevaluatedProperties",
    "unevaluatedItems",
    "minContains",
    "maxContains",
    "$recursiveRef",
    "$recursiveAnchor",
    "$anchor",
  ],
};

/** Whether `dialect` lacks `keyword` (a later draft added it, or 2020-12 replaced it): it is then an unknown keyword, ignored. */
export function isForeignKeyword(dialect: Dialect, keyword: string): boolean {
  return FOREIGN[dialect].includes(keyword);
}

/** `schema` without the keywords `dialect` lacks (a shallow copy when it has any). */
function ownKeywords(schema: Record<string, unknown>, dialect: Dialect): Record<string, unknown> {
  if (!FOREIGN[dialect].some((key) => Object.hasOwn(schema, key))) return schema;
  return Object.fromEntries(Object.entries(schema).filter(([key]) => !isForeignKeyword(dialect, key)));
}

function isStringList(value: unknown): boolean {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, "u"); // a regular expression, not code generation: allowed under any CSP
    return true;
  } catch {
    return false;
  }
}

/** Why one schema object's own keywords are malformed (its subschemas aside), or undefined. */
function keywordProblem(schema: Record<string, unknown>, dialect: Dialect): string | undefined {
  const type = schema.type;
  if (type !== undefined) {
    const names = Array.isArray(type) ? type : [type];
    if (!names.every((name) => typeof name === "string" && TYPES.has(name)) || new Set(names).size !== names.length) {
      return `"type" must be one of ${[...TYPES].join(", ")} or a list of distinct ones (got ${JSON.stringify(type)})`;
    }
  }
  for (const key of COUNTS) {
    const value = schema[key];
    if (value !== undefined && !(Number.isInteger(value) && (value as number) >= 0)) return `"${key}" must be a whole number of at least 0`;
  }
  for (const key of NUMBERS) {
    if (schema[key] !== undefined && typeof schema[key] !== "number") return `"${key}" must be a number`;
  }
  if (schema.multipleOf !== undefined && !(typeof schema.multipleOf === "number" && schema.multipleOf > 0)) {
    return `"multipleOf" must be a number greater than 0`;
  }
  for (const key of STRINGS) {
    if (schema[key] !== undefined && typeof schema[key] !== "string") return `"${key}" must be a string`;
  }
  if (schema.required !== undefined && !isStringList(schema.required)) return `"required" must be an array of strings`;
  // draft-06 schemas are not checked against a meta-schema by ajv (ajv-validator.ts): duplicates pass there.
  const distinct = (list: unknown[]) => list.every((item, index) => list.findIndex((other) => jsonEqual(item, other)) === index);
  if (dialect !== "draft-06" && !distinct(schema.required as unknown[] ?? [])) return `"required" must not name a property twice`;
  if (schema.enum !== undefined && !(Array.isArray(schema.enum) && schema.enum.length > 0)) return `"enum" must be a non-empty array`;
  if (dialect === "draft-07" && !distinct(schema.enum as unknown[] ?? [])) return `"enum" must not list a value twice (draft-07)`;
  if (schema.uniqueItems !== undefined && typeof schema.uniqueItems !== "boolean") return `"uniqueItems" must be a boolean`;
  if (typeof schema.pattern === "string" ? !compiles(schema.pattern) : schema.pattern !== undefined) return `"pattern" must be a regular expression`;
  if (isObject(schema.patternProperties)) {
    const bad = Object.keys(schema.patternProperties).find((pattern) => !compiles(pattern));
    if (bad !== undefined) return `"patternProperties" has ${JSON.stringify(bad)}, which is not a regular expression`;
  }
  if (schema.$dynamicRef !== undefined) return `"$dynamicRef" is not supported by the interpreting validator`;
  if (schema.$recursiveRef !== undefined) return `"$recursiveRef" is not supported by the interpreting validator`;
  // 2020-12: a tuple is prefixItems; `items` is one schema (draft-07 and 2019-09 allow an array).
  if (dialect === "2020-12" && Array.isArray(schema.items)) return `"items" must be a schema in 2020-12 (a list of schemas is "prefixItems")`;
  return undefined;
}

/** The schemas directly inside `schema` (with their JSON Pointer), or why one is not a schema. */
function subschemas(schema: Record<string, unknown>, at: string): [string, unknown][] | string {
  const found: [string, unknown][] = [];
  const isSchema = (value: unknown) => isObject(value) || typeof value === "boolean";
  for (const key of ONE_SCHEMA_KEYWORDS) {
    if (schema[key] === undefined) continue;
    if (!isSchema(schema[key])) return `${at}/${key} must be a schema (an object or a boolean)`;
    found.push([`${at}/${key}`, schema[key]]);
  }
  const items = schema.items;
  if (items !== undefined) {
    const list = Array.isArray(items) ? items : [items];
    if (!list.every(isSchema)) return `${at}/items must be a schema or a list of schemas`;
    list.forEach((item, index) => found.push([Array.isArray(items) ? `${at}/items/${index}` : `${at}/items`, item]));
  }
  for (const key of SCHEMA_LIST_KEYWORDS) {
    const list = schema[key];
    if (list === undefined) continue;
    if (!Array.isArray(list) || list.length === 0 || !list.every(isSchema)) return `${at}/${key} must be a non-empty list of schemas`;
    list.forEach((item, index) => found.push([`${at}/${key}/${index}`, item]));
  }
  for (const key of SCHEMA_MAP_KEYWORDS) {
    const map = schema[key];
    if (map === undefined) continue;
    if (!isObject(map)) return `${at}/${key} must be an object of schemas`;
    for (const [name, item] of Object.entries(map)) {
      if (!isSchema(item)) return `${at}/${key}/${name} must be a schema (an object or a boolean)`;
      found.push([`${at}/${key}/${name}`, item]);
    }
  }
  // draft-07's dependencies: per property, the names it needs or a schema.
  if (isObject(schema.dependencies)) {
    for (const [name, item] of Object.entries(schema.dependencies)) {
      if (isSchema(item)) found.push([`${at}/dependencies/${name}`, item]);
      else if (!isStringList(item)) return `${at}/dependencies/${name} must be a schema or an array of strings`;
    }
  }
  return found;
}

/**
 * Why `schema` is not a well-formed schema of `dialect` ("#/properties/n: …"), or undefined.
 * The keywords `dialect` does not have are not looked at. Walks without recursion: the depth is
 * the server's.
 */
export function schemaProblem(schema: unknown, dialect: Dialect): string | undefined {
  const pending: [string, unknown][] = [["#", schema]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [at, node] = next;
    if (typeof node === "boolean") continue;
    if (!isObject(node)) return `${at} must be a schema (an object or a boolean)`;
    const own = ownKeywords(node, dialect);
    const problem = keywordProblem(own, dialect);
    if (problem !== undefined) return `${at}: ${problem}`;
    const inner = subschemas(own, at);
    if (typeof inner === "string") return inner;
    for (const item of inner) pending.push(item);
  }
  return undefined;
}
