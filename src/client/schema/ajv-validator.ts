// The ajv validator: compiles each schema to a JavaScript function (`new Function`), the fastest
// check and the default wherever code generation is allowed (Node, Deno, Bun). Loaded only when
// chosen: validators-ajv.ts imports this module dynamically, and this module imports ajv (most of
// the root entry's load time) dynamically too. A browser or Worker build never reaches it: the
// `#json-schema` package condition gives those validators-web.ts (validators.ts).

import type { Ajv } from "ajv";
import type { ErrorObject } from "ajv";
import type { Ajv2019 } from "ajv/dist/2019.js";
import type { Ajv2020 } from "ajv/dist/2020.js";
import { messageOf } from "../../common/error-text.ts";
import type { JsonObject } from "../types.ts";
import {
  type CompileOptions,
  type Dialect,
  orderedFailures,
  type SchemaCheck,
  SchemaError,
  type SchemaFailure,
  type SchemaValidator,
} from "./schema-validator.ts";

type Engine = Ajv | Ajv2019 | Ajv2020;

/** The base URI of a schema without `$id` (nothing is fetched from it). */
const ROOT_ID = "urn:mcpwire:schema";

// Formats are annotations by default in 2020-12; ajv asserts only those a compile names (the
// engine for formats is kept apart). strict: false because servers' schemas legitimately carry
// extra keywords. addUsedSchema: false keeps a schema's `$id` out of ajv's registry: each schema
// stands alone, and a tool listed again with a changed schema under the same `$id` must compile
// instead of failing "schema with key or id … already exists".
const AJV_OPTIONS = { strict: false, validateFormats: false, allErrors: true, logger: false, addUsedSchema: false } as const;

/** ajv's engines: draft-07 (and -06), 2019-09, 2020-12. */
interface Engines {
  Ajv: typeof Ajv;
  Ajv2019: typeof Ajv2019;
  Ajv2020: typeof Ajv2020;
}

function createEngine(engines: Engines, dialect: Dialect, formats: CompileOptions["formats"]): Engine {
  const options = formats === undefined ? AJV_OPTIONS : { ...AJV_OPTIONS, validateFormats: true };
  let engine: Engine;
  switch (dialect) {
    case "2020-12":
      engine = new engines.Ajv2020(options);
      break;
    case "2019-09":
      engine = new engines.Ajv2019(options);
      break;
    case "draft-07":
      engine = new engines.Ajv(options);
      break;
    case "draft-06":
      // draft-07 only added keywords to draft-06, so its engine validates draft-06 data;
      // the schema itself is not checked against the draft-06 meta-schema.
      engine = new engines.Ajv({ ...options, validateSchema: false });
      break;
  }
  for (const [name, check] of Object.entries(formats ?? {})) engine.addFormat(name, { type: "string", validate: check });
  return engine;
}

function failureOf(error: ErrorObject): SchemaFailure {
  // uniqueItems: ajv names a pair of equal items ("(items ## 2 and 3 are identical)"), the
  // interpreting validator finds another pair; the message both give stops before it.
  const message = error.keyword === "uniqueItems" ? "must NOT have duplicate items" : error.message ?? "is invalid";
  const failure: SchemaFailure = { path: error.instancePath, keyword: error.keyword, message };
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "additionalProperties") failure.property = String(params.additionalProperty);
  if (error.keyword === "unevaluatedProperties") failure.property = String(params.unevaluatedProperty);
  return failure;
}

class AjvValidator implements SchemaValidator {
  readonly name = "ajv";
  /** One engine per dialect (and per format table: elicitation's is a module constant). */
  readonly #engines = new Map<string, Engine>();
  readonly #formatTables = new WeakMap<object, Map<Dialect, Engine>>();
  readonly #constructors: Engines;

  constructor(engines: Engines) {
    this.#constructors = engines;
  }

  compile(schema: JsonObject, dialect: Dialect, options: CompileOptions = {}): SchemaCheck {
    const engine = this.#engine(dialect, options.formats);
    // The dialect is chosen; compile without `$schema`, so that spellings ajv does not
    // register ("https://json-schema.org/draft-07/schema", no trailing "#", …) still work.
    // A shallow copy: the caller's schema object is never changed.
    const { $schema: _dialect, ...rest } = schema;
    // Without an `$id`, ajv (with addUsedSchema: false) cannot resolve `$ref: "#"`, the root:
    // a recursive schema would not compile. A base of our own makes "#" the schema itself.
    const body = rest.$id === undefined ? { $id: ROOT_ID, ...rest } : rest;
    try {
      const validate = engine.compile(body);
      return (value) => {
        if (validate(value)) return undefined;
        return orderedFailures((validate.errors ?? []).map(failureOf));
      };
    } catch (error) {
      throw new SchemaError(messageOf(error), { cause: error });
    } finally {
      // Drop ajv's cache entry for it (keyed by the object: it would grow with every listing).
      try {
        engine.removeSchema(body);
      } catch {
        // it never got in
      }
    }
  }

  #engine(dialect: Dialect, formats: CompileOptions["formats"]): Engine {
    if (formats === undefined) {
      let engine = this.#engines.get(dialect);
      if (engine === undefined) this.#engines.set(dialect, engine = createEngine(this.#constructors, dialect, undefined));
      return engine;
    }
    let byDialect = this.#formatTables.get(formats);
    if (byDialect === undefined) this.#formatTables.set(formats, byDialect = new Map());
    let engine = byDialect.get(dialect);
    if (engine === undefined) byDialect.set(dialect, engine = createEngine(this.#constructors, dialect, formats));
    return engine;
  }
}

/** Loads ajv and gives the validator over it (json-schema.ts keeps one per process: its engines keep nothing of a schema once compiled). */
export async function loadAjvValidator(): Promise<SchemaValidator> {
  const [draft07, draft2019, draft2020] = await Promise.all([import("ajv"), import("ajv/dist/2019.js"), import("ajv/dist/2020.js")]);
  // ajv is CommonJS: Node and Deno give its exports as named ones too, but a bundler's chunk of it
  // (esbuild with code splitting, as Vite and webpack split a page) has only the default export.
  const engine = <T>(module: Record<string, unknown>, name: string): T =>
    (module[name] ?? (module.default as Record<string, unknown> | undefined)?.[name]) as T;
  return new AjvValidator({
    Ajv: engine<typeof Ajv>(draft07, "Ajv"),
    Ajv2019: engine<typeof Ajv2019>(draft2019, "Ajv2019"),
    Ajv2020: engine<typeof Ajv2020>(draft2020, "Ajv2020"),
  });
}
