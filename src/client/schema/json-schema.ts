// Which JSON Schema validator checks schemas, and loading it: when a schema is first checked
// rather than when mcpwire is imported (ajv is most of the root entry's load time, about 100 of
// 130 ms on Node; a client that never meets an outputSchema or a form elicitation needs neither).
// Each validator is its own module, imported only when chosen: choosing `interpreting` never
// loads ajv, and the default where code generation works never loads the interpreting one.
// Which validators a build has is chosen by package condition (validators.ts: `#json-schema`),
// never by a computed import() specifier: a browser or Worker bundle holds no ajv.

import { type JsonSchemaValidator, SchemaError, type SchemaValidator, ValidatorNotLoadedError } from "./schema-validator.ts";
import { validatorTable } from "./validators.ts";

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

/**
 * The validator used when none is chosen: the build's preferred one (validators.ts: ajv on Node,
 * Deno and Bun; the interpreting one under the browser, workerd and worker conditions), the
 * interpreting one where ajv cannot run (code generation refused) or could not be loaded.
 */
export function defaultValidatorName(): JsonSchemaValidator {
  if (validatorTable.preferred !== "ajv") return validatorTable.preferred;
  return codeGenerationAllowed() && !ajvMissing ? "ajv" : "interpreting";
}

const loaded = new Map<JsonSchemaValidator, SchemaValidator>();
const loading = new Map<JsonSchemaValidator, Promise<SchemaValidator>>();

/**
 * The SchemaError (`validator-unavailable`) for a validator this build lacks (ajv under the
 * browser, workerd and worker conditions: validators.ts), else undefined. `who` starts the message.
 */
export function unavailableValidator(name: JsonSchemaValidator, who: string): SchemaError | undefined {
  if (validatorTable.load[name] !== undefined) return undefined;
  return new SchemaError(
    `${who}: the ${name} JSON Schema validator is not in this build of mcpwire (package.json "imports" #json-schema gives this runtime ${
      Object.keys(validatorTable.load).join(", ")
    } alone: ajv is left out of browser and Worker bundles); choose jsonSchema: "${validatorTable.preferred}" or leave it unset`,
    { code: "validator-unavailable" },
  );
}

function load(name: JsonSchemaValidator): Promise<SchemaValidator> {
  let promise = loading.get(name);
  if (promise === undefined) {
    const loader = validatorTable.load[name];
    // Not cached: the same answer each time, and nothing to load.
    if (loader === undefined) return Promise.reject(unavailableValidator(name, "loadJsonSchema"));
    promise = loader().then((validator) => {
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
 * it out), the interpreting validator. A validator this build lacks (ajv in a browser or Worker
 * build) rejects with a SchemaError `validator-unavailable`. The Client calls it before it
 * checks a result against an outputSchema or an elicitation answer against its schema; call it
 * yourself before using `validateAnswer` directly.
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
