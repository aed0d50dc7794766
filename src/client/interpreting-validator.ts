// The interpreting validator: @cfworker/json-schema walks the schema for each value, so nothing
// is compiled to code — it runs where `new Function` is refused (a page whose
// Content-Security-Policy lacks 'unsafe-eval', Cloudflare Workers). Its findings are given in
// ajv's words, so a message reads the same whichever validator found it. Loaded only when
// chosen (json-schema.ts imports this module dynamically).

import { dereference, format as FORMATS_OF_CFWORKER, type OutputUnit, type Schema, type SchemaDraft, validate } from "@cfworker/json-schema";
import { messageOf } from "../common/error-text.ts";
import { clipText } from "../common/preview.ts";
import { prepareSchema } from "./schema-shape.ts";
import {
  type CompileOptions,
  type Dialect,
  orderedFailures,
  type SchemaCheck,
  SchemaError,
  type SchemaFailure,
  type SchemaValidator,
} from "./schema-validator.ts";
import type { JsonObject } from "./types.ts";

// draft-07 only added keywords to draft-06, so draft-06 is read as draft-07 (as with ajv).
const DRAFTS: Record<Dialect, SchemaDraft> = { "2020-12": "2020-12", "2019-09": "2019-09", "draft-07": "7", "draft-06": "7" };

/** Keywords whose failure only says a subschema failed: the subschema's own failures are the ones kept (as ajv reports them). */
const WRAPPERS = new Set(["properties", "patternProperties", "prefixItems", "items", "$ref", "$recursiveRef", "allOf", "dependentSchemas", "then", "else"]);

/** Longest schema value quoted in a message (a pattern, a format name: the server's text). */
const MAX_QUOTE = 200;

type Lookup = Record<string, Schema | boolean>;

/**
 * Runs `check` with cfworker's format table replaced by `formats`. Its table is module-wide and
 * asserts every format it knows; mcpwire asserts only the formats a compile names (none for an
 * outputSchema: formats are annotations in 2020-12). The walk is synchronous, so no other
 * check can see the swapped table.
 */
function withFormats<T>(formats: Readonly<Record<string, (value: string) => boolean>>, check: () => T): T {
  const own = { ...FORMATS_OF_CFWORKER };
  for (const name of Object.keys(FORMATS_OF_CFWORKER)) delete FORMATS_OF_CFWORKER[name];
  Object.assign(FORMATS_OF_CFWORKER, formats);
  try {
    return check();
  } finally {
    for (const name of Object.keys(FORMATS_OF_CFWORKER)) delete FORMATS_OF_CFWORKER[name];
    Object.assign(FORMATS_OF_CFWORKER, own);
  }
}

/** A JSON Pointer of cfworker's ("#/a%20b/0", URI-encoded) as ajv writes it ("/a b/0"). */
function pointerOf(location: string): string {
  const pointer = location.startsWith("#") ? location.slice(1) : location;
  try {
    return decodeURIComponent(pointer);
  } catch {
    return pointer;
  }
}

/** The value of the keyword at cfworker's keywordLocation, following `$ref`s as the walk did. */
function keywordValue(root: Schema, lookup: Lookup, location: string): unknown {
  let node: unknown = root;
  for (const raw of location.split("/").slice(1)) {
    if (typeof node !== "object" || node === null) return undefined;
    const schema = node as Schema;
    if (raw === "$ref" && typeof schema.__absolute_ref__ === "string") {
      node = lookup[schema.__absolute_ref__];
      continue;
    }
    if (raw === "$recursiveRef" && typeof schema.__absolute_recursive_ref__ === "string") {
      node = lookup[schema.__absolute_recursive_ref__];
      continue;
    }
    const key = pointerOf(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    node = Object.hasOwn(schema, key) ? (schema as Record<string, unknown>)[key] : undefined;
  }
  return node;
}

/** The name in a cfworker message such as `… property "name".` (what ajv gives as a param). */
function quotedName(text: string): string {
  return /"(.*)"/s.exec(text)?.[1] ?? "";
}

/** The property named and the one missing, in `Instance has "a" but does not have "b".` */
function dependency(text: string): [string, string] | undefined {
  const found = /^Instance has "(.*)" but does not have "(.*)"\.$/s.exec(text);
  return found === null ? undefined : [found[1]!, found[2]!];
}

/** ajv's wording for a failed keyword (value: the keyword's, parent: the schema holding it), or undefined to keep cfworker's. */
function ajvWords(unit: OutputUnit, value: unknown, parent: Record<string, unknown> | undefined): string | undefined {
  const quote = (item: unknown) => clipText(String(item), MAX_QUOTE);
  switch (unit.keyword) {
    case "type":
      return `must be ${Array.isArray(value) ? value.join(",") : String(value)}`;
    case "required":
      return `must have required property '${quotedName(unit.error)}'`;
    case "false":
      return "boolean schema is false";
    case "const":
      return "must be equal to constant";
    case "enum":
      return "must be equal to one of the allowed values";
    case "minimum":
      return `must be >= ${value}`;
    case "maximum":
      return `must be <= ${value}`;
    case "exclusiveMinimum":
      return `must be > ${value}`;
    case "exclusiveMaximum":
      return `must be < ${value}`;
    case "multipleOf":
      return `must be multiple of ${value}`;
    case "minLength":
      return `must NOT have fewer than ${value} characters`;
    case "maxLength":
      return `must NOT have more than ${value} characters`;
    case "minItems":
      return `must NOT have fewer than ${value} items`;
    case "maxItems":
      return `must NOT have more than ${value} items`;
    case "minProperties":
      return `must NOT have fewer than ${value} properties`;
    case "maxProperties":
      return `must NOT have more than ${value} properties`;
    case "uniqueItems":
      return "must NOT have duplicate items"; // ajv's "(items ## i and j …)" is cut by ajv-validator.ts: each finds another pair
    case "pattern":
      return `must match pattern "${quote(value)}"`;
    case "format":
      return `must match format "${quote(value)}"`;
    case "anyOf":
      return "must match a schema in anyOf";
    case "oneOf":
      return "must match exactly one schema in oneOf";
    case "not":
      return "must NOT be valid";
    case "contains":
    case "minContains":
      return `must contain at least ${typeof parent?.minContains === "number" ? parent.minContains : 1} valid item(s)`;
    case "maxContains":
      return `must contain at most ${value} valid item(s)`;
    case "if":
      return `must match "${quotedName(unit.error)}" schema`;
    case "propertyNames":
      return "property name must be valid";
    case "dependentRequired":
    case "dependencies": {
      const names = dependency(unit.error);
      return names === undefined ? undefined : `must have property ${names[1]} when property ${names[0]} is present`;
    }
    default:
      return undefined;
  }
}

/** A property name as one step of a JSON Pointer. */
function step(name: string): string {
  return name.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** cfworker's findings as ajv would list them: leaf failures only, in ajv's words, bounded. */
function failuresOf(units: readonly OutputUnit[], root: Schema, lookup: Lookup): SchemaFailure[] {
  const failures: SchemaFailure[] = [];
  // Where the `false` schema behind `additionalProperties: false` (and the like) failed: already
  // reported as the property or the items it refuses, as ajv reports it.
  const refused = new Set<string>();
  const refusedItems = new Set<string>();
  for (const unit of units) {
    const path = pointerOf(unit.instanceLocation);
    const held = keywordValue(root, lookup, unit.keywordLocation.slice(0, unit.keywordLocation.lastIndexOf("/")));
    const parent = typeof held === "object" && held !== null ? held as Record<string, unknown> : undefined;
    const value = parent?.[unit.keyword];
    if (unit.keyword === "additionalProperties" || unit.keyword === "unevaluatedProperties") {
      if (value !== false) continue; // a schema: its own failures are listed
      const property = quotedName(unit.error);
      refused.add(`${path}/${step(property)}`);
      const message = unit.keyword === "additionalProperties" ? "must NOT have additional properties" : "must NOT have unevaluated properties";
      failures.push({ path, keyword: unit.keyword, message, property });
      continue;
    }
    const pastTuple = unit.keyword === "additionalItems" || unit.keyword === "unevaluatedItems" ||
      (unit.keyword === "items" && Array.isArray(parent?.prefixItems));
    if (pastTuple) {
      if (value !== false) continue; // a schema: its own failures are listed
      // cfworker reports each item past the tuple (a `false` schema failing at each); ajv, the array once.
      if (refusedItems.has(unit.instanceLocation)) continue;
      refusedItems.add(unit.instanceLocation);
      const tuple = Array.isArray(parent?.prefixItems) ? parent.prefixItems : parent?.items;
      failures.push({ path, keyword: unit.keyword, message: `must NOT have more than ${Array.isArray(tuple) ? tuple.length : 0} items` });
      continue;
    }
    if (unit.keyword === "false") {
      const holder = unit.instanceLocation.slice(0, unit.instanceLocation.lastIndexOf("/"));
      if (refused.has(path) || refusedItems.has(holder)) continue;
    }
    if (WRAPPERS.has(unit.keyword)) continue;
    if (unit.keyword === "dependencies" && dependency(unit.error) === undefined) continue; // the schema form: its own failures are listed
    const message = ajvWords(unit, value, parent) ?? clipText(unit.error.replace(/\.$/, ""), MAX_QUOTE * 2);
    failures.push({ path, keyword: unit.keyword, message });
  }
  // A property whose own schema failed is, to cfworker, not evaluated either (its annotation
  // is dropped with the failure); ajv counts it evaluated and reports only its own failure.
  if (!failures.some((failure) => failure.keyword === "unevaluatedProperties")) return orderedFailures(failures);
  const failing = new Set<string>();
  for (const failure of failures) {
    if (failure.keyword === "unevaluatedProperties") continue;
    for (let end = failure.path.length; end > 0; end = failure.path.lastIndexOf("/", end - 1)) failing.add(failure.path.slice(0, end));
  }
  return orderedFailures(
    failures.filter((failure) => failure.keyword !== "unevaluatedProperties" || !failing.has(`${failure.path}/${step(failure.property ?? "")}`)),
  );
}

/** Every `$ref` in the walked schemas resolves, or why not (cfworker would throw only when a value reaches it). */
function unresolvedRef(lookup: Lookup): string | undefined {
  for (const schema of Object.values(lookup)) {
    if (typeof schema !== "object") continue;
    const target = schema.__absolute_ref__;
    if (typeof target === "string" && lookup[target] === undefined) return `can't resolve reference ${schema.$ref}`;
  }
  return undefined;
}

class InterpretingValidator implements SchemaValidator {
  readonly name = "interpreting";

  compile(schema: JsonObject, dialect: Dialect, options: CompileOptions = {}): SchemaCheck {
    const { $schema: _dialect, ...body } = schema;
    let root: Schema;
    let lookup: Lookup;
    try {
      // cfworker marks the schemas it walks (hidden properties) and prepareSchema trims them: both
      // get a copy, the caller's stays unchanged.
      root = structuredClone(body) as Schema;
      const shape = prepareSchema(root, dialect);
      if (shape !== undefined) throw new SchemaError(`schema is invalid: ${shape}`);
      lookup = dereference(root);
      const ref = unresolvedRef(lookup);
      if (ref !== undefined) throw new SchemaError(ref);
    } catch (error) {
      if (error instanceof SchemaError) throw error;
      throw new SchemaError(messageOf(error), { cause: error }); // nested too deeply to copy or walk, a duplicate $id
    }
    const draft = DRAFTS[dialect];
    const formats = options.formats ?? {};
    return (value) => {
      const result = withFormats(formats, () => validate(value, root, draft, lookup, false));
      return result.valid ? undefined : failuresOf(result.errors, root, lookup);
    };
  }
}

/** The interpreting validator (one per process: it keeps nothing between compiles). */
export const interpretingValidator: SchemaValidator = new InterpretingValidator();
