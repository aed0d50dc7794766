// The JSON Schema validator behind every schema check the client makes (a tool's outputSchema,
// an elicitation answer, the agent's argument check): one interface, two implementations —
// ajv-validator.ts (compiles a schema to JavaScript with `new Function`) and
// interpreting-validator.ts (json-schema-interpreter.ts walks the schema: no code generation, for a
// page whose Content-Security-Policy lacks 'unsafe-eval' and for Cloudflare Workers).
// json-schema.ts chooses one and loads it. JSON Schema 2020-12 is the default dialect
// (spec 2025-11-25 basic: "JSON Schema Usage"); a schema's `$schema` selects another.

import { McpwireError } from "../../common/mcpwire-error.ts";
import type { JsonObject } from "../types.ts";

/**
 * Which validator checks schemas: `ajv` compiles each schema to a function (fast; needs code
 * generation), `interpreting` walks it (no `new Function`: works under a CSP without
 * 'unsafe-eval' and in Cloudflare Workers).
 */
export type JsonSchemaValidator = "ajv" | "interpreting";

/** The dialects both validators know; any other `$schema` is not validated. */
export type Dialect = "2020-12" | "2019-09" | "draft-07" | "draft-06";

/** The dialect a schema's `$schema` names (2020-12 when it names none), or undefined for an unknown one. */
export function dialectOf(schema: JsonObject): Dialect | undefined {
  const uri = schema.$schema;
  if (uri === undefined) return "2020-12";
  if (typeof uri !== "string") return undefined;
  if (uri.includes("2020-12")) return "2020-12";
  if (uri.includes("2019-09")) return "2019-09";
  if (uri.includes("draft-07")) return "draft-07";
  if (uri.includes("draft-06")) return "draft-06";
  return undefined;
}

/** One place where a value fails its schema, in the same words whichever validator found it. */
export interface SchemaFailure {
  /** JSON Pointer of the failing value ("" is the root). */
  path: string;
  /** The keyword that failed (`type`, `required`, …). */
  keyword: string;
  /** What is wrong, ajv's wording: "must be number", "must have required property 'x'". */
  message: string;
  /** For `additionalProperties`: the property that is not allowed. */
  property?: string;
}

/**
 * A compiled schema: undefined when the value matches, else its failures (at most
 * MAX_FAILURES). Throws a RangeError when the value is nested too deeply to walk.
 */
export type SchemaCheck = (value: unknown) => SchemaFailure[] | undefined;

/** Failures kept per check: a server decides how many a value has. */
export const MAX_FAILURES = 50;

/** Compares two JSON Pointers in document order: a place before the places inside it, array indexes as numbers. */
function comparePointers(a: string, b: string): number {
  const left = a.split("/");
  const right = b.split("/");
  for (let index = 0; index < Math.min(left.length, right.length); index++) {
    const x = left[index]!;
    const y = right[index]!;
    if (x === y) continue;
    const numbers = /^\d+$/.test(x) && /^\d+$/.test(y);
    return numbers ? Number(x) - Number(y) : x < y ? -1 : 1;
  }
  return left.length - right.length;
}

/**
 * Failures in one order whichever validator found them (each walks a schema in its own order):
 * by place, outermost first, then by message; at most MAX_FAILURES. The first is the place an
 * OutputValidationError names.
 */
export function orderedFailures(failures: SchemaFailure[]): SchemaFailure[] {
  return failures
    .sort((a, b) => comparePointers(a.path, b.path) || (a.message < b.message ? -1 : a.message > b.message ? 1 : 0))
    .slice(0, MAX_FAILURES);
}

/** What a compile may add to the dialect. */
export interface CompileOptions {
  /**
   * Formats to assert (name → check). Formats not listed are annotations only, as 2020-12
   * makes them by default; without this option no format is asserted.
   */
  formats?: Readonly<Record<string, (value: string) => boolean>>;
}

/** A JSON Schema validator: compiles a schema once, then checks values against it. */
export interface SchemaValidator {
  readonly name: JsonSchemaValidator;
  /**
   * The check for `schema` read as `dialect` (its `$schema` is ignored: the dialect is
   * chosen). Throws a SchemaError ("schema-invalid") when the schema cannot be used: not valid
   * for its dialect, a `$ref` that does not resolve, nested too deeply to compile.
   * The schema object is never changed.
   */
  compile(schema: JsonObject, dialect: Dialect, options?: CompileOptions): SchemaCheck;
}

/**
 * The validators a build offers (validators.ts picks the table by package condition): the one
 * used when none is named, and a loader for each (a literal import(), run on first use).
 */
export interface ValidatorTable {
  /** The default where it can run (ajv needs code generation: else the interpreting validator). */
  readonly preferred: JsonSchemaValidator;
  readonly load: Readonly<Partial<Record<JsonSchemaValidator, () => Promise<SchemaValidator>>>>;
}

/**
 * A JSON Schema validator asked for before it was loaded (`loadJsonSchema()` not awaited): a
 * programming error of the caller, code `validator-not-loaded`. The Client loads its own before
 * it checks a schema, so only a program that calls the validators itself meets it.
 */
export class ValidatorNotLoadedError extends McpwireError<"validator-not-loaded"> {
  override readonly name = "ValidatorNotLoadedError";
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, "validator-not-loaded", options);
  }
}

/**
 * Why a schema cannot be checked: `schema-invalid` (whichever validator found it), or
 * `validator-unavailable` (the validator named is not in this build: ajv under the browser,
 * workerd and worker conditions).
 */
export type SchemaErrorCode = "schema-invalid" | "validator-unavailable";

/** A schema the validator cannot use (invalid for its dialect, an unresolved $ref, too deep), or a validator this build lacks. */
export class SchemaError extends McpwireError<SchemaErrorCode> {
  override readonly name = "SchemaError";
  constructor(message: string, options: { cause?: unknown; code?: SchemaErrorCode } = {}) {
    super(message, options.code ?? "schema-invalid", { cause: options.cause });
  }
}
