// The runtime this code runs on: the only module the other layers import from src/runtime/.
//
// How the runtime module is chosen (no top-level await anywhere, so Node can require() the
// package, and no Node module in a browser bundle):
// - From the npm package (dist/): the build (scripts/runtime-entry.ts) replaces this module's
//   compiled dist/runtime/mod.js with a re-export of `#runtime`, a subpath import that
//   package.json "imports" resolves by condition: `browser`, `workerd`, `worker` → web.js;
//   `deno` → deno.js; `bun`, `node` → node.js; `default` → web.js. Node, Deno, Bun and every
//   bundler (esbuild, webpack, Rollup, Vite, wrangler) resolve it before any code runs, so a
//   browser or Worker bundle holds web.js alone and none of node.ts, deno.ts or a node: module.
// - From source (`node --import tsx`, `deno test`, JSR through deno.json exports, Bun): this
//   file as written, which imports node.ts and deno.ts statically and picks one when it loads;
//   each touches its runtime's globals only when one of its functions is called. (A source
//   import has no conditions: JSR serves the TypeScript as it is.)
// Both paths export the same names (the build checks it).

import { denoCoreRuntime, denoRuntime } from "./deno.ts";
import { nodeCoreRuntime, nodeRuntime } from "./node.ts";
import type { CoreRuntime, Runtime } from "./types.ts";

export type {
  ChildProcess,
  CoreRuntime,
  ExitStatus,
  FileEntry,
  PrivateLog,
  Runtime,
  RuntimeCapability,
  SpawnErrorCode,
  SpawnRequest,
  StreamName,
  WorkerExit,
  WorkerStart,
  WorkerThread,
} from "./types.ts";
export { SpawnError, UnsupportedRuntimeError } from "./errors.ts";

const isDeno = typeof (globalThis as { Deno?: { version?: unknown } }).Deno?.version === "object";

// Everything the runtime offers: the host and the CLI use it.
export const runtime: Runtime = isDeno ? denoRuntime : nodeRuntime;
// What the client and the layers below it use (types.ts CoreRuntime): a bundle of the client holds this part alone.
export const coreRuntime: CoreRuntime = isDeno ? denoCoreRuntime : nodeCoreRuntime;
