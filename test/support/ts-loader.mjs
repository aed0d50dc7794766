// The TypeScript loader of `node test/suite.mjs node` (`node --import ./test/support/ts-loader.mjs
// --test …`): each test file's process registers ts-hooks.mjs, which hands Node the JavaScript of
// every .ts module. It does what tsx did there at about a third of tsx's start-up cost (0.3 s of
// CPU less per file, measured in test/suite.mjs's opening comment); a single file still runs with
// `node --import tsx --test FILE`, and tests that start TypeScript children keep tsx.
import { register } from "node:module";
import process from "node:process";

// Stack traces name the .ts lines, as under tsx.
process.setSourceMapsEnabled(true);
register(new URL("./ts-hooks.mjs", import.meta.url));
