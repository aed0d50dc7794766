// The config's JSON Schema (schema.ts) checked in two steps: an interpreting validator
// (client/json-schema-interpreter.ts: no code generation, nothing to compile) says whether the config is
// valid, and only a config it refuses is checked again by ajv, whose findings (keyword, params,
// JSON pointer) the messages are made from (schema-messages.ts). Compiling the schema with ajv
// costs about 100 ms of CPU, which every CLI run paid for a config that was fine.

import type { ErrorObject } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { isObject } from "../../common/json.ts";
import { SchemaInterpreter } from "../../client/json-schema-interpreter.ts";
import { CONFIG_SCHEMA } from "./schema.ts";
import type { Path } from "./syntax.ts";

let quick: SchemaInterpreter | undefined;
let detailed: ((data: unknown) => boolean) & { errors?: ErrorObject[] | null } | undefined;

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

/** ajv's findings for `value`: every problem, with its keyword, params and JSON pointer. */
export function schemaErrors(value: unknown): ErrorObject[] {
  // allowUnionTypes: `type: [string, number, boolean]` is meant (see schema.ts).
  detailed ??= new Ajv2020({ allErrors: true, allowUnionTypes: true, logger: false }).compile(CONFIG_SCHEMA);
  return detailed(value) ? [] : [...(detailed.errors ?? [])];
}

/** The config's schema findings: none for a valid config (ajv not compiled), else ajv's. */
export function validate(value: unknown): ErrorObject[] {
  return isValidConfig(value) ? [] : schemaErrors(value);
}

/** A JSON pointer as path segments: array indexes become numbers. */
export function pathOf(pointer: string, root: unknown): Path {
  if (pointer === "") return [];
  const path: (string | number)[] = [];
  let node = root;
  for (const raw of pointer.slice(1).split("/")) {
    const segment = raw.replace(/~1/g, "/").replace(/~0/g, "~");
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
