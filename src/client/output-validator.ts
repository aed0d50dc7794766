// Checks a tool's structuredContent against the outputSchema it listed —
// spec 2025-11-25 server/tools ("Output Schema": clients SHOULD validate structured results).
// JSON Schema 2020-12 is the default dialect (spec 2025-11-25 basic: "JSON Schema Usage");
// a schema's `$schema` selects draft-07, draft-06 or 2019-09 instead.

import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { JsonObject } from "./types.ts";

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
const AJV_OPTIONS = { strict: false, validateFormats: false, allErrors: true, logger: false } as const;

function createAjv(dialect: Dialect): AjvLike {
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

type Compiled = { ok: true; validate: Validator } | { ok: false };

/**
 * Compiles each schema once, on first use, and keeps the validator for as long as the
 * schema object lives (one tool listing, across all its pages).
 */
export class OutputValidators {
  readonly #ajv = new Map<Dialect, AjvLike>();
  readonly #compiled = new WeakMap<JsonObject, Compiled>();
  readonly #report: (message: string) => void;

  /** report: told once per schema that does not compile. */
  constructor(report: (message: string) => void) {
    this.#report = report;
  }

  /**
   * The failures of value against schema, or undefined when it matches. A schema that
   * does not compile is reported once and the value passes: we cannot judge it.
   */
  check(toolName: string, schema: JsonObject, value: unknown): ValidationFailure[] | undefined {
    let compiled = this.#compiled.get(schema);
    if (compiled === undefined) {
      compiled = this.#compile(toolName, schema);
      this.#compiled.set(schema, compiled);
    }
    if (!compiled.ok || compiled.validate(value)) return undefined;
    return (compiled.validate.errors ?? []).map((error) => ({
      path: error.instancePath,
      message: `${error.instancePath || "(root)"} ${error.message ?? "is invalid"}` +
        (error.params && "additionalProperty" in error.params ? ` (${String(error.params.additionalProperty)})` : ""),
    }));
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
    try {
      return { ok: true, validate: ajv.compile(schema) };
    } catch (error) {
      // Leave nothing of the broken schema in ajv's registry (an $id would block a fixed one).
      try {
        ajv.removeSchema(schema);
      } catch {
        // it never got in
      }
      this.#report(`tool "${toolName}": outputSchema does not compile (${(error as Error).message}); its results are not validated`);
      return { ok: false };
    }
  }
}
