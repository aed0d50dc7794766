// The JSON Schema validator (ajv), loaded when a schema is first checked rather than when mcpwire
// is imported: ajv is most of the root entry's load time (about 100 of 130 ms on Node), and a
// client that never meets an outputSchema or a form elicitation never needs it.

import type { Ajv } from "ajv";
import type { Ajv2019 } from "ajv/dist/2019.js";
import type { Ajv2020 } from "ajv/dist/2020.js";

/** The ajv engines mcpwire uses: draft-07 (and -06), 2019-09, 2020-12. */
export interface JsonSchemaEngines {
  Ajv: typeof Ajv;
  Ajv2019: typeof Ajv2019;
  Ajv2020: typeof Ajv2020;
}

let engines: JsonSchemaEngines | undefined;
let loading: Promise<JsonSchemaEngines> | undefined;

/**
 * Loads the validator once; every later call returns the same promise. The Client calls it
 * before it checks a result against an outputSchema or an elicitation answer against its schema;
 * call it yourself before using `validateAnswer` directly.
 */
export function loadJsonSchema(): Promise<JsonSchemaEngines> {
  loading ??= Promise.all([import("ajv"), import("ajv/dist/2019.js"), import("ajv/dist/2020.js")]).then(
    ([draft07, draft2019, draft2020]) => (engines = { Ajv: draft07.Ajv, Ajv2019: draft2019.Ajv2019, Ajv2020: draft2020.Ajv2020 }),
  );
  return loading;
}

/** The loaded engines; throws when loadJsonSchema() has not finished (a programming error). */
export function jsonSchemaEngines(): JsonSchemaEngines {
  if (engines === undefined) {
    throw new Error("the JSON Schema validator is not loaded yet: await loadJsonSchema() (from mcpwire) before checking a schema");
  }
  return engines;
}
