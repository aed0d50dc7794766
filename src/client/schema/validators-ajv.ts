// The validators of a build that runs where ajv is wanted (Node, Deno, Bun): ajv, the default
// where code generation works, and the interpreting one. Chosen by package.json "imports"
// (`#json-schema`: node, bun, deno → this module; browser, workerd, worker, default →
// validators-web.ts) in the npm package, and by validators.ts from source. Each validator is
// loaded on first use, by a literal import() a bundler can see.

import type { ValidatorTable } from "./schema-validator.ts";

/** ajv (the default where code generation works) and the interpreting validator. */
export const validatorTable: ValidatorTable = {
  preferred: "ajv",
  load: {
    ajv: () => import("./ajv-validator.ts").then((module) => module.loadAjvValidator()),
    interpreting: () => import("./interpreting-validator.ts").then((module) => module.interpretingValidator),
  },
};
