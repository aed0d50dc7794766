// ajv's findings for a config the quick check (validate.ts) refused: every problem, with its
// keyword, params and JSON pointer, which the messages are made from (schema-messages.ts). In a
// module of its own so that ajv is loaded only where a config is refused (validate.ts
// setSchemaErrors: parse.ts at once, load.ts when needed).

import type { ErrorObject } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { CONFIG_SCHEMA } from "./schema.ts";

let detailed: ((data: unknown) => boolean) & { errors?: ErrorObject[] | null } | undefined;

/** ajv's findings for `value`: every problem, with its keyword, params and JSON pointer. */
export function schemaErrors(value: unknown): ErrorObject[] {
  // allowUnionTypes: `type: [string, number, boolean]` is meant (see schema.ts).
  detailed ??= new Ajv2020({ allErrors: true, allowUnionTypes: true, logger: false }).compile(CONFIG_SCHEMA);
  return detailed(value) ? [] : [...(detailed.errors ?? [])];
}
