// docs/architecture.md's layers and entries, kept true by reading the imports of src/: no layer
// imports a layer above it, no runtime global outside src/runtime/, no top-level await in a
// library module, the entries load only what their row allows, and every error thrown has a
// code (docs/errors.md).

import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { computedImports, globalUses, type ImportRecord, importsOf, thrownClasses, tokenize, topLevelAwaits } from "./support/source-scan.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SRC = join(ROOT, "src");

/** Bottom-up; equal ranks sit side by side and may not import each other. */
const LAYER_RANK: Readonly<Record<string, number>> = {
  runtime: 0,
  common: 1,
  jsonrpc: 2,
  transport: 3,
  auth: 4,
  client: 4,
  server: 4,
  registry: 5,
  agent: 6,
  host: 7,
  check: 8,
  serve: 8,
  cli: 9,
};
/**
 * The client's files that hold the protocol's own types and names (the spec's types, its
 * versions, the 2026-07-28 `_meta` keys), which the server half beside it may import: one
 * definition of the protocol for both halves (docs/architecture.md, "The layers").
 */
const PROTOCOL_FILES: ReadonlySet<string> = new Set([
  "src/client/types.ts",
  "src/client/protocol-version.ts",
  "src/client/request-meta.ts",
  "src/client/header-params.ts",
]);
/** Importable by every layer. */
const SHARED_LAYERS = new Set(["runtime", "common"]);
const RUNTIME_GLOBALS: ReadonlySet<string> = new Set(["process", "Deno", "Buffer"]);
/** Executables, not library modules: they may await at top level (nothing imports them). */
const EXECUTABLES = new Set(["src/cli/run.ts", "src/cli/bin.js"]);

interface SourceFile {
  /** Relative to the repository, with forward slashes: `src/client/client.ts`. */
  path: string;
  layer: string;
  text: string;
  imports: ImportRecord[];
}

function listSources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listSources(full));
    else if (/\.(ts|js|mjs)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(full);
  }
  return out;
}

const repoPath = (full: string) => relative(ROOT, full).split(sep).join("/");

/** A file's layer: its folder under src/; the root entry src/mod.ts is the client's. */
function layerOf(path: string): string {
  const parts = path.split("/");
  return parts.length === 2 ? "client" : parts[1]!;
}

const sources: SourceFile[] = listSources(SRC).sort().map((full) => {
  const path = repoPath(full);
  const text = readFileSync(full, "utf8");
  return { path, layer: layerOf(path), text, imports: importsOf(text) };
});
const byPath = new Map(sources.map((file) => [file.path, file]));

/** The repository path a relative specifier names, or undefined for a package or `node:` module. */
function target(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  return repoPath(resolve(ROOT, dirname(from), specifier));
}

describe("the source scanner (so the rules below can fail)", () => {
  test("imports: type-only declarations are marked, inline `type` specifiers still load the module", () => {
    const found = importsOf([
      `import type { A } from "./a.ts";`,
      `import { type B } from "./b.ts";`,
      `export type { C } from "./c.ts";`,
      `export { d } from "./d.ts";`,
      `export * as e from "./e.ts";`,
      `import "./f.ts";`,
      `const g = await import("./g.ts"); // import { h } from "./h.ts"`,
      'const s = `import { i } from "./i.ts"`; const u = import.meta.url;',
    ].join("\n"));
    assert.deepEqual(found.map((record) => [record.specifier, record.typeOnly, record.dynamic, record.line]), [
      ["./a.ts", true, false, 1],
      ["./b.ts", false, false, 2],
      ["./c.ts", true, false, 3],
      ["./d.ts", false, false, 4],
      ["./e.ts", false, false, 5],
      ["./f.ts", false, false, 6],
      ["./g.ts", false, true, 7],
    ]);
  });

  test("computed imports: a variable, a template with a substitution, a call; not a literal, import.meta or a string", () => {
    const found = computedImports([
      `const a = await import("./a.ts");`,
      `const b = await import(name);`,
      "const c = import(`npm:${name}`);",
      `const d = import(pick());`,
      "const e = `import(${JSON.stringify(x)})`; const u = import.meta.url; // import(x)",
      `const f = import("./f.ts", { with: { type: "json" } });`,
    ].join("\n"));
    assert.deepEqual(found, [2, 3, 4]);
  });

  test("top-level await: found at the top, in top-level blocks and in templates; not in functions", () => {
    assert.deepEqual(topLevelAwaits("const a = await load();"), [1]);
    assert.deepEqual(topLevelAwaits("if (x) {\n  await y;\n}\nfor await (const z of w) {}"), [2, 4]);
    assert.deepEqual(topLevelAwaits("const t = `${await x}`;"), [1]);
    assert.deepEqual(
      topLevelAwaits([
        "async function f(): Promise<void> { await g(); }",
        "const h = async () => await g();",
        "const k = { async m() { await g(); } };",
        "class C { async n() { if (x) { await g(); } } }",
        "run(async (v) => await v, 1);",
        "const re = /await/; // await",
      ].join("\n")),
      [],
    );
  });

  test("thrown classes: in throw statements and reject() arguments, error-like names only; not in comments or strings", () => {
    const found = thrownClasses(
      [
        "if (x) throw new Error(`at ${new URL(u)}`);",
        'throw client.failure ?? new ConfigError("m", "invalid-config");',
        'return Promise.reject(new RangeError("r"));',
        'const stop = () => {\n  throw new Stop("cancel");\n};',
        '// throw new Error("in a comment");',
        'const s = "throw new Error(1)"; const e = new Error("made, not thrown"); setTimeout(() => reject(new TypeError("t")), 1);',
        "throw error;",
      ].join("\n"),
      new Set(["Stop"]),
    );
    assert.deepEqual(found, [
      { name: "Error", line: 1 },
      { name: "ConfigError", line: 2 },
      { name: "RangeError", line: 3 },
      { name: "Stop", line: 5 },
      { name: "TypeError", line: 8 },
    ]);
  });

  test("runtime globals: bare names and globalThis reads count; members, keys, comments and strings do not", () => {
    const uses = globalUses(
      [
        "const env = process.env;",
        "const d = (globalThis as { Deno?: unknown }).Deno;",
        'const b = globalThis["Buffer"];',
        "const o = { process: 1 }; o.process; // process",
        'const s = "Deno";',
      ].join("\n"),
      RUNTIME_GLOBALS,
    );
    assert.deepEqual(uses, [{ name: "process", line: 1 }, { name: "Deno", line: 2 }, { name: "Buffer", line: 3 }]);
  });
});

describe("the layers of docs/architecture.md", () => {
  test("src/ holds only the known layers", () => {
    const unknown = [...new Set(sources.map((file) => file.layer))].filter((layer) => !(layer in LAYER_RANK));
    assert.deepEqual(unknown, [], `folders under src/ that are not a layer of docs/architecture.md: ${unknown.join(", ")}`);
  });

  test("no layer imports a layer above it (auth and client side by side); every relative import exists", () => {
    const problems: string[] = [];
    for (const file of sources) {
      for (const record of file.imports) {
        const path = target(file.path, record.specifier);
        if (path === undefined) continue;
        if (!existsSync(join(ROOT, path))) {
          problems.push(`${file.path}:${record.line} imports "${record.specifier}", which does not exist`);
          continue;
        }
        if (!path.startsWith("src/")) {
          problems.push(`${file.path}:${record.line} imports "${record.specifier}" from outside src/`);
          continue;
        }
        const layer = layerOf(path);
        if (layer === file.layer || SHARED_LAYERS.has(layer)) continue;
        if (file.layer === "server" && PROTOCOL_FILES.has(path)) continue;
        if (!(LAYER_RANK[layer]! < LAYER_RANK[file.layer]!)) {
          const how = LAYER_RANK[layer] === LAYER_RANK[file.layer] ? "beside it" : "above it";
          problems.push(`${file.path}:${record.line} (${file.layer}) imports ${path} (${layer}, ${how})`);
        }
      }
    }
    assert.deepEqual(problems, []);
  });

  test("no runtime global (process, Deno, Buffer) and no node: module outside src/runtime/", () => {
    const problems: string[] = [];
    for (const file of sources) {
      if (file.layer === "runtime") continue;
      for (const use of globalUses(file.text, RUNTIME_GLOBALS)) problems.push(`${file.path}:${use.line} uses ${use.name}`);
      for (const record of file.imports) {
        if (record.specifier.startsWith("node:")) problems.push(`${file.path}:${record.line} imports ${record.specifier}`);
      }
    }
    assert.deepEqual(problems, [], "use src/runtime/ (runtime.env(), runtime.spawn(), …) or a web standard instead");
  });

  test("no library module awaits at top level (Node's require() of the package needs that)", () => {
    const problems: string[] = [];
    for (const file of sources) {
      if (EXECUTABLES.has(file.path)) continue;
      for (const line of topLevelAwaits(file.text)) problems.push(`${file.path}:${line}`);
    }
    assert.deepEqual(problems, []);
  });
});

/** Everything loading `entry` loads: the relative modules reached and the packages named, type-only imports aside. */
function moduleGraph(entry: string): { modules: Set<string>; packages: Set<string>; via: Map<string, string> } {
  const modules = new Set<string>([entry]);
  const packages = new Set<string>();
  const via = new Map<string, string>();
  const queue = [entry];
  while (queue.length > 0) {
    const path = queue.shift()!;
    const file = byPath.get(path);
    assert.ok(file, `${path} is not a source file`);
    for (const record of file.imports) {
      if (record.typeOnly) continue;
      const next = target(path, record.specifier);
      if (next === undefined) {
        const name = record.specifier.startsWith("@") ? record.specifier.split("/").slice(0, 2).join("/") : record.specifier.split("/")[0]!;
        if (!packages.has(name)) via.set(name, path);
        packages.add(name);
      } else if (!modules.has(next)) {
        modules.add(next);
        via.set(next, path);
        queue.push(next);
      }
    }
  }
  return { modules, packages, via };
}

/** `a ← b ← entry`: how the entry reached `what`. */
function chain(graph: ReturnType<typeof moduleGraph>, what: string): string {
  const steps = [what];
  let at = graph.via.get(what);
  while (at !== undefined && steps.length < 50) {
    steps.push(at);
    at = graph.via.get(at);
  }
  return steps.join(" ← ");
}

const isProvider = (path: string) => path.startsWith("src/agent/providers/");
const isAuth = (path: string) => path.startsWith("src/auth/");
/** The sync bridge's modules (the blocking worker, the bridge, its worker's entry); src/runtime/ wraps the API itself. */
const isWorker = (path: string) => !path.startsWith("src/runtime/") && /(worker|sync-bridge)[^/]*$/.test(path);

describe("code a bundler can see (issue 38)", () => {
  test("no module in src/ imports by a computed specifier: what loads late is a literal import(), or chosen by package condition", () => {
    const problems: string[] = [];
    for (const file of sources) for (const line of computedImports(file.text)) problems.push(`${file.path}:${line}`);
    assert.deepEqual(problems, []);
  });
});

describe("the entries of docs/architecture.md", () => {
  const rules: [entry: string, forbidden: string[]][] = [
    ["src/mod.ts", ["yaml", "providers", "auth", "workers", "telemetry"]],
    ["src/registry/mod.ts", ["yaml", "providers"]],
    ["src/host/mod.ts", ["providers"]],
    ["src/agent/mod.ts", []],
    ["src/auth/mod.ts", []],
    ["src/client/telemetry/mod.ts", ["yaml", "providers", "auth", "workers"]],
    ["src/client/extensions/mod.ts", ["yaml", "providers", "auth", "workers", "telemetry"]],
    ["src/check/mod.ts", ["yaml", "providers", "auth", "workers", "telemetry"]],
    ["src/serve/mod.ts", ["providers"]],
  ];
  for (const [entry, forbidden] of rules) {
    test(`${entry} exists and loads no ${forbidden.join(", ") || "module outside src/ but its dependencies"}`, () => {
      const graph = moduleGraph(entry);
      const problems: string[] = [];
      const packages = [...graph.packages];
      if (forbidden.includes("yaml")) { for (const name of packages.filter((p) => p === "yaml")) problems.push(chain(graph, name)); }
      for (const path of graph.modules) {
        if (
          (forbidden.includes("providers") && isProvider(path)) ||
          (forbidden.includes("auth") && isAuth(path)) ||
          (forbidden.includes("workers") && isWorker(path))
        ) {
          problems.push(chain(graph, path));
        }
      }
      // The root entry holds no telemetry code: it comes with mcpwire/telemetry (openTelemetry), given to a Client.
      if (forbidden.includes("telemetry")) {
        for (const path of graph.modules) if (path === "src/client/telemetry/telemetry-layer.ts") problems.push(chain(graph, path));
        for (const name of packages) if (name.startsWith("@opentelemetry/")) problems.push(chain(graph, name));
      }
      // smol-toml: loaded only when a TOML config (Codex's) is imported; @opentelemetry/api, the
      // optional peer, only by the telemetry layer when telemetry is turned on.
      const allowed = new Set(["ajv", "yaml", "smol-toml", "@opentelemetry/api"]);
      for (const name of packages) if (!allowed.has(name) && !name.startsWith("node:")) problems.push(`an undeclared package: ${chain(graph, name)}`);
      assert.deepEqual(problems, []);
    });
  }

  test("the root entry is the client's: it reaches JSON-RPC, the transports and the client", () => {
    const { modules } = moduleGraph("src/mod.ts");
    for (const path of ["src/jsonrpc/peer.ts", "src/transport/stdio.ts", "src/transport/streamable-http/mod.ts", "src/client/client.ts"]) {
      assert.ok(modules.has(path), `src/mod.ts should load ${path}`);
    }
  });
});

/**
 * The runtime modules of src/runtime/ and where package.json "imports" (#runtime) sends each
 * condition: node.ts (Node, Bun), deno.ts, web.ts (browsers, Workers, an unknown runtime).
 * In the npm package the build makes dist/runtime/mod.js a re-export of #runtime
 * (scripts/runtime-entry.ts); src/runtime/mod.ts imports node.ts and deno.ts for source users.
 */
const RUNTIME_MODULES: Readonly<Record<string, string>> = {
  browser: "src/runtime/web.ts",
  workerd: "src/runtime/web.ts",
  worker: "src/runtime/web.ts",
  deno: "src/runtime/deno.ts",
  bun: "src/runtime/node.ts",
  node: "src/runtime/node.ts",
  default: "src/runtime/web.ts",
};

/**
 * The validator tables of src/client/ and where package.json "imports" (#json-schema) sends each
 * condition: validators-web.ts (the interpreting validator alone) for browsers, Workers and an
 * unknown runtime; validators-ajv.ts for Deno, Bun and Node. In the npm package the build makes
 * dist/client/schema/validators.js a re-export of #json-schema (scripts/runtime-entry.ts).
 */
const VALIDATOR_MODULES: Readonly<Record<string, string>> = {
  browser: "src/client/schema/validators-web.ts",
  workerd: "src/client/schema/validators-web.ts",
  worker: "src/client/schema/validators-web.ts",
  deno: "src/client/schema/validators-ajv.ts",
  bun: "src/client/schema/validators-ajv.ts",
  node: "src/client/schema/validators-ajv.ts",
  default: "src/client/schema/validators-web.ts",
};

/**
 * `entry`'s graph as a bundler resolving for the web builds it: src/runtime/mod.ts leads to
 * web.ts, not to node.ts and deno.ts; src/client/schema/validators.ts to validators-web.ts.
 */
function webGraph(entry: string): ReturnType<typeof moduleGraph> {
  const swaps: [string, Set<string>, string][] = [
    ["src/runtime/mod.ts", new Set(["./node.ts", "./deno.ts"]), "./web.ts"],
    ["src/client/schema/validators.ts", new Set(["./validators-ajv.ts"]), "./validators-web.ts"],
  ];
  const originals = swaps.map(([path]) => byPath.get(path)!);
  for (const [path, picked, web] of swaps) {
    const mod = byPath.get(path)!;
    const first = mod.imports.find((record) => picked.has(record.specifier))!;
    const imports = mod.imports.filter((record) => !picked.has(record.specifier));
    byPath.set(path, { ...mod, imports: [...imports, { ...first, specifier: web, typeOnly: false, dynamic: false }] });
  }
  try {
    return moduleGraph(entry);
  } finally {
    for (const original of originals) byPath.set(original.path, original);
  }
}

describe("the runtimes (package.json imports #runtime)", () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { imports?: Record<string, Record<string, string>> };

  test("#runtime sends each condition to its runtime module, in the order a resolver tries them", () => {
    const map = pkg.imports?.["#runtime"] ?? {};
    assert.deepEqual(Object.keys(map), Object.keys(RUNTIME_MODULES), "conditions are tried in order: browser and the Workers' first, default last");
    for (const [condition, source] of Object.entries(RUNTIME_MODULES)) {
      assert.equal(map[condition], source.replace(/^src\//, "./dist/").replace(/\.ts$/, ".js"), condition);
    }
  });

  test("each runtime module exports `runtime`, and src/runtime/mod.ts the names the build keeps", () => {
    for (const path of new Set(Object.values(RUNTIME_MODULES))) {
      assert.match(byPath.get(path)!.text, /^export const runtime: Runtime = \w+;$/m, `${path} exports no runtime`);
    }
  });

  test("web.ts and what it imports use no node: module and no runtime global (process, Deno, Buffer)", () => {
    const { modules } = moduleGraph("src/runtime/web.ts");
    const problems: string[] = [];
    for (const path of modules) {
      const file = byPath.get(path)!;
      for (const use of globalUses(file.text, RUNTIME_GLOBALS)) problems.push(`${path}:${use.line} uses ${use.name}`);
      for (const record of file.imports) if (record.specifier.startsWith("node:")) problems.push(`${path}:${record.line} imports ${record.specifier}`);
    }
    assert.deepEqual(problems, []);
  });

  test("#json-schema sends each condition to its validator table, in the order a resolver tries them", () => {
    const map = pkg.imports?.["#json-schema"] ?? {};
    assert.deepEqual(Object.keys(map), Object.keys(VALIDATOR_MODULES));
    for (const [condition, source] of Object.entries(VALIDATOR_MODULES)) {
      assert.equal(map[condition], source.replace(/^src\//, "./dist/").replace(/\.ts$/, ".js"), condition);
    }
  });

  test("the root entry, resolved for a browser or a Worker, reaches the interpreting validator and no ajv", () => {
    const graph = webGraph("src/mod.ts");
    assert.ok(graph.modules.has("src/client/schema/interpreting-validator.ts"));
    const problems = [...graph.modules].filter((path) => path === "src/client/schema/ajv-validator.ts").map((path) => chain(graph, path));
    for (const name of graph.packages) if (name === "ajv" || name.startsWith("ajv/")) problems.push(chain(graph, name));
    assert.deepEqual(problems, []);
  });

  test("the root entry, resolved for a browser or a Worker, reaches web.ts and neither node.ts, deno.ts nor a node: module", () => {
    const graph = webGraph("src/mod.ts");
    assert.ok(graph.modules.has("src/runtime/web.ts"));
    const problems = [...graph.modules].filter((path) => ["src/runtime/node.ts", "src/runtime/deno.ts"].includes(path)).map((path) => chain(graph, path));
    for (const name of graph.packages) if (name.startsWith("node:")) problems.push(chain(graph, name));
    assert.deepEqual(problems, []);
  });
});

/**
 * The import cycles of a graph (file → the files it imports), one per strongly connected
 * component, each as the files in order with the first again at the end: `a → b → a`.
 */
function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) components.push(component);
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  // One concrete cycle per component: the shortest way from its first file back to it.
  return components.map((component) => {
    const members = new Set(component);
    const start = [...component].sort()[0]!;
    const cameFrom = new Map<string, string>();
    const queue = [start];
    while (queue.length > 0) {
      const node = queue.shift()!;
      for (const next of graph.get(node) ?? []) {
        if (!members.has(next) || cameFrom.has(next)) continue;
        cameFrom.set(next, node);
        if (next === start) queue.length = 0;
        else queue.push(next);
      }
    }
    const back: string[] = [];
    for (let node = cameFrom.get(start)!; node !== start; node = cameFrom.get(node)!) back.push(node);
    return [start, ...back.reverse(), start];
  });
}

describe("import cycles", () => {
  test("the cycle finder finds a cycle through any kind of import, and none in a tree", () => {
    const cycles = importCycles(
      new Map([
        ["a", ["b", "d"]],
        ["b", ["c"]],
        ["c", ["a"]],
        ["d", []],
        ["e", ["e"]],
      ]),
    );
    assert.deepEqual(cycles.map((cycle) => cycle.join(" → ")).sort(), ["a → b → c → a", "e → e"]);
    assert.deepEqual(importCycles(new Map([["a", ["b", "c"]], ["b", ["c"]], ["c", []]])), []);
  });

  test("no module in src/ imports itself through others (type-only and dynamic imports included)", () => {
    // A type-only cycle loads nothing at run time, but it still means neither file can be read
    // (or moved) without the other: the shared type belongs in the lower of the two.
    const graph = new Map<string, string[]>();
    for (const file of sources) {
      const targets = file.imports.map((record) => target(file.path, record.specifier)).filter((path): path is string =>
        path !== undefined && byPath.has(path)
      );
      graph.set(file.path, targets);
    }
    const cycles = importCycles(graph).map((cycle) => cycle.join(" → "));
    assert.deepEqual(cycles, [], `import cycles in src/ (move the shared type or helper to the lower module):\n${cycles.join("\n")}`);
  });
});

describe("one error model (docs/errors.md)", () => {
  /** Every class of src/ that extends another: name → its base and file. */
  const classes = new Map<string, { base: string; path: string }>();
  for (const file of sources) {
    for (const match of file.text.matchAll(/\bclass\s+(\w+)(?:<[^>{]*>)?\s+extends\s+(\w+)/g)) {
      classes.set(match[1]!, { base: match[2]!, path: file.path });
    }
  }
  /** Whether a class ends at McpwireError, through its bases. */
  const isMcpwireError = (name: string): boolean => {
    const seen = new Set<string>();
    let current = name;
    while (current !== "McpwireError" && classes.has(current) && !seen.has(current)) {
      seen.add(current);
      current = classes.get(current)!.base;
    }
    return current === "McpwireError";
  };

  test("every error class in src/ extends McpwireError, directly or through another error class", () => {
    // A class that extends Error itself, or a built-in error, would have no `code` to test.
    const errorClasses = [...classes.keys()].filter((name) => /Error$/.test(name) || /Error$/.test(classes.get(name)!.base));
    assert.ok(errorClasses.length > 30, `found only ${errorClasses.length} error classes: the scan is broken`);
    const offenders: string[] = [];
    for (const name of errorClasses) {
      let current = name;
      const seen = new Set<string>();
      while (current !== "McpwireError" && classes.has(current) && !seen.has(current)) {
        seen.add(current);
        current = classes.get(current)!.base;
      }
      if (current !== "McpwireError" && name !== "McpwireError") offenders.push(`${classes.get(name)!.path}: ${name} ends at ${current}`);
    }
    assert.deepEqual(offenders, [], `error classes that do not extend McpwireError:\n${offenders.join("\n")}`);
  });

  test("every throw in src/ throws an McpwireError; a program's wrong argument a TypeError or RangeError", () => {
    // docs/errors.md: what a caller handles carries a code; an argument the program got wrong is
    // the standard TypeError / RangeError. A class of the module's own that extends nothing and
    // that the module catches again (`instanceof`) is a control-flow signal, never seen outside.
    const offenders: string[] = [];
    let thrown = 0;
    for (const file of sources) {
      const own = new Set([...file.text.matchAll(/\bclass\s+(\w+)\s*\{/g)].map((match) => match[1]!));
      for (const { name, line } of thrownClasses(file.text, own)) {
        thrown++;
        if (isMcpwireError(name) || name === "TypeError" || name === "RangeError") continue;
        if (own.has(name) && new RegExp(`\\binstanceof\\s+${name}\\b`).test(file.text)) continue;
        offenders.push(`${file.path}:${line} throws ${name}`);
      }
    }
    assert.ok(thrown > 300, `found only ${thrown} throws: the scan is broken`);
    assert.deepEqual(offenders, [], `throws of an error without a code (use the layer's McpwireError class, docs/errors.md):\n${offenders.join("\n")}`);
  });
});

// docs/architecture.md, the transport row: a transport knows nothing of MCP methods, tool lists
// or eras. It moves messages and reports closes and errors; per-request headers come with each
// send (SendOptions.headers), and restarting or remembering a server is the Client's business.

/** The transport classes: every class declared in src/transport/ whose name ends in Transport. */
function transportClasses(): Set<string> {
  const names = new Set<string>();
  for (const file of sources) {
    if (file.layer !== "transport") continue;
    for (const match of file.text.matchAll(/\bclass\s+(\w+Transport)\b/g)) names.add(match[1]!);
  }
  return names;
}

/** Each `instanceof X` in `source` whose X is in `classes` (comments and strings do not count). */
function instanceofUses(source: string, classes: ReadonlySet<string>): { name: string; line: number }[] {
  const tokens = tokenize(source);
  const uses: { name: string; line: number }[] = [];
  for (let i = 0; i + 1 < tokens.length; i++) {
    const next = tokens[i + 1]!;
    if (tokens[i]!.kind === "ident" && tokens[i]!.text === "instanceof" && next.kind === "ident" && classes.has(next.text)) {
      uses.push({ name: next.text, line: next.line });
    }
  }
  return uses;
}

/** The member names of `interface name { … }` in `source` (its own lines, one level deep). */
function interfaceMembers(source: string, name: string): string[] {
  const start = source.indexOf(`export interface ${name} {`);
  assert.ok(start >= 0, `interface ${name} not found`);
  const tokens = tokenize(source.slice(start));
  const members: string[] = [];
  const base = tokens[3]!.depth + 1; // export interface Name {
  for (let i = 4; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.depth < base) break;
    const next = tokens[i + 1];
    const previous = tokens[i - 1]!;
    const startsMember = token.depth === base && token.kind === "ident" && (previous.text === "{" || previous.text === ";" || previous.text === "readonly");
    if (startsMember && token.text !== "readonly" && next !== undefined && ["?", ":", "("].includes(next.text)) members.push(token.text);
  }
  return members;
}

/** Names of the Client's business: its era probe and cache, its tools, MCP methods. */
const CLIENT_BUSINESS = /fresh|restart|serverKey|era|tool|schema|method|initialize|discover/i;

describe("transports that know nothing of MCP (docs/architecture.md)", () => {
  test("the scanners find an instanceof of a transport class, and the members of an interface", () => {
    const classes = new Set(["StdioTransport"]);
    assert.deepEqual(instanceofUses("if (t instanceof StdioTransport) x();\n// t instanceof StdioTransport\nconst s = 'instanceof StdioTransport';", classes), [
      { name: "StdioTransport", line: 1 },
    ]);
    const members = interfaceMembers(
      "export interface T {\n  readonly a: string;\n  b?(): void;\n  c(x: { d: number }): void;\n  e?: (f: string) => void;\n}\n",
      "T",
    );
    assert.deepEqual(members, ["a", "b", "c", "e"]);
  });

  test("no instanceof of a transport class outside src/transport/ (a transport names its kind, and tells what a host needs)", () => {
    const classes = transportClasses();
    assert.ok(classes.has("StdioTransport") && classes.has("TracingTransport") && classes.has("AutoHttpTransport"), `found ${[...classes].join(", ")}`);
    const problems: string[] = [];
    for (const file of sources) {
      if (file.layer === "transport") continue;
      for (const use of instanceofUses(file.text, classes)) problems.push(`${file.path}:${use.line} instanceof ${use.name}`);
    }
    assert.deepEqual(problems, [], "use traceName (traceTransportName) or a member of the Transport interface (serverProcess) instead");
  });

  test("Transport and its HTTP hooks have no member named for the client's business (era probe, era cache, tool list)", () => {
    const text = byPath.get("src/transport/transport.ts")!.text;
    const transport = interfaceMembers(text, "Transport");
    assert.ok(transport.includes("send") && transport.includes("onclose"), `Transport's members: ${transport.join(", ")}`);
    const hooks = interfaceMembers(text, "HttpTransportHooks");
    assert.ok(hooks.includes("setProtocolVersion"), `HttpTransportHooks' members: ${hooks.join(", ")}`);
    const named = [...transport, ...hooks].filter((member) => CLIENT_BUSINESS.test(member));
    assert.deepEqual(named, [], "a transport moves messages; restarting, remembering and the tools' headers are the Client's");
  });

  test("no file in src/transport/ reads a tool's schema (its inputSchema, an x-mcp-header annotation)", () => {
    const problems: string[] = [];
    for (const file of sources) {
      if (file.layer !== "transport") continue;
      for (const token of tokenize(file.text)) {
        if ((token.kind === "string" && token.text === "x-mcp-header") || (token.kind === "ident" && token.text === "inputSchema")) {
          problems.push(`${file.path}:${token.line} ${token.text}`);
        }
      }
    }
    assert.deepEqual(problems, [], "the Client computes Mcp-Param-* headers (src/client/request-headers.ts) and passes them with each send");
  });
});

describe("the core client names no extension (docs/architecture.md, The chain)", () => {
  /** The folders under src/client/ that are extensions or optional code a client is given, never imported by the core. */
  const GIVEN = ["tasks", "skills", "apps", "telemetry", "extensions"];
  const core = sources.filter((file) => /^src\/client\/[^/]+\.ts$/.test(file.path));

  test("the core client files are found", () => {
    assert.ok(core.some((file) => file.path === "src/client/client.ts") && core.some((file) => file.path === "src/client/client-connection.ts"));
  });

  test("no core client file imports from tasks/, skills/, apps/, telemetry/ or extensions/ (type imports included)", () => {
    const problems: string[] = [];
    for (const file of core) {
      for (const record of file.imports) {
        const path = target(file.path, record.specifier);
        const folder = path?.match(/^src\/client\/([^/]+)\//)?.[1];
        if (folder !== undefined && GIVEN.includes(folder)) problems.push(`${file.path} imports ${record.specifier}`);
      }
    }
    assert.deepEqual(problems, [], "an extension is a value given to the client (ClientOptions.use); it imports the core, never the reverse");
  });

  test("no request path in the core client bypasses the chain (no peer.request outside the chain's end)", () => {
    const problems: string[] = [];
    for (const file of core) {
      const lines = file.text.split("\n");
      lines.forEach((line, i) => {
        if (/\bpeer!?\.request\(/.test(line) && !/^\s*\/\//.test(line)) problems.push(`${file.path}:${i + 1}`);
      });
    }
    assert.deepEqual(problems, [], "send through the connection's chain (ClientConnection.send), so every link sees the request");
  });
});

describe("the folder plans of docs/architecture.md", () => {
  const design = readFileSync(join(ROOT, "docs/architecture.md"), "utf8");
  /** The rows of the table under `heading`: the first cell's backticked name, and the backticked file names of the row. */
  function planRows(heading: string): { folder: string; files: string[] }[] {
    const start = design.indexOf(`\n${heading}\n`);
    assert.ok(start >= 0, `docs/architecture.md has no "${heading}"`);
    const section = design.slice(start + heading.length + 2).split(/\n#{2,3} /)[0]!;
    return section.split("\n").filter((line) => line.startsWith("| ") && !line.startsWith("| folder")).map((line) => {
      const cells = line.split(" | ");
      return { folder: /^\| `([\w-]+)\/`/.exec(cells[0]!)?.[1] ?? "", files: [...line.matchAll(/`([\w-]+\.ts)`/g)].map((match) => match[1]!) };
    });
  }

  test("src/host/ holds the folders its plan names, and at its top only the files the plan's (top) row names", () => {
    const rows = planRows("### The host's folders");
    const planned = rows.filter((row) => row.folder !== "").map((row) => row.folder).sort();
    const top = rows.find((row) => row.folder === "")?.files ?? [];
    const entries = readdirSync(join(SRC, "host"), { withFileTypes: true });
    assert.deepEqual(entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort(), planned, "src/host/'s folders and the plan's rows");
    const atTop = entries.filter((entry) => entry.isFile() && entry.name !== "mod.ts").map((entry) => entry.name).sort();
    assert.deepEqual(atTop, [...top].sort(), "a new host file goes in the folder of its concern (or the plan's (top) row says why it is shared)");
  });

  /** Which host folders each host folder may import (docs/architecture.md, "The host's folders"); every folder may import the files at the top. */
  const HOST_FOLDER_IMPORTS: Readonly<Record<string, readonly string[]>> = {
    config: ["store/file-lock.ts"],
    sandbox: ["config"],
    store: ["config"],
    trace: [],
    servers: ["config", "sandbox", "store"],
    bridge: ["config", "servers"],
  };

  test("src/host/'s folders import one another only along the plan", () => {
    const problems: string[] = [];
    for (const file of sources) {
      const [, layer, folder, rest] = file.path.split("/");
      if (layer !== "host" || rest === undefined) continue;
      const allowed = HOST_FOLDER_IMPORTS[folder!];
      assert.ok(allowed !== undefined, `${file.path}: a host folder HOST_FOLDER_IMPORTS does not name`);
      for (const record of file.imports) {
        const to = target(file.path, record.specifier);
        if (to === undefined || !to.startsWith("src/host/")) continue;
        const inside = to.slice("src/host/".length);
        const toFolder = inside.includes("/") ? inside.split("/")[0]! : undefined;
        if (toFolder === undefined || toFolder === folder) continue; // the top's shared files, or its own folder
        if (!allowed.includes(toFolder) && !allowed.includes(inside)) problems.push(`${file.path} imports ${to}`);
      }
    }
    assert.deepEqual(problems, [], "docs/architecture.md's host folder plan says which folder uses which");
  });
});

/** The modules of verbs/ each row of the verb table loads (`import("./verbs/…")` between its `name: row(` and the next row's). */
function verbTableModules(text: string): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  const starts = [...text.matchAll(/^ {2}(\w+): row\(/gm)];
  starts.forEach((start, i) => {
    const body = text.slice(start.index, starts[i + 1]?.index ?? text.length);
    rows.set(start[1]!, [...body.matchAll(/import\("\.\/verbs\/([\w.-]+)"\)/g)].map((found) => found[1]!));
  });
  return rows;
}

describe("the CLI's folders (docs/architecture.md, the CLI's folders)", () => {
  const CLI_VERBS = "src/cli/verbs/";
  const TABLE = "src/cli/verb-table.ts";
  /** The rows with no module of verbs/: the help and the version. */
  const OWN_ROWS = new Set(["help", "version"]);
  const verbFiles = sources.filter((file) => file.path.startsWith(CLI_VERBS)).map((file) => file.path.slice(CLI_VERBS.length));

  test("the table reader finds each row's modules", () => {
    const rows = verbTableModules(
      [
        "export const VERBS = {",
        '  a: row("x", () => import("./verbs/a-verb.ts").then((verb) => ({ run: verb.a }))),',
        "  b: row(",
        '    "y",',
        '    () => import("./verbs/b-verb.ts").then((verb) => ({ run: verb.b })),',
        "  ),",
        '  help: row("z", () => Promise.resolve({ run: help })),',
        "};",
      ].join("\n"),
    );
    assert.deepEqual([...rows], [["a", ["a-verb.ts"]], ["b", ["b-verb.ts"]], ["help", []]]);
  });

  test("src/cli/verbs/ holds verbs only: each file <name>-verb.ts, none imports another verb or the verb table", () => {
    assert.ok(verbFiles.length >= 20, `verbs/ holds ${verbFiles.length} files`);
    const problems = verbFiles.filter((name) => !name.endsWith("-verb.ts")).map((name) => `${CLI_VERBS}${name} is not named <name>-verb.ts`);
    for (const file of sources) {
      if (!file.path.startsWith(CLI_VERBS)) continue;
      for (const record of file.imports) {
        const path = target(file.path, record.specifier);
        if (path !== undefined && (path.startsWith(CLI_VERBS) || path === TABLE)) problems.push(`${file.path}:${record.line} imports ${path}`);
      }
    }
    assert.deepEqual(problems, [], "what verbs share goes in a module outside verbs/ (src/cli/, session/, tools/, interactive/, trace/)");
  });

  test("every verb of the table loads one module of verbs/, and every module of verbs/ is a verb of the table", async () => {
    const { VERBS } = await import("../src/cli/verb-table.ts");
    const rows = verbTableModules(byPath.get(TABLE)!.text);
    assert.deepEqual([...rows.keys()], Object.keys(VERBS), "the table reader found every row of VERBS");
    const problems: string[] = [];
    for (const [verb, modules] of rows) {
      if (OWN_ROWS.has(verb)) {
        if (modules.length > 0) problems.push(`${verb} is the table's own verb but loads ${modules.join(", ")}`);
        continue;
      }
      if (modules.length !== 1) problems.push(`${verb} loads ${modules.length} modules of verbs/ (${modules.join(", ")}); a row loads one`);
      for (const name of modules) if (!verbFiles.includes(name)) problems.push(`${verb} loads ${CLI_VERBS}${name}, which does not exist`);
    }
    const loaded = new Set([...rows.values()].flat());
    for (const name of verbFiles) if (!loaded.has(name)) problems.push(`${CLI_VERBS}${name} is loaded by no row of ${TABLE}`);
    assert.deepEqual(problems, []);
    // Each row's module gives what the row promises: a function to run, a usage text, an option table.
    for (const [name, row] of Object.entries(VERBS)) {
      const verb = await row.load();
      assert.equal(typeof verb.run, "function", name);
      assert.ok(verb.usage.startsWith(OWN_ROWS.has(name) ? "mcpwire " : `usage: mcpwire `), `${name}'s usage text starts with its synopsis`);
      assert.equal(typeof verb.options, "object", name);
    }
  });
});
