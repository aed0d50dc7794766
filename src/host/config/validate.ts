// The config's JSON Schema (schema.ts) checked in two steps: an interpreting validator
// (client/schema/json-schema-interpreter.ts: no code generation, nothing to compile) says whether the config is
// valid, and only a config it refuses is checked again by ajv, whose findings (keyword, params,
// JSON pointer) the messages are made from (schema-messages.ts). Compiling the schema with ajv
// costs about 100 ms of CPU, which every CLI run paid for a config that was fine; loading ajv
// about 40 ms more, so ajv lives in schema-errors.ts, loaded only where a config is refused:
// parse.ts (the public parseConfig) imports it; the CLI's path (parser.ts through load.ts) loads
// it when the quick check refuses a config (withSchemaErrors).

import type { ErrorObject } from "ajv";
import { SchemaInterpreter } from "../../client/schema/json-schema-interpreter.ts";
import { isObject } from "../../common/json.ts";
import { pointerKey } from "../../common/json-pointer.ts";
import { McpwireError } from "../../common/mcpwire-error.ts";
import { CONFIG_SCHEMA } from "./schema.ts";
import type { Path } from "./syntax.ts";

let quick: SchemaInterpreter | undefined;
/** ajv's findings (schema-errors.ts), once set. */
let findings: ((value: unknown) => ErrorObject[]) | undefined;

/** Where validate() takes a refused config's findings from: schema-errors.ts's schemaErrors. */
export function setSchemaErrors(explain: (value: unknown) => ErrorObject[]): void {
  findings = explain;
}

/**
 * validate() refused a config before ajv (schema-errors.ts) was loaded: withSchemaErrors loads it
 * and runs the work again. Never reaches a user of parseConfig (parse.ts sets the findings first).
 */
export class SchemaErrorsNotLoadedError extends McpwireError<"schema-errors-not-loaded"> {
  override readonly name = "SchemaErrorsNotLoadedError";
  constructor() {
    super("the config's schema findings (schema-errors.ts) are not loaded; load them with loadSchemaErrors()", "schema-errors-not-loaded");
  }
}

/**
 * Runs `work` (a parse of config text); when it meets a refused config before ajv was loaded,
 * loads schema-errors.ts and runs it again. `work` must start from the text each time (a parse
 * makes its context anew).
 */
export async function withSchemaErrors<T>(work: () => T): Promise<T> {
  try {
    return work();
  } catch (error) {
    if (!(error instanceof SchemaErrorsNotLoadedError)) throw error;
  }
  await loadSchemaErrors();
  return work();
}

/** Loads schema-errors.ts (ajv), once. */
export async function loadSchemaErrors(): Promise<void> {
  if (findings === undefined) findings = (await import("./schema-errors.ts")).schemaErrors;
}

/** Whether `value` is a valid config, by the interpreting validator alone (stops at the first problem). */
export function isValidConfig(value: unknown): boolean {
  // Draft 2020-12 as the schema's $schema says; formats are annotations there, so none is asserted.
  quick ??= new SchemaInterpreter(CONFIG_SCHEMA, "2020-12");
  try {
    return quick.check(value).length === 0;
  } catch {
    // Nested too deeply for it (a RangeError): such a config is left to ajv.
    return false;
  }
}

/**
 * The config's schema findings: none for a valid config (ajv not loaded), else ajv's. Throws
 * SchemaErrorsNotLoadedError for a refused config while schema-errors.ts is not loaded yet.
 */
export function validate(value: unknown): ErrorObject[] {
  if (isValidConfig(value)) return [];
  if (findings === undefined) throw new SchemaErrorsNotLoadedError();
  return findings(value);
}

/** A JSON pointer as path segments: array indexes become numbers. */
export function pathOf(pointer: string, root: unknown): Path {
  if (pointer === "") return [];
  const path: (string | number)[] = [];
  let node = root;
  for (const raw of pointer.slice(1).split("/")) {
    const segment = pointerKey(raw);
    const key = Array.isArray(node) ? Number(segment) : segment;
    path.push(key);
    node = isObject(node) || Array.isArray(node) ? (node as Record<string | number, unknown>)[key] : undefined;
  }
  return path;
}

export function valueAt(root: unknown, path: Path): unknown {
  let node = root;
  for (const key of path) node = isObject(node) || Array.isArray(node) ? (node as Record<string | number, unknown>)[key] : undefined;
  return node;
}
