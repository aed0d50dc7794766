// The validators this build offers (schema-validator.ts ValidatorTable), chosen as the runtime
// module is (src/runtime/mod.ts):
// - From the npm package (dist/): the build (scripts/runtime-entry.ts) replaces the compiled
//   dist/client/validators.js with a re-export of `#json-schema`, which package.json "imports"
//   resolves by condition: `browser`, `workerd`, `worker`, `default` → validators-web.js (the
//   interpreting validator alone); `node`, `bun`, `deno` → validators-ajv.js. A bundler picks
//   while resolving, so a browser or Worker bundle holds no ajv.
// - From source (tsx, `deno test`, JSR, Bun): this file, validators-ajv.ts (ajv where code
//   generation works, loaded on first use; else the interpreting validator).

export { validatorTable } from "./validators-ajv.ts";
