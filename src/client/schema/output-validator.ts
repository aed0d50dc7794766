// Checks a tool's structuredContent against the outputSchema it listed —
// spec 2025-11-25 server/tools ("Output Schema": clients SHOULD validate structured results).
// JSON Schema 2020-12 is the default dialect (spec 2025-11-25 basic: "JSON Schema Usage");
// a schema's `$schema` selects draft-07, draft-06 or 2019-09 instead.

import { depthOf } from "../../common/bounded.ts";
import { messageOf } from "../../common/error-text.ts";
import type { JsonObject } from "../types.ts";
import { jsonSchemaValidator, loadJsonSchema } from "./json-schema.ts";
import { dialectOf, type JsonSchemaValidator, type SchemaCheck, type SchemaFailure } from "./schema-validator.ts";

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

export interface ValidationFailure {
  path: string;
  message: string;
}

/** What checking one value gives: the places it fails, or why it could not be checked at all. */
export type ValidationOutcome = { failures: ValidationFailure[] } | { unchecked: string };

type Compiled = { ok: true; check: SchemaCheck } | { ok: false };

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
 * a changed schema is compiled afresh. The validator (schema-validator.ts) keeps nothing of a
 * schema once compiled.
 */
export class OutputValidators {
  readonly #byTool = new Map<string, CacheEntry>();
  readonly #report: (message: string) => void;
  readonly #validator: JsonSchemaValidator | undefined;

  /**
   * report: told once per schema that does not compile. validator: which one checks the
   * schemas (json-schema.ts); undefined takes the runtime's default when first needed.
   */
  constructor(report: (message: string) => void, validator?: JsonSchemaValidator) {
    this.#report = report;
    this.#validator = validator;
  }

  /** Loads the validator: await it before check() or judge(). */
  async load(): Promise<void> {
    await loadJsonSchema(this.#validator);
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
    let failures: SchemaFailure[] | undefined;
    try {
      failures = compiled.check(value);
    } catch (error) {
      // Both validators recurse once per level of a recursive schema ($ref): 100,000 levels overflow the stack.
      const detail = messageOf(error);
      const deep = depthOf(value, DEEP_ENOUGH + 1) > DEEP_ENOUGH;
      return {
        unchecked: deep ? `it is nested more than ${DEEP_ENOUGH} levels deep, too deep for the validator (${detail})` : `the validator failed (${detail})`,
      };
    }
    if (failures === undefined) return undefined;
    return {
      failures: failures.map((failure) => ({
        path: failure.path,
        message: `${failure.path || "(root)"} ${failure.message}` + (failure.property === undefined ? "" : ` (${failure.property})`),
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
    const validator = jsonSchemaValidator(this.#validator);
    try {
      return { ok: true, check: validator.compile(schema, dialect) };
    } catch (error) {
      this.#report(`tool "${toolName}": outputSchema does not compile (${messageOf(error)}); its results are not validated`);
      return { ok: false };
    }
  }
}
