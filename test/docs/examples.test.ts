// Examples that run (issue 31): every fenced code block of README.md, CONTRIBUTING.md and
// docs/**/*.md (not the generated docs/api/) is kept true by this test. What a block's info
// string (the words after the opening ```) asks for:
//
//   ```ts  ```typescript  ```js  ```javascript   type-checked: one generated project (a file per
//       block, the repo's strict compiler options, top-level await allowed), one tsc for all.
//       Imports of "mcpwire" and its entries ("mcpwire/registry", … : scripts/api-report.ts ENTRIES)
//       (also as "jsr:@mcpwire/mcpwire…" or "npm:mcpwire…") are rewritten to the src/ entries;
//       other packages resolve from the repository's node_modules (the dev dependencies too).
//       Under Deno the type-check is skipped (the Node run does it; Deno runs the run blocks).
//       A fragment declares what it uses rather than being ignored:
//         import type { Client } from "mcpwire";
//         declare const client: Client; // a connected client
//   ```ts run  ```js run     type-checked, then executed in a temp dir as its own process with the
//       test's runtime (Node: node --import tsx; Deno: deno run -A), killed after 60 s; it fails
//       when it throws or exits non-zero. Its environment has:
//         EVERYTHING_COMMAND  server-everything's stdio mode as one command line split on spaces,
//                             `node /…/server-everything/dist/index.js stdio`
//         EVERYTHING_URL      server-everything over Streamable HTTP, `http://127.0.0.1:<port>/mcp`,
//                             started once for the file when a block names EVERYTHING_URL
//       and HOME and the XDG directories in a temp dir (the era, tool-list and pin caches off).
//       On PATH first (POSIX), an `npx` that runs `npx -y @modelcontextprotocol/server-everything
//       [mode]` as the installed server-everything (offline, no download) and anything else as
//       the real npx: a block may start the server as the README tells a reader to.
//   ```ts ignore (any language + ignore)   neither checked nor run: for fragments, sparingly;
//       the first test's name counts them and names where they are ("doc blocks: … 2 ignored (…)").
//   ```console run           a CLI transcript: each `$ mcpwire …` line (quotes as sh has them; no
//       pipes or expansions but $EVERYTHING_URL and $EVERYTHING_COMMAND, as above; a trailing
//       `# exit N` says it ends with code N, default 0) is run as
//       the CLI tests run it (test/support/cli-runner.ts: the compiled CLI under Node), cwd the
//       repository root (so `--config examples/mcpwire.yaml` works), HOME and XDG dirs in a temp
//       dir, the same `npx` first on PATH. The lines after it up to the next `$ ` line are its
//       stdout (stdout then stderr when N is not 0), compared normalised (test/support/transcript.ts): trailing spaces, timings
//       (`12 ms`, `1.2 s`) as <time>, versions as <version>, temp dirs as <tmp>, the repository
//       as <root>, the URL as $EVERYTHING_URL (its port as 127.0.0.1:<port>); a line `…` matches
//       any number of lines, `…` within a line any text.
//   ```console (no run), ```sh, ```text, …: not checked.
//   ```yaml  ```json          parsed: a syntax error fails. A block marked ```yaml config (or
//       ```json config), or whose first line is `# mcpwire config`, is also loaded by
//       parseConfig (every `${VAR}` it names set) and must give no error and no warning.
//
// Failures name the page and the line of the block's opening fence (README.md:331), a type error
// or a config problem the page's own line. With 12 pages (108 blocks: 43 type-checked, 8 run,
// 3 transcripts) the file took 32 s under Node (14 s of CPU: tsc 4 s, a run block 2-4 s, a
// transcript command 1-2 s; four blocks at a time) and 27 s under Deno (10 s of CPU, no
// type-check, one block at a time: Deno's node:test runs steps in turn), on a loaded machine.
//   node --import tsx --test test/docs/examples.test.ts
//   npx deno test -A test/docs/examples.test.ts

import "../support/test-env.ts"; // the era, tool-list and pin caches off, here and in what this starts
import assert from "node:assert/strict";
import { type ChildProcess, execFile } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import process from "node:process";
import { after, describe, test } from "node:test";
import { parseDocument } from "yaml";
import { ENTRIES as API_ENTRIES } from "../../scripts/api-report.ts";
import { parseConfig } from "../../src/host/config/parse.ts";
import { mcpwire, runtimeArgs } from "../support/cli-runner.ts";
import { blocksOf, type DocBlock, docBlocks, ROOT, whereOf } from "../support/doc-blocks.ts";
import { freePort, startEverything, stop } from "../support/everything-http.ts";
import { EVERYTHING } from "../support/everything-path.ts";
import { linesMatch, normalised, type Normalising, transcriptSteps } from "../support/transcript.ts";

const isDeno = "Deno" in globalThis;
const CODE_LANGS = new Set(["ts", "typescript", "js", "javascript", "mjs"]);
const RUN_LIMIT_MS = 60_000;
const TSC_LIMIT_MS = 300_000;
/** The src/ entry of each public entry point, by its subpath ("" for `mcpwire`): scripts/api-report.ts's list. */
const ENTRIES: Record<string, string> = Object.fromEntries(API_ENTRIES.map((entry) => [entry.specifier.slice("mcpwire".length), entry.source]));

const blocks = docBlocks();
const ignored = blocks.filter((block) => block.flags.includes("ignore"));
const live = blocks.filter((block) => !block.flags.includes("ignore"));
const code = live.filter((block) => CODE_LANGS.has(block.lang));
const runnable = code.filter((block) => block.flags.includes("run"));
const transcripts = live.filter((block) => block.lang === "console" && block.flags.includes("run"));
const data = live.filter((block) => ["yaml", "yml", "json"].includes(block.lang));

/** The scratch directory of this file: HOME and XDG dirs, the generated project, the run blocks' dirs. */
const scratch = mkdtempSync(join(tmpdir(), "mcpwire-examples-"));
const home = join(scratch, "home");
for (const dir of [".config", ".cache", ".local/state", ".local/share"]) mkdirSync(join(home, dir), { recursive: true });
after(() => rmSync(scratch, { recursive: true, force: true }));
const shims = join(scratch, "bin");
mkdirSync(shims);
if (process.platform !== "win32") {
  const quoted = (text: string) => `'${text.replaceAll("'", `'"'"'`)}'`;
  writeFileSync(
    join(shims, "npx"),
    [
      "#!/bin/sh",
      "# examples.test.ts: server-everything as installed, offline; anything else to the real npx",
      'if [ "$1" = "-y" ] && [ "$2" = "@modelcontextprotocol/server-everything" ]; then',
      "  shift 2",
      `  exec node ${quoted(EVERYTHING)} "$@"`,
      "fi",
      `PATH=${quoted(process.env.PATH ?? "")} exec npx "$@"`,
      "",
    ].join("\n"),
  );
  chmodSync(join(shims, "npx"), 0o755);
}

/** The environment of what the blocks run: HOME and XDG in the scratch dir (Deno's own cache where it was). */
function sandboxEnv(extra: Record<string, string> = {}): Record<string, string | undefined> {
  const deno = isDeno ? { DENO_DIR: process.env.DENO_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "deno") } : {};
  return {
    ...process.env,
    ...deno,
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_STATE_HOME: join(home, ".local/state"),
    XDG_DATA_HOME: join(home, ".local/share"),
    NO_COLOR: "1",
    PATH: `${shims}${delimiter}${process.env.PATH ?? ""}`,
    ...extra,
  };
}

/** An import of the package or of one of its entries (`mcpwire/host`, `jsr:@mcpwire/mcpwire/auth`, …). */
const SUBPATHS = Object.keys(ENTRIES).filter((subpath) => subpath !== "").map((subpath) => subpath.slice(1)).join("|");
const PACKAGE_IMPORT = new RegExp(
  `(\\bfrom\\s*|\\bimport\\s*\\(\\s*|\\brequire\\s*\\(\\s*|\\bimport\\s+)(["'])(?:jsr:@mcpwire/mcpwire|npm:mcpwire|mcpwire)((?:/(?:${SUBPATHS}))?)\\2`,
  "g",
);

/** The block's text with its imports of the package pointed at the src/ entries (`.ts` paths, absolute). */
function withSourceImports(body: string): string {
  return body.replace(
    PACKAGE_IMPORT,
    (_match, before: string, quote: string, entry: string) => `${before}${quote}${join(ROOT, ENTRIES[entry] ?? "src/mod.ts")}${quote}`,
  );
}

/** The generated file of a code block: its lines where they are (so line N is the block's line N), then `export {}`. */
function generated(block: DocBlock): string {
  return `${withSourceImports(block.body)}\nexport {};\n`;
}

function extensionOf(block: DocBlock): string {
  return block.lang.startsWith("t") ? "mts" : "mjs";
}

/** Runs `command args` to its end (killed after `limit`); stdout and stderr together. */
function runToEnd(command: string, args: string[], options: { cwd: string; env?: Record<string, string | undefined>; limit: number }) {
  return new Promise<{ code: number; output: string }>((resolve) => {
    execFile(
      command,
      args,
      { cwd: options.cwd, env: options.env, timeout: options.limit, killSignal: "SIGKILL", maxBuffer: 16 << 20 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        const killed = error !== null && error.killed ? `\n[killed after ${options.limit / 1000} s]` : "";
        resolve({ code, output: `${stdout}${stderr}${killed}` });
      },
    );
  });
}

test(
  `doc blocks: ${blocks.length} in ${new Set(blocks.map((block) => block.file)).size} pages; ${ignored.length} ignored${
    ignored.length > 0 ? ` (${ignored.map(whereOf).join(", ")})` : ""
  }`,
  () => {
    // Reports the count and where the ignored ones are; and the markers are read as documented.
    const [sample] = blocksOf("x.md", "text\n```ts run\nconst a = 1;\n```\n```yaml config\nk: v\n```\n");
    assert.deepEqual(sample, { file: "x.md", line: 2, lang: "ts", flags: ["run"], body: "const a = 1;" });
    for (const block of ignored) assert.ok(!block.flags.includes("run"), `${whereOf(block)}: both ignore and run`);
  },
);

test(`every ts/js block type-checks (${code.length} blocks, one tsc)`, { skip: isDeno ? "the type-check runs under Node" : false }, async () => {
  const project = join(scratch, "typecheck");
  mkdirSync(project);
  const names = new Map<string, DocBlock>();
  for (const [index, block] of code.entries()) {
    const name = `block-${index}.${extensionOf(block)}`;
    names.set(name, block);
    writeFileSync(join(project, name), generated(block));
  }
  writeFileSync(join(project, "package.json"), `{ "type": "module" }\n`);
  symlinkSync(join(ROOT, "node_modules"), join(project, "node_modules"), "junction"); // the dev dependencies a block imports
  writeFileSync(
    join(project, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        lib: ["ES2023", "DOM"],
        types: ["node"],
        typeRoots: [join(ROOT, "node_modules/@types")],
        strict: true,
        noEmit: true,
        allowImportingTsExtensions: true,
        allowJs: true,
        checkJs: true,
        resolveJsonModule: true,
        verbatimModuleSyntax: true,
        noImplicitOverride: true,
        noUncheckedIndexedAccess: true,
        noFallthroughCasesInSwitch: true,
        skipLibCheck: true,
        isolatedModules: true,
      },
      files: [...names.keys()],
    }),
  );
  const tsc = join(ROOT, "node_modules/typescript/bin/tsc");
  const { code: exit, output } = await runToEnd(process.execPath, [tsc, "-p", join(project, "tsconfig.json"), "--pretty", "false"], {
    cwd: project,
    limit: TSC_LIMIT_MS,
  });
  // block-3.mts(12,5): error TS2304: … → README.md:343:5 (the fence line + the block's line)
  const located = output.replace(/(?:[^\s(]*[/\\])?(block-\d+\.m[jt]s)\((\d+),(\d+)\)/g, (text, name: string, line: string, column: string) => {
    const block = names.get(name);
    return block === undefined ? text : `${block.file}:${block.line + Number(line)}:${column}`;
  });
  assert.equal(exit, 0, `the doc blocks do not type-check (mark a fragment \`ts ignore\`):\n${located}`);
});

test("the mechanics: imports pointed at src/; a transcript split as sh does, both sides normalised, `…` for lines or text", () => {
  const steps = transcriptSteps('$ mcpwire read s \'a b\' "c\\"d" x=1   # exit 2\nline 1\n…\n$ mcpwire version\nmcpwire 1.2.3', 10);
  assert.deepEqual(steps.map(({ line, args, exit, expected }) => ({ line, args, exit, expected })), [
    { line: 11, args: ["read", "s", "a b", 'c"d', "x=1"], exit: 2, expected: ["line 1", "…"] },
    { line: 14, args: ["version"], exit: 0, expected: ["mcpwire 1.2.3"] },
  ]);
  assert.throws(() => transcriptSteps("$ mcpwire call x | jq .", 1), /no shell/);
  assert.throws(() => transcriptSteps("$ mcpwire call $TOKEN", 1), /no shell/);
  assert.deepEqual(transcriptSteps('$ mcpwire inspect --url $EVERYTHING_URL --x "${EVERYTHING_URL}/a"', 1, { EVERYTHING_URL: "http://h/mcp" })[0]?.args, [
    "inspect",
    "--url",
    "http://h/mcp",
    "--x",
    "http://h/mcp/a",
  ]);
  assert.throws(() => transcriptSteps("$ ls", 1), /only `\$ mcpwire …`/);
  const paths: Normalising = { paths: [["/tmp/x1", "<tmp>"]] };
  assert.deepEqual(normalised("\n/tmp/x1/a  \n took 12 ms, 1.5 s, v2.0.1-beta.1\n\n", paths), ["<tmp>/a", " took <time>, <time>, <version>"]);
  assert.equal(
    withSourceImports(
      `import { A } from "mcpwire";\nimport type { B } from 'jsr:@mcpwire/mcpwire/host';\nconst c = await import("npm:mcpwire/auth");\nnew A({ name: "mcpwire" });`,
    ),
    `import { A } from "${join(ROOT, "src/mod.ts")}";\nimport type { B } from '${join(ROOT, "src/host/mod.ts")}';\nconst c = await import("${
      join(ROOT, "src/auth/mod.ts")
    }");\nnew A({ name: "mcpwire" });`,
  );
  assert.ok(linesMatch(["a", "b", "c", "d"], ["a", "…", "d"]));
  assert.ok(linesMatch(["a", "d"], ["a", "…", "d"]));
  assert.ok(linesMatch(["Resource 3: made at 5 PM"], ["Resource 3: made at …"]));
  assert.ok(!linesMatch(["a", "b"], ["a"]));
  assert.ok(!linesMatch(["a", "x", "c"], ["a", "…", "d"]));
});

describe("yaml and json blocks", () => {
  for (const block of data) {
    const isConfig = block.flags.includes("config") || block.body.trimStart().startsWith("# mcpwire config");
    test(`${whereOf(block)} ${block.lang}${isConfig ? " config" : ""} parses`, () => {
      const json = block.lang === "json";
      const text = json ? block.body.replace(/^\s*# mcpwire config[^\n]*/, "") : block.body;
      if (json) {
        assert.doesNotThrow(() => JSON.parse(text), `${whereOf(block)}: not JSON (a fragment: \`json ignore\`)`);
      } else {
        const document = parseDocument("\n".repeat(block.line) + text); // its lines the page's
        assert.deepEqual(document.errors.map((error) => error.message), [], `${whereOf(block)}: not YAML`);
      }
      if (!isConfig) return;
      const env: Record<string, string> = { HOME: home, PATH: process.env.PATH ?? "" };
      for (const [, name] of text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)) env[name!] ??= `example-${name}`;
      // Blank lines first, so that a problem's line is the page's.
      const config = parseConfig("\n".repeat(block.line) + text, {
        file: join(scratch, json ? "mcpwire.json" : "mcpwire.yaml"),
        format: json ? "json" : "yaml",
        env,
        displayName: block.file,
      });
      const problems = [...(config.errors ?? []), ...(config.warnings ?? [])].map((problem) => problem.message);
      assert.deepEqual(problems, [], `${whereOf(block)}: the config block has problems`);
    });
  }
});

/** server-everything over Streamable HTTP: started for the first block that names EVERYTHING_URL, stopped after the file. */
let http: Promise<{ child: ChildProcess; port: number; url: string }> | undefined;
after(async () => {
  const started = await http?.catch(() => undefined);
  if (started !== undefined) await stop(started.child);
});

/** What a block may name: EVERYTHING_COMMAND always, EVERYTHING_URL (the server started) when `text` names it. */
async function blockVars(text: string): Promise<Record<string, string>> {
  const vars: Record<string, string> = { EVERYTHING_COMMAND: `node ${EVERYTHING} stdio` };
  if (text.includes("EVERYTHING_URL")) {
    http ??= freePort().then(async (port) => ({ child: await startEverything(port), port, url: `http://127.0.0.1:${port}/mcp` }));
    vars.EVERYTHING_URL = (await http).url;
  }
  return vars;
}

/** Blocks run at once in each describe below: they mostly wait (on servers, tasks), each in its own directory. */
const AT_ONCE = 4;

describe("run blocks", { concurrency: AT_ONCE }, () => {
  for (const [index, block] of runnable.entries()) {
    test(`${whereOf(block)} ${block.lang} run`, async () => {
      const dir = join(scratch, `run-${index}`);
      mkdirSync(dir);
      symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "junction");
      const file = join(dir, `example.${extensionOf(block)}`);
      writeFileSync(file, generated(block));
      const args = isDeno ? ["run", "-A", "--config", join(ROOT, "deno.json"), file] : ["--import", import.meta.resolve("tsx"), file];
      const env = sandboxEnv(await blockVars(block.body));
      const { code: exit, output } = await runToEnd(process.execPath, args, { cwd: dir, env, limit: RUN_LIMIT_MS });
      assert.equal(exit, 0, `${whereOf(block)}: the example failed (exit ${exit}):\n${output}`);
    });
  }
});

describe("console run blocks", { concurrency: AT_ONCE }, () => {
  for (const block of transcripts) {
    test(`${whereOf(block)} console run`, async () => {
      assert.ok(runtimeArgs.length > 0);
      const vars = await blockVars(block.body);
      const served = vars.EVERYTHING_URL === undefined ? undefined : await http;
      const normalising: Normalising = {
        paths: [
          ...(served === undefined ? [] : [[served.url, "$EVERYTHING_URL"], [`127.0.0.1:${served.port}`, "127.0.0.1:<port>"]] satisfies [string, string][]),
          [home, "<tmp>"],
          [scratch, "<tmp>"],
          [tmpdir(), "<tmp>"],
          [ROOT.replace(/[/\\]$/, ""), "<root>"],
        ],
      };
      const steps = transcriptSteps(block.body, block.line, vars);
      assert.ok(steps.length > 0, `${whereOf(block)}: no \`$ mcpwire …\` line`);
      for (const step of steps) {
        const outcome = await mcpwire(step.args, { env: sandboxEnv(), input: "" });
        const where = `${block.file}:${step.line}`;
        assert.equal(outcome.code, step.exit, `${where}: \`${step.command}\` exited ${outcome.code}, not ${step.exit}:\n${outcome.stdout}${outcome.stderr}`);
        const actual = normalised(step.exit === 0 ? outcome.stdout : outcome.stdout + outcome.stderr, normalising);
        const expected = normalised(step.expected.join("\n"), normalising);
        assert.ok(
          linesMatch(actual, expected),
          `${where}: \`${step.command}\` printed what the page does not show.\n--- the page (normalised)\n${expected.join("\n")}\n--- the CLI (normalised)\n${
            actual.join("\n")
          }\n`,
        );
      }
    });
  }
});
