// Checks a tool's structuredContent against the outputSchema it listed —
// spec 2025-11-25 server/tools ("Output Schema": clients SHOULD validate structured results).
// JSON Schema 2020-12 is the default dialect (spec 2025-11-25 basic: "JSON Schema Usage");
// a schema's `$schema` selects draft-07, draft-06 or 2019-09 instead.

import type { ValidateFunction } from "ajv";
import { depthOf } from "../common/bounded.ts";
import { jsonSchemaEngines } from "./json-schema.ts";
import { messageOf } from "../common/error-text.ts";
import type { JsonObject } from "./types.ts";

/** A depth past which a value counts as "nested too deeply" in a message (no spec limit exists). */
const DEEP_ENOUGH = 1000;

/** JSON text of a schema, or undefined when it is too deep to write (JSON.stringify recurses). */
function jsonText(schema: JsonObject): string | undefined {
  try {
    return JSON.stringify(schema);
  } catch {
    return undefined;
  }
}

type Dialect = "2020-12" | "2019-09" | "draft-07" | "draft-06";

function dialectOf(schema: JsonObject): Dialect | undefined {
  const uri = schema.$schema;
  if (uri === undefined) return "2020-12";
  if (typeof uri !== "string") return undefined;
  if (uri.includes("2020-12")) return "2020-12";
  if (uri.includes("2019-09")) return "2019-09";
  if (uri.includes("draft-07")) return "draft-07";
  if (uri.includes("draft-06")) return "draft-06";
  return undefined;
}

type Validator = Pick<ValidateFunction, "errors"> & ((data: unknown) => boolean);

interface AjvLike {
  compile(schema: JsonObject): Validator;
  removeSchema(schema: JsonObject): unknown;
}

// Formats are annotations by default in 2020-12; we ship no format table, so we do not
// assert them. strict: false because servers' schemas legitimately carry extra keywords.
// addUsedSchema: false keeps a schema's `$id` out of ajv's registry: each outputSchema stands
// alone, and a tool listed again with a changed schema under the same `$id` must compile
// instead of failing "schema with key or id … already exists".
const AJV_OPTIONS = { strict: false, validateFormats: false, allErrors: true, logger: false, addUsedSchema: false } as const;

/** An engine for the dialect (the validator must be loaded: see json-schema.ts). */
function createAjv(dialect: Dialect): AjvLike {
  const { Ajv, Ajv2019, Ajv2020 } = jsonSchemaEngines();
  switch (dialect) {
    case "2020-12":
      return new Ajv2020(AJV_OPTIONS);
    case "2019-09":
      return new Ajv2019(AJV_OPTIONS);
    case "draft-07":
      return new Ajv(AJV_OPTIONS);
    case "draft-06":
      // draft-07 only added keywords to draft-06, so its engine validates draft-06 data;
      // the schema itself is not checked against the draft-06 meta-schema.
      return new Ajv({ ...AJV_OPTIONS, validateSchema: false });
  }
}

export interface ValidationFailure {
  path: string;
  message: string;
}

/** What checking one value gives: the places it fails, or why it could not be checked at all. */
export type ValidationOutcome = { failures: ValidationFailure[] } | { unchecked: string };

type Compiled = { ok: true; validate: Validator } | { ok: false };

interface CacheEntry {
  /** The schema object last checked for this tool (identity: the fast path). */
  schema: JsonObject;
  /**
   * Its JSON text: an identical schema from a new listing reuses the validator. Undefined
   * for a schema too deep to write as text (it is compiled afresh each listing).
   */
  text: string | undefined;
  compiled: Compiled;
}

/**
 * Compiles each tool's schema once, on first use, and keeps the validator by tool name.
 * Listing the tools again with the same schema (a new object, the same JSON) reuses it;
 * a changed schema is compiled afresh. ajv keeps nothing of a schema once compiled.
 */
export class OutputValidators {
  readonly #ajv = new Map<Dialect, AjvLike>();
  readonly #byTool = new Map<string, CacheEntry>();
  readonly #report: (message: string) => void;

  /** report: told once per schema that does not compile. */
  constructor(report: (message: string) => void) {
    this.#report = report;
  }

  /**
   * The failures of value against schema, or undefined when it matches (see `judge`; a value
   * that could not be checked is one failure at the root saying why).
   */
  check(toolName: string, schema: JsonObject, value: unknown): ValidationFailure[] | undefined {
    const outcome = this.judge(toolName, schema, value);
    if (outcome === undefined) return undefined;
    return "failures" in outcome ? outcome.failures : [{ path: "", message: `(root) could not be checked: ${outcome.unchecked}` }];
  }

  /**
   * Whether value matches schema: undefined when it does, else its failures. A schema that
   * does not compile is reported once and the value passes: we cannot judge it. A value the
   * validator cannot walk (nested so deep that it runs out of stack: a server decides the
   * depth) is `unchecked`, with the reason — never a RangeError thrown at the caller.
   */
  judge(toolName: string, schema: JsonObject, value: unknown): ValidationOutcome | undefined {
    let entry = this.#byTool.get(toolName);
    if (entry?.schema !== schema) {
      const text = jsonText(schema);
      if (text !== undefined && entry?.text === text) {
        entry.schema = schema;
      } else {
        entry = { schema, text, compiled: this.#compile(toolName, schema) };
        this.#byTool.set(toolName, entry);
      }
    }
    const compiled = entry.compiled;
    if (!compiled.ok) return undefined;
    let valid: boolean;
    try {
      valid = compiled.validate(value);
    } catch (error) {
      // ajv recurses once per level of a recursive schema ($ref): 100,000 levels overflow the stack.
      const detail = messageOf(error);
      const deep = depthOf(value, DEEP_ENOUGH + 1) > DEEP_ENOUGH;
      return {
        unchecked: deep ? `it is nested more than ${DEEP_ENOUGH} levels deep, too deep for the validator (${detail})` : `the validator failed (${detail})`,
      };
    }
    if (valid) return undefined;
    return {
      failures: (compiled.validate.errors ?? []).map((error) => ({
        path: error.instancePath,
        message: `${error.instancePath || "(root)"} ${error.message ?? "is invalid"}` +
          (error.params && "additionalProperty" in error.params ? ` (${String(error.params.additionalProperty)})` : ""),
      })),
    };
  }

  /** Forgets the validators of tools no longer listed. */
  retain(toolNames: ReadonlySet<string>): void {
    for (const name of this.#byTool.keys()) if (!toolNames.has(name)) this.#byTool.delete(name);
  }

  #compile(toolName: string, schema: JsonObject): Compiled {
    const dialect = dialectOf(schema);
    if (dialect === undefined) {
      this.#report(`tool "${toolName}": outputSchema has an unknown $schema ${JSON.stringify(schema.$schema)}; its results are not validated`);
      return { ok: false };
    }
    let ajv = this.#ajv.get(dialect);
    if (ajv === undefined) {
      ajv = createAjv(dialect);
      this.#ajv.set(dialect, ajv);
    }
    // The dialect is chosen; compile without `$schema`, so that spellings ajv does not
    // register ("https://json-schema.org/draft-07/schema", no trailing "#", …) still work.
    // A shallow copy: the server's schema object is never changed.
    const { $schema: _dialect, ...body } = schema;
    try {
      return { ok: true, validate: ajv.compile(body) };
    } catch (error) {
      this.#report(`tool "${toolName}": outputSchema does not compile (${(error as Error).message}); its results are not validated`);
      return { ok: false };
    } finally {
      // Drop ajv's cache entry for it (keyed by the object: it would grow with every listing).
      try {
        ajv.removeSchema(body);
      } catch {
        // it never got in
      }
    }
  }
}
