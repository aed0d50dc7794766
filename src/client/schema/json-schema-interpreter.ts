// A JSON Schema validator that interprets: it walks the schema for each value, so nothing is
// compiled to code and it runs where `new Function` is refused (a page whose
// Content-Security-Policy lacks 'unsafe-eval', Cloudflare Workers). Dialects 2020-12, 2019-09,
// draft-07 and draft-06, each with its own keywords (isForeignKeyword); formats only those the
// caller passes; other annotations ignored. Its verdicts are ajv's (test/client/
// json-schema-interpreter.test.ts compares them on generated schemas), and so are its failures:
// the same places and ajv's words, so a message reads the same whichever validator found it.
// Where ajv departs from the specification, this follows ajv (noted at each place).

import { isObject } from "../../common/json.ts";
import { pointerToken } from "../../common/json-pointer.ts";
import { clipText } from "../../common/preview.ts";
import { jsonEqual } from "./json-equal.ts";
import { SchemaResources, subschemasOf } from "./schema-resources.ts";
import { isForeignKeyword } from "./schema-shape.ts";
import { type Dialect, SchemaError, type SchemaFailure } from "./schema-validator.ts";

/** Schemas applied inside one another at most, while checking one value (a recursive `$ref` follows the value down). */
export const MAX_CHECK_DEPTH = 1500;
/** Schemas applied and failures found at most in one check: a bound on the work a server's schema and value can ask for. */
export const MAX_CHECK_STEPS = 1_000_000;
/** Longest schema value quoted in a message (a pattern, a format name: the server's text). */
const MAX_QUOTE = 200;

type Schema = Record<string, unknown>;
/** Formats asserted: name → check. */
export type Formats = Readonly<Record<string, (value: string) => boolean>>;

/** Length in Unicode code points (a surrogate pair is one character), as minLength and maxLength count. */
function codePoints(text: string): number {
  let length = 0;
  for (const _ of text) length++;
  return length;
}

function typeMatches(type: unknown, value: unknown): boolean {
  switch (type) {
    case "null":
      return value === null;
    case "boolean":
      return typeof value === "boolean";
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isFinite(value) && value % 1 === 0;
    case "array":
      return Array.isArray(value);
    case "object":
      return isObject(value) && !Array.isArray(value);
    default:
      return false;
  }
}

/**
 * What one schema evaluated of the value it was applied to (JSON Schema 2020-12 core §11
 * "unevaluatedItems"/"unevaluatedProperties"): property names, items as a count from the
 * start (Infinity: all of them) and the items `contains` matched. Collected from the
 * subschemas that passed.
 */
class Evaluated {
  /** Names evaluated (made when one is), or "all". */
  properties: Set<string> | "all" | undefined;
  items = 0;
  /** Indexes `contains` matched (made when one is). */
  matched: Set<number> | undefined;

  addProperty(name: string): void {
    if (this.properties === undefined) this.properties = new Set([name]);
    else if (this.properties !== "all") this.properties.add(name);
  }

  merge(other: Evaluated): void {
    if (other.properties === "all") this.properties = "all";
    else if (other.properties !== undefined) { for (const name of other.properties) this.addProperty(name); }
    this.items = Math.max(this.items, other.items);
    if (other.matched !== undefined) { for (const index of other.matched) (this.matched ??= new Set()).add(index); }
  }

  hasProperty(name: string): boolean {
    return this.properties === "all" || this.properties?.has(name) === true;
  }

  hasItem(index: number): boolean {
    return index < this.items || this.matched?.has(index) === true;
  }
}

/** A schema ready to check values: compiled once (its `$ref`s resolved, its patterns made), walked per value. */
export class SchemaInterpreter {
  readonly #dialect: Dialect;
  readonly #formats: Formats;
  readonly #root: unknown;
  readonly #refs = new Map<object, unknown>();
  readonly #patterns = new Map<string, RegExp>();
  /** Whether a reachable schema has unevaluatedProperties or unevaluatedItems: only then is what each schema evaluated kept. */
  #tracks = false;
  #steps = 0;

  /**
   * Readies `schema` (well formed for `dialect`: see schemaProblem) to be read as `dialect`.
   * Throws a SchemaError for a `$ref` that leads nowhere, a pattern that is not a regular
   * expression, or a schema nested more than MAX_SCHEMA_DEPTH levels. `schema` is not changed.
   */
  constructor(schema: unknown, dialect: Dialect, formats: Formats = {}) {
    this.#dialect = dialect;
    this.#formats = formats;
    this.#root = schema;
    const resources = new SchemaResources(schema, dialect);
    // The schemas a value can reach (what ajv compiles: not the `$defs` entries no `$ref` names), without recursion.
    const pending = [schema];
    const seen = new Set<unknown>();
    for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
      if (!isObject(node) || seen.has(node)) continue;
      seen.add(node);
      if (["unevaluatedProperties", "unevaluatedItems"].some((key) => node[key] !== undefined && !isForeignKeyword(dialect, key))) this.#tracks = true;
      if (typeof node.$ref === "string") {
        const target = resources.resolve(node.$ref, node);
        if (target === undefined) throw new SchemaError(`can't resolve reference ${clipText(node.$ref, MAX_QUOTE)}`);
        this.#refs.set(node, target);
        pending.push(target);
      }
      const patterns = [
        ...(typeof node.pattern === "string" ? [node.pattern] : []),
        ...(isObject(node.patternProperties) ? Object.keys(node.patternProperties) : []),
      ];
      for (const pattern of patterns) this.#regExp(pattern);
      for (const inner of subschemasOf(node, dialect)) {
        if (!isSchemaMap(node, inner) && !isInert(node, inner, dialect)) pending.push(inner);
      }
    }
  }

  /** The failures of `value` (none: it matches), in the order found. Throws a RangeError past MAX_CHECK_DEPTH or MAX_CHECK_STEPS. */
  check(value: unknown): SchemaFailure[] {
    const failures: SchemaFailure[] = [];
    this.#steps = 0;
    this.#apply(this.#root, value, "", 0, failures);
    return failures;
  }

  #regExp(pattern: string): RegExp {
    let compiled = this.#patterns.get(pattern);
    if (compiled === undefined) {
      try {
        compiled = new RegExp(pattern, "u"); // a regular expression, not code generation: allowed under any CSP
      } catch (error) {
        throw new SchemaError(`pattern ${JSON.stringify(clipText(pattern, MAX_QUOTE))} is not a regular expression`, { cause: error });
      }
      this.#patterns.set(pattern, compiled);
    }
    return compiled;
  }

  #has(schema: Schema, keyword: string): boolean {
    return schema[keyword] !== undefined && !isForeignKeyword(this.#dialect, keyword);
  }

  /** Applies `schema` to `value` (at `path`): what it evaluated when the value matches, else undefined; failures go to `out`. */
  #apply(schema: unknown, value: unknown, path: string, depth: number, out: SchemaFailure[]): Evaluated | undefined {
    const before = out.length;
    const evaluated = this.#evaluate(schema, value, path, depth, out);
    return out.length === before ? evaluated : undefined;
  }

  /**
   * Applies `schema` to `value`: what it evaluated, whether it matched or not (failures go to
   * `out`). Where a failure already decides the verdict (allOf, `$ref`, then/else), what the
   * failed schema evaluated still counts, as ajv counts it: unevaluatedProperties then reports
   * a property once, not again at each level.
   */
  #evaluate(schema: unknown, value: unknown, path: string, depth: number, out: SchemaFailure[]): Evaluated {
    if (schema === true) return new Evaluated();
    if (schema === false || !isObject(schema)) {
      out.push({ path, keyword: "false schema", message: "boolean schema is false" });
      return new Evaluated();
    }
    if (depth > MAX_CHECK_DEPTH) {
      throw new RangeError(`the value is checked through more than ${MAX_CHECK_DEPTH} nested schemas, too deep for the interpreting validator`);
    }
    if (++this.#steps > MAX_CHECK_STEPS) throw new RangeError(`the check takes more than ${MAX_CHECK_STEPS} steps, too many for the interpreting validator`);
    const before = out.length;
    const evaluated = new Evaluated();
    const fail = (keyword: string, message: string, at = path) => out.push({ path: at, keyword, message });
    // ajv applies the keywords beside a `$ref` in every dialect (draft-07 §8.3 says to ignore them).
    if (this.#refs.has(schema)) evaluated.merge(this.#evaluate(this.#refs.get(schema), value, path, depth + 1, out));
    if (schema.type !== undefined) {
      const types = Array.isArray(schema.type) ? schema.type : [schema.type];
      if (!types.some((type) => typeMatches(type, value))) fail("type", `must be ${types.join(",")}`);
    }
    if (Array.isArray(schema.enum) && !schema.enum.some((item) => jsonEqual(item, value))) fail("enum", "must be equal to one of the allowed values");
    if (schema.const !== undefined && !jsonEqual(schema.const, value)) fail("const", "must be equal to constant");
    if (typeof value === "number") this.#number(schema, value, fail);
    else if (typeof value === "string") this.#string(schema, value, fail);
    else if (Array.isArray(value)) this.#array(schema, value, path, depth, out, evaluated);
    else if (isObject(value)) this.#object(schema, value, path, depth, out, evaluated);
    this.#logic(schema, value, path, depth, out, evaluated);
    // Last: what every other keyword left unevaluated (2019-09 and later).
    if (Array.isArray(value) && this.#has(schema, "unevaluatedItems")) {
      const rest = schema.unevaluatedItems;
      const unevaluated = value.map((_, index) => index).filter((index) => !evaluated.hasItem(index));
      if (rest === false && unevaluated.length > 0) fail("unevaluatedItems", `must NOT have more than ${evaluated.items} items`);
      else for (const index of unevaluated) this.#apply(rest, value[index], `${path}/${index}`, depth + 1, out);
      evaluated.items = Infinity;
    }
    if (isObject(value) && !Array.isArray(value) && this.#has(schema, "unevaluatedProperties")) {
      const rest = schema.unevaluatedProperties;
      for (const name of Object.keys(value)) {
        if (evaluated.hasProperty(name)) continue;
        if (rest === false) out.push({ path, keyword: "unevaluatedProperties", message: "must NOT have unevaluated properties", property: name });
        else this.#apply(rest, value[name], `${path}/${pointerToken(name)}`, depth + 1, out);
      }
      evaluated.properties = "all";
    }
    this.#steps += out.length - before; // failures count as work too (anyOf copies its branches' ones)
    return evaluated;
  }

  #number(schema: Schema, value: number, fail: (keyword: string, message: string) => void): void {
    const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = schema;
    if (typeof minimum === "number" && value < minimum) fail("minimum", `must be >= ${minimum}`);
    if (typeof maximum === "number" && value > maximum) fail("maximum", `must be <= ${maximum}`);
    if (typeof exclusiveMinimum === "number" && value <= exclusiveMinimum) fail("exclusiveMinimum", `must be > ${exclusiveMinimum}`);
    if (typeof exclusiveMaximum === "number" && value >= exclusiveMaximum) fail("exclusiveMaximum", `must be < ${exclusiveMaximum}`);
    if (typeof multipleOf === "number") {
      // As ajv decides it: the quotient must be a whole number once written out (0.3 / 0.1 is not).
      const quotient = value / multipleOf;
      if (quotient !== parseInt(String(quotient))) fail("multipleOf", `must be multiple of ${multipleOf}`);
    }
  }

  #string(schema: Schema, value: string, fail: (keyword: string, message: string) => void): void {
    const { minLength, maxLength, pattern, format } = schema;
    if (typeof minLength === "number" && codePoints(value) < minLength) fail("minLength", `must NOT have fewer than ${minLength} characters`);
    if (typeof maxLength === "number" && codePoints(value) > maxLength) fail("maxLength", `must NOT have more than ${maxLength} characters`);
    if (typeof pattern === "string" && !this.#regExp(pattern).test(value)) fail("pattern", `must match pattern "${clipText(pattern, MAX_QUOTE)}"`);
    if (typeof format === "string" && Object.hasOwn(this.#formats, format) && !this.#formats[format]!(value)) {
      fail("format", `must match format "${clipText(format, MAX_QUOTE)}"`);
    }
  }

  #array(schema: Schema, value: unknown[], path: string, depth: number, out: SchemaFailure[], evaluated: Evaluated): void {
    const fail = (keyword: string, message: string) => out.push({ path, keyword, message });
    const item = (inner: unknown, index: number, into = out) => this.#apply(inner, value[index], `${path}/${index}`, depth + 1, into);
    if (typeof schema.minItems === "number" && value.length < schema.minItems) fail("minItems", `must NOT have fewer than ${schema.minItems} items`);
    if (typeof schema.maxItems === "number" && value.length > schema.maxItems) fail("maxItems", `must NOT have more than ${schema.maxItems} items`);
    if (schema.uniqueItems === true && value.some((a, i) => value.some((b, j) => j > i && jsonEqual(a, b)))) {
      fail("uniqueItems", "must NOT have duplicate items");
    }
    // A tuple: prefixItems in 2020-12, an `items` list before; the rest: `items` in 2020-12, `additionalItems` before.
    const tuple = this.#has(schema, "prefixItems") ? schema.prefixItems : this.#dialect !== "2020-12" ? schema.items : undefined;
    if (Array.isArray(tuple)) {
      tuple.slice(0, value.length).forEach((inner, index) => item(inner, index));
      evaluated.items = Math.max(evaluated.items, Math.min(tuple.length, value.length));
      const [restKeyword, rest] = this.#dialect === "2020-12" ? ["items", schema.items] : ["additionalItems", schema.additionalItems];
      if (rest === false && value.length > tuple.length) fail(restKeyword, `must NOT have more than ${tuple.length} items`);
      else if (rest !== undefined) { for (let index = tuple.length; index < value.length; index++) item(rest, index); }
      if (rest !== undefined) evaluated.items = Infinity;
    } else if (schema.items !== undefined) {
      value.forEach((_, index) => item(schema.items, index));
      evaluated.items = Infinity;
    }
    if (this.#has(schema, "contains")) {
      const own = (keyword: string) => this.#has(schema, keyword) && typeof schema[keyword] === "number" ? schema[keyword] as number : undefined;
      const min = own("minContains") ?? 1;
      const max = own("maxContains");
      const misses: SchemaFailure[] = [];
      const matched = value.map((_, index) => index).filter((index) => item(schema.contains, index, misses) !== undefined);
      if (matched.length < min || (max !== undefined && matched.length > max)) {
        // ajv keeps the failures of the items that did not match (none when no count could pass: min > max).
        if (max === undefined || min <= max) out.push(...misses);
        fail("contains", `must contain at least ${min}${max === undefined ? "" : ` and no more than ${max}`} valid item(s)`);
      } else if (this.#dialect === "2020-12") {
        // 2020-12 core §10.3.1.3: the items matched are evaluated (2019-09: contains evaluates none).
        // ajv counts every item, or none when `contains` is always true: the specification is followed.
        for (const index of matched) (evaluated.matched ??= new Set()).add(index);
      }
    }
  }

  #object(schema: Schema, value: Schema, path: string, depth: number, out: SchemaFailure[], evaluated: Evaluated): void {
    const fail = (keyword: string, message: string) => out.push({ path, keyword, message });
    const names = Object.keys(value);
    const at = (name: string) => `${path}/${pointerToken(name)}`;
    if (typeof schema.minProperties === "number" && names.length < schema.minProperties) {
      fail("minProperties", `must NOT have fewer than ${schema.minProperties} properties`);
    }
    if (typeof schema.maxProperties === "number" && names.length > schema.maxProperties) {
      fail("maxProperties", `must NOT have more than ${schema.maxProperties} properties`);
    }
    if (Array.isArray(schema.required)) {
      for (const name of schema.required) if (!Object.hasOwn(value, name)) fail("required", `must have required property '${name}'`);
    }
    const properties = isObject(schema.properties) ? schema.properties : {};
    const patterns = isObject(schema.patternProperties) ? Object.entries(schema.patternProperties) : [];
    for (const name of names) {
      let matched = false;
      if (Object.hasOwn(properties, name)) {
        matched = true;
        this.#apply(properties[name], value[name], at(name), depth + 1, out);
      }
      for (const [pattern, inner] of patterns) {
        if (!this.#regExp(pattern).test(name)) continue;
        matched = true;
        this.#apply(inner, value[name], at(name), depth + 1, out);
      }
      // A property whose schema failed still counts as evaluated (as ajv counts it).
      if (matched) {
        if (this.#tracks) evaluated.addProperty(name);
      } else if (schema.additionalProperties === false) {
        out.push({ path, keyword: "additionalProperties", message: "must NOT have additional properties", property: name });
      } else if (schema.additionalProperties !== undefined) this.#apply(schema.additionalProperties, value[name], at(name), depth + 1, out);
    }
    if (schema.additionalProperties !== undefined) evaluated.properties = "all";
    if (schema.propertyNames !== undefined) {
      for (const name of names) {
        // ajv gives the failures of a name at the object's place.
        const found: SchemaFailure[] = [];
        if (this.#apply(schema.propertyNames, name, path, depth + 1, found) === undefined) {
          out.push(...found.map((failure) => ({ ...failure, path })));
          fail("propertyNames", "property name must be valid");
        }
      }
    }
    const required = (keyword: string, map: unknown) => {
      if (!isObject(map)) return;
      for (const [name, needed] of Object.entries(map)) {
        if (!Array.isArray(needed) || !Object.hasOwn(value, name)) continue;
        // ajv's words name every property needed, once per one missing.
        const what = `${needed.length === 1 ? "property" : "properties"} ${needed.join(", ")}`;
        for (const other of needed) if (!Object.hasOwn(value, other)) fail(keyword, `must have ${what} when property ${name} is present`);
      }
    };
    const schemas = (map: unknown) => {
      if (!isObject(map)) return;
      for (const [name, inner] of Object.entries(map)) {
        // 2019-09 core §9.2.2.4: what a dependent schema evaluated counts (ajv does not count it: the specification is followed).
        if (!Array.isArray(inner) && Object.hasOwn(value, name)) {
          evaluated.merge(this.#evaluate(inner, value, path, depth + 1, out));
        }
      }
    };
    required("dependencies", schema.dependencies); // ajv reads draft-07's dependencies in every dialect
    schemas(schema.dependencies);
    if (this.#has(schema, "dependentRequired")) required("dependentRequired", schema.dependentRequired);
    if (this.#has(schema, "dependentSchemas")) schemas(schema.dependentSchemas);
  }

  /** allOf, anyOf, oneOf, not, if/then/else: subschemas applied to the same value. */
  #logic(schema: Schema, value: unknown, path: string, depth: number, out: SchemaFailure[], evaluated: Evaluated): void {
    const apply = (inner: unknown, into: SchemaFailure[]) => this.#apply(inner, value, path, depth + 1, into);
    const merge = (result: Evaluated | undefined) => result !== undefined && evaluated.merge(result);
    const fail = (keyword: string, message: string) => out.push({ path, keyword, message });
    if (Array.isArray(schema.allOf)) { for (const inner of schema.allOf) evaluated.merge(this.#evaluate(inner, value, path, depth + 1, out)); }
    for (const keyword of ["anyOf", "oneOf"] as const) {
      const list = schema[keyword];
      if (!Array.isArray(list)) continue;
      const missed: SchemaFailure[] = [];
      const passed: Evaluated[] = [];
      for (const inner of list) {
        const result = apply(inner, missed);
        if (result !== undefined) passed.push(result);
        // oneOf is decided at a second match (ajv stops there too: its failures end there); anyOf goes on, for what each evaluates.
        if (keyword === "oneOf" && passed.length > 1) break;
      }
      if (keyword === "anyOf" ? passed.length > 0 : passed.length === 1) {
        for (const result of passed) merge(result);
        continue;
      }
      out.push(...missed); // why each failed, as ajv lists them (for oneOf, also when several matched)
      fail(keyword, keyword === "anyOf" ? "must match a schema in anyOf" : "must match exactly one schema in oneOf");
    }
    if (schema.not !== undefined && apply(schema.not, []) !== undefined) fail("not", "must NOT be valid");
    if (schema.if !== undefined && (schema.then !== undefined || schema.else !== undefined)) {
      // 2020-12 core §10.2.2.1: what a passing `if` evaluated counts (ajv counts only `then`/`else`: the specification is followed).
      const condition = apply(schema.if, []);
      merge(condition);
      const branch = condition !== undefined ? "then" : "else";
      if (schema[branch] === undefined) return;
      const before = out.length;
      evaluated.merge(this.#evaluate(schema[branch], value, path, depth + 1, out));
      if (out.length > before) fail("if", `must match "${branch}" schema`);
    }
  }
}

/** Whether `inner` is an entry of `$defs`/`definitions` (applied only through a `$ref`). */
function isSchemaMap(schema: Schema, inner: unknown): boolean {
  return [schema.$defs, schema.definitions].some((map) => isObject(map) && Object.values(map).includes(inner));
}

/** Whether `inner` is a subschema no value reaches: `then`/`else` without `if` and the reverse, `additionalItems` without a tuple (ajv compiles none). */
function isInert(schema: Schema, inner: unknown, dialect: Dialect): boolean {
  if (schema.if === undefined && (inner === schema.then || inner === schema.else)) return true;
  if (schema.then === undefined && schema.else === undefined && inner === schema.if) return true;
  return inner === schema.additionalItems && (dialect === "2020-12" || !Array.isArray(schema.items));
}
