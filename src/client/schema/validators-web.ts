// The validators of a browser or Worker build: the interpreting one alone, so a bundle holds no
// ajv (about 40 KB gzipped) and a page never probes `new Function` (a CSP report). Chosen by
// package.json "imports" (`#json-schema`: browser, workerd, worker, default → this module;
// node, bun, deno → validators-ajv.ts). Loaded on first use, by a literal import().

import type { ValidatorTable } from "./schema-validator.ts";

/** The interpreting validator alone (json-schema-interpreter.ts: no code generation). */
export const validatorTable: ValidatorTable = {
  preferred: "interpreting",
  load: {
    interpreting: () => import("./interpreting-validator.ts").then((module) => module.interpretingValidator),
  },
};
