// The config's JSON Schema (schema.ts) checked by ajv, compiled once; its findings located by
// their JSON pointers.

import type { ErrorObject } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { isObject } from "../../common/json.ts";
import { CONFIG_SCHEMA } from "./schema.ts";
import type { Path } from "./syntax.ts";

let validator: ((data: unknown) => boolean) & { errors?: ErrorObject[] | null } | undefined;

export function validate(value: unknown): ErrorObject[] {
  // allowUnionTypes: `type: [string, number, boolean]` is meant (see schema.ts).
  validator ??= new Ajv2020({ allErrors: true, allowUnionTypes: true, logger: false }).compile(CONFIG_SCHEMA);
  return validator(value) ? [] : [...(validator.errors ?? [])];
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
