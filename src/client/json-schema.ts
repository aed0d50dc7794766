// Which JSON Schema validator checks schemas, and loading it: when a schema is first checked
// rather than when mcpwire is imported (ajv is most of the root entry's load time, about 100 of
// 130 ms on Node; a client that never meets an outputSchema or a form elicitation needs neither).
// Each validator is its own module, imported only when chosen: choosing `interpreting` never
// loads ajv, and the default where code generation works never loads the interpreting one.

import { type JsonSchemaValidator, type SchemaValidator, ValidatorNotLoadedError } from "./schema-validator.ts";

let generatesCode: boolean | undefined;

/**
 * Whether this runtime lets JavaScript compile code at run time, found once, when first asked:
 * `new Function` is what ajv calls, so it is what we try. A page whose Content-Security-Policy
 * lacks 'unsafe-eval' throws an EvalError (and may send a CSP violation report: choose
 * `jsonSchema: "interpreting"` to skip the probe); Cloudflare Workers throw too. A runtime
 * signal (user agent, a CSP header) would miss a policy set by a <meta> tag or an embedder's
 * sandbox; the attempt does not.
 */
export function codeGenerationAllowed(): boolean {
  if (generatesCode === undefined) {
    try {
      generatesCode = new Function("return 1")() === 1;
    } catch {
      generatesCode = false;
    }
  }
  return generatesCode;
}

/** Set when ajv could not be loaded (a bundle that left it out): the default is then the interpreting validator. */
let ajvMissing = false;

/** The validator used when none is chosen: ajv where code generation works (and ajv is there), else the interpreting one. */
export function defaultValidatorName(): JsonSchemaValidator {
  return codeGenerationAllowed() && !ajvMissing ? "ajv" : "interpreting";
}

const loaded = new Map<JsonSchemaValidator, SchemaValidator>();
const loading = new Map<JsonSchemaValidator, Promise<SchemaValidator>>();

function load(name: JsonSchemaValidator): Promise<SchemaValidator> {
  let promise = loading.get(name);
  if (promise === undefined) {
    const module = name === "ajv"
      ? import("./ajv-validator.ts").then((module) => module.loadAjvValidator())
      : import("./interpreting-validator.ts").then((module) => module.interpretingValidator);
    promise = module.then((validator) => {
      loaded.set(name, validator);
      return validator;
    });
    loading.set(name, promise);
  }
  return promise;
}

/**
 * Loads a validator once; every later call returns the same promise. Unnamed, the default
 * (defaultValidatorName), and where ajv is the default but cannot be loaded (a bundle that left
 * it out), the interpreting validator. The Client calls it before it checks a result against an
 * outputSchema or an elicitation answer against its schema; call it yourself before using
 * `validateAnswer` directly.
 */
export function loadJsonSchema(name?: JsonSchemaValidator): Promise<SchemaValidator> {
  if (name !== undefined) return load(name);
  const chosen = defaultValidatorName();
  if (chosen !== "ajv") return load(chosen);
  return load("ajv").catch(() => {
    ajvMissing = true;
    return load("interpreting");
  });
}

/** The loaded validator (the default when none is named); throws when loadJsonSchema() has not finished (a programming error). */
export function jsonSchemaValidator(name: JsonSchemaValidator = defaultValidatorName()): SchemaValidator {
  const validator = loaded.get(name);
  if (validator === undefined) {
    throw new ValidatorNotLoadedError(`the ${name} JSON Schema validator is not loaded yet: await loadJsonSchema() before checking a schema`);
  }
  return validator;
}

/** The names a `jsonSchema` option accepts. */
export const JSON_SCHEMA_VALIDATORS: readonly JsonSchemaValidator[] = ["ajv", "interpreting"];
