// Module hooks for ts-loader.mjs: a .ts module's JavaScript is esbuild's transform of it (as tsx
// makes it: ES modules, the options of tsconfig.json that change the output, an inline source
// map), kept in a cache folder under the system's temporary folder keyed by the file's path and
// content, so that esbuild is loaded and run only for a file that changed. Everything else goes
// to Node's own loader.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const ESBUILD_VERSION = createRequire(import.meta.url)("esbuild/package.json").version;
const OPTIONS = {
  loader: "ts",
  format: "esm",
  target: "node20",
  sourcemap: "inline",
  tsconfigRaw: { compilerOptions: { target: "ES2022", verbatimModuleSyntax: true, useDefineForClassFields: true } },
};
const CACHE = join(tmpdir(), `mcpwire-ts-${process.getuid?.() ?? "user"}`);
const SALT = `${ESBUILD_VERSION}\0${JSON.stringify(OPTIONS)}\0`;
let esbuild;

/** Node's load hook: .ts files become ES modules; anything else is Node's. */
export async function load(url, context, nextLoad) {
  if (!url.startsWith("file:") || !/\.m?ts$/.test(url)) return nextLoad(url, context);
  const path = fileURLToPath(url);
  const source = readFileSync(path, "utf8");
  const cached = join(CACHE, `${createHash("sha256").update(SALT).update(path).update("\0").update(source).digest("hex").slice(0, 32)}.js`);
  let code;
  try {
    code = readFileSync(cached, "utf8");
  } catch {
    esbuild ??= await import("esbuild");
    code = (await esbuild.transform(source, { ...OPTIONS, sourcefile: path })).code;
    mkdirSync(CACHE, { recursive: true });
    const partial = `${cached}.${process.pid}`;
    writeFileSync(partial, code);
    renameSync(partial, cached);
  }
  return { format: "module", source: code, shortCircuit: true };
}
