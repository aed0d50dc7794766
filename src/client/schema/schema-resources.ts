// The places a schema's `$ref`s can lead (JSON Schema 2020-12 core §8.2 "Base URI, Anchors, and
// Dereferencing"; draft-07 §8 "$id"): every schema resource by its absolute URI (`$id` resolved
// against the base it sits in), every anchor (`$anchor`; a plain-name fragment `$id: "#a"` in
// draft-06 and -07), and each subschema's base URI. Nothing is fetched: a `$ref` leaves the
// document only to land in it again, under another `$id`. Built without recursion (a server
// decides how deep a schema is), bounded in depth.

import { isObject } from "../../common/json.ts";
import { pointerKey } from "../../common/json-pointer.ts";
import { ONE_SCHEMA_KEYWORDS, SCHEMA_LIST_KEYWORDS, SCHEMA_MAP_KEYWORDS } from "../../common/schema-keywords.ts";
import { isForeignKeyword } from "./schema-shape.ts";
import { type Dialect, SchemaError } from "./schema-validator.ts";

/** The base URI of a schema without `$id` (ajv-validator.ts gives ajv the same). */
export const ROOT_URI = "urn:mcpwire:schema";

/** Schema nesting refused (a schema deeper than this is unusable: checking a value would recurse as deep). */
export const MAX_SCHEMA_DEPTH = 1000;

/** The subschemas directly inside `schema` that `dialect` reads, `$defs`/`definitions` included. */
export function subschemasOf(schema: Record<string, unknown>, dialect: Dialect): unknown[] {
  const found: unknown[] = [];
  const known = (key: string) => schema[key] !== undefined && !isForeignKeyword(dialect, key);
  for (const key of ONE_SCHEMA_KEYWORDS) if (known(key)) found.push(schema[key]);
  if (schema.items !== undefined) found.push(...(Array.isArray(schema.items) ? schema.items : [schema.items]));
  for (const key of SCHEMA_LIST_KEYWORDS) if (known(key) && Array.isArray(schema[key])) found.push(...schema[key]);
  for (const key of SCHEMA_MAP_KEYWORDS) if (known(key) && isObject(schema[key])) found.push(...Object.values(schema[key]));
  // draft-07's dependencies: a list of names or a schema, per property (ajv reads it in every dialect).
  if (isObject(schema.dependencies)) found.push(...Object.values(schema.dependencies).filter((item) => !Array.isArray(item)));
  return found.filter((item) => isObject(item) || typeof item === "boolean");
}

/** `uri` without its fragment, or undefined when it is not a URI relative to `base`. */
function resolved(uri: string, base: string): URL | undefined {
  try {
    return new URL(uri, base);
  } catch {
    return undefined;
  }
}

/** A JSON Pointer fragment ("/a~1b/0", percent-encoded in a URI) as its steps. */
function pointerSteps(fragment: string): string[] | undefined {
  try {
    return fragment.split("/").slice(1).map((step) => pointerKey(decodeURIComponent(step)));
  } catch {
    return undefined;
  }
}

/** Where each `$id` and anchor of one schema document leads, and each subschema's base URI. */
export class SchemaResources {
  readonly #byUri = new Map<string, unknown>();
  readonly #bases = new Map<object, string>();

  /** Indexes `root` read as `dialect`; throws a SchemaError for a schema nested more than MAX_SCHEMA_DEPTH levels. */
  constructor(root: unknown, dialect: Dialect) {
    const pending: [unknown, string, number][] = [[root, ROOT_URI, 0]];
    this.#byUri.set(ROOT_URI, root);
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      const [node, parentBase, depth] = next;
      if (!isObject(node) || this.#bases.has(node)) continue;
      if (depth > MAX_SCHEMA_DEPTH) {
        throw new SchemaError(`schema is nested more than ${MAX_SCHEMA_DEPTH} levels deep, too deep for the interpreting validator`);
      }
      let base = parentBase;
      if (typeof node.$id === "string") {
        const id = resolved(node.$id, parentBase);
        if (id !== undefined) {
          const anchor = id.hash.slice(1);
          id.hash = "";
          base = id.href;
          if (!node.$id.startsWith("#")) this.#byUri.set(base, node);
          // draft-06/07: `$id: "#name"` names the schema it is in (2019-09 moved this to `$anchor`).
          if (anchor !== "" && (dialect === "draft-07" || dialect === "draft-06")) this.#byUri.set(`${base}#${anchor}`, node);
        }
      }
      if (typeof node.$anchor === "string" && !isForeignKeyword(dialect, "$anchor")) this.#byUri.set(`${base}#${node.$anchor}`, node);
      this.#bases.set(node, base);
      for (const inner of subschemasOf(node, dialect)) pending.push([inner, base, depth + 1]);
    }
  }

  /** The schema `ref` (a `$ref` of `from`) leads to, or undefined when it leads nowhere in the document. */
  resolve(ref: string, from: object): unknown {
    const target = resolved(ref, this.#bases.get(from) ?? ROOT_URI);
    if (target === undefined) return undefined;
    const fragment = target.hash.slice(1);
    target.hash = "";
    if (fragment !== "" && !fragment.startsWith("/") && !fragment.startsWith("%2F")) return this.#byUri.get(`${target.href}#${fragment}`);
    let node = this.#byUri.get(target.href);
    for (const step of pointerSteps(fragment) ?? [undefined]) {
      if (step === undefined) return undefined;
      if (Array.isArray(node) && /^(0|[1-9]\d*)$/.test(step)) node = node[Number(step)];
      else if (isObject(node) && Object.hasOwn(node, step)) node = node[step];
      else return undefined;
    }
    return node;
  }
}
