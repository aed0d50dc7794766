// A server's `sandbox:` settings and its command line as a plan of paths (sandbox.ts turns it
// into bwrap's arguments): its own program always readable; in the default profile also its
// roots, its working directory and the paths its arguments name; the caches npx, uvx and deno
// run packages from. Nothing it finds by itself (a package, a program's folder, the working
// directory) is mapped when it is the user's home or holds it (issue 37).

import { runtime } from "../../runtime/mod.ts";
import { isAbsolutePath, resolvePath } from "../config/paths.ts";
import type { SandboxSettings } from "../config/types.ts";
import { isWithin, type SandboxPlan, SYSTEM_DIRECTORIES } from "./sandbox.ts";

/** A stdio server's spawn as the transport would run it. */
export interface SpawnCommand {
  command: string;
  args: string[];
  /** The child's whole environment. */
  env: Record<string, string>;
  cwd?: string;
}

/** The plan, the child's environment inside, and a note for an exit that may be the sandbox's doing. */
export interface PlannedSandbox {
  plan: SandboxPlan;
  env: Record<string, string>;
  /** What the sandbox withholds from a package runner (npx, uvx) and the config that grants it; said when the server exits by itself with an error. */
  exitNote?: string;
}

/** Arguments looked at for paths, at most (a long argument list is data, not paths). */
const MAX_PATH_ARGUMENTS = 64;
/** Directories walked up from a script to find its package (package.json, pyproject.toml, deno.json). */
const MAX_PACKAGE_DEPTH = 8;
const PACKAGE_FILES = ["package.json", "deno.json", "deno.jsonc", "pyproject.toml"];

/** Programs that fetch and run a package: they read a cache, and may need the network to fill it. */
const NPM_RUNNERS = /^(npx|npm|pnpx|pnpm)$/;
const UV_RUNNERS = /^(uvx|uv)$/;

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

function parentOf(path: string): string {
  const cut = path.lastIndexOf("/");
  return cut <= 0 ? "/" : path.slice(0, cut);
}

async function exists(path: string): Promise<"file" | "directory" | undefined> {
  const real = await runtime.realPath(path).catch(() => undefined);
  if (real === undefined) return undefined;
  const info = await runtime.linkInfo(real).catch(() => undefined);
  return info === undefined ? undefined : info.kind === "directory" ? "directory" : "file";
}

/** `name` found as a program: a path with a slash against `cwd`, else the first hit on `path` (the child's PATH). */
export async function findProgram(name: string, path: string | undefined, cwd: string): Promise<string | undefined> {
  if (name.includes("/")) return resolvePath(cwd, name);
  for (const dir of (path ?? "").split(":")) {
    if (dir === "") continue;
    const candidate = resolvePath(cwd, `${dir}/${name}`);
    if ((await exists(candidate)) === "file") return candidate;
  }
  return undefined;
}

/**
 * What must be readable to run the file at `real` (symbolic links resolved): inside a
 * node_modules tree, that whole tree (its dependencies sit beside it); else its package (the
 * nearest directory above it with a package.json, deno.json or pyproject.toml, with its
 * node_modules, which may be a link elsewhere), or its own directory. The search stops below
 * the user's home: a stray ~/package.json does not make the whole home the script's package;
 * the script then gets its own folder (the file alone when that is the home) and the nearest
 * node_modules above it, where its imports are resolved from.
 */
async function programHome(real: string, homes: readonly string[]): Promise<string[]> {
  const modules = real.indexOf("/node_modules/");
  if (modules !== -1) return [real.slice(0, modules + "/node_modules".length)];
  let dir = parentOf(real);
  for (let level = 0; level < MAX_PACKAGE_DEPTH && dir !== "/" && !holdsHome(dir, homes); level++, dir = parentOf(dir)) {
    for (const file of PACKAGE_FILES) {
      if ((await exists(`${dir}/${file}`)) === "file") return await withLinkedModules(dir);
    }
  }
  const own = parentOf(real);
  return [...(holdsHome(own, homes) ? [real] : await withLinkedModules(own)), ...(await nearestModules(own))];
}

/** The first node_modules directory found from `dir` upwards (Node's resolution order), if any. */
async function nearestModules(dir: string): Promise<string[]> {
  for (let level = 0; level < MAX_PACKAGE_DEPTH; level++, dir = parentOf(dir)) {
    const modules = dir === "/" ? "/node_modules" : `${dir}/node_modules`;
    if ((await exists(modules)) === "directory") return [(await runtime.realPath(modules).catch(() => undefined)) ?? modules];
    if (dir === "/") break;
  }
  return [];
}

/**
 * Whether mapping `path` would expose a home directory: it is one of `homes`, or above one
 * (`/`, `/home`). Such a path is never mapped unless the settings name it.
 */
function holdsHome(path: string, homes: readonly string[]): boolean {
  return path === "/" || homes.some((home) => isWithin(home, path));
}

/** The user's home directories as mcpwire and the server see them, as given and with links resolved. */
async function homeDirectories(...candidates: (string | undefined)[]): Promise<string[]> {
  const homes = new Set<string>();
  for (const home of candidates) {
    if (home === undefined || !isAbsolutePath(home) || home === "/") continue;
    const normal = resolvePath("/", home);
    homes.add(normal);
    homes.add((await runtime.realPath(normal).catch(() => undefined)) ?? normal);
  }
  return [...homes];
}

/** `dir`, and where its node_modules leads when that is a link out of it (a workspace's shared tree). */
async function withLinkedModules(dir: string): Promise<string[]> {
  const linked = await runtime.realPath(`${dir}/node_modules`).catch(() => undefined);
  return linked === undefined || isWithin(linked, dir) ? [dir] : [dir, linked];
}

function isSystemPath(path: string): boolean {
  return SYSTEM_DIRECTORIES.some((dir) => isWithin(path, dir));
}

/** The cache directories a package runner reads packages from (npx: ~/.npm; uvx: uv's cache and tools; deno: DENO_DIR). */
function runnerCaches(program: string, env: Readonly<Record<string, string>>): string[] {
  const home = env.HOME;
  const cacheHome = env.XDG_CACHE_HOME || (home === undefined ? undefined : `${home}/.cache`);
  const caches: (string | undefined)[] = [];
  if (NPM_RUNNERS.test(program)) caches.push(env.npm_config_cache || (home && `${home}/.npm`));
  if (UV_RUNNERS.test(program)) {
    caches.push(env.UV_CACHE_DIR || (cacheHome && `${cacheHome}/uv`));
    caches.push(env.XDG_DATA_HOME ? `${env.XDG_DATA_HOME}/uv` : home && `${home}/.local/share/uv`);
  }
  if (program === "deno") caches.push(env.DENO_DIR || (cacheHome && `${cacheHome}/deno`));
  return caches.filter((dir): dir is string => typeof dir === "string" && isAbsolutePath(dir));
}

/** A path an argument names, `--flag=PATH` included; undefined for options and words that name nothing here. */
async function argumentPath(arg: string, cwd: string): Promise<{ path: string; kind: "file" | "directory" } | undefined> {
  let text = arg;
  if (text.startsWith("-")) {
    const eq = text.indexOf("=");
    if (eq === -1) return undefined;
    text = text.slice(eq + 1);
  }
  if (text === "" || text.includes("\0") || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(text)) return undefined; // URLs, npm: specifiers
  const path = resolvePath(cwd, text);
  const kind = await exists(path);
  return kind === undefined ? undefined : { path, kind };
}

/**
 * The sandbox plan of `spawn` under `settings`. `roots` are the server's configured roots
 * (paths or file:// URIs); `hostEnv` is mcpwire's own environment (for `settings.env`).
 */
export async function planSandbox(
  settings: SandboxSettings,
  spawn: SpawnCommand,
  roots: readonly string[],
  hostEnv: Readonly<Record<string, string>>,
): Promise<PlannedSandbox> {
  const cwd = resolvePath(runtime.cwd(), spawn.cwd ?? ".");
  const homes = await homeDirectories(hostEnv.HOME, spawn.env.HOME);
  /** What the plan found by itself (never a directory that is or holds a home); `given`: what the settings and arguments name. */
  const found: string[] = [];
  const given: string[] = [];
  const defaults = settings.read === undefined;
  // The program itself: where it was found (a runner's bin directory, next to its node) and where its link leads.
  const program = await findProgram(spawn.command, spawn.env.PATH, cwd);
  if (program !== undefined) {
    const real = (await runtime.realPath(program).catch(() => undefined)) ?? program;
    if (!isSystemPath(program)) found.push(holdsHome(parentOf(program), homes) ? program : parentOf(program));
    if (!isSystemPath(real)) found.push(...(await programHome(real, homes)));
  }
  const name = baseName(spawn.command);
  found.push(...runnerCaches(name, spawn.env));
  // The first file among the arguments is the script the program runs: its package is the server's own.
  let script = false;
  for (const arg of spawn.args.slice(0, MAX_PATH_ARGUMENTS)) {
    const named = await argumentPath(arg, cwd);
    if (named === undefined) continue;
    if (named.kind === "file" && !script) {
      script = true;
      const real = (await runtime.realPath(named.path).catch(() => undefined)) ?? named.path;
      // Both as named and as its links lead: the runtime resolves its imports from either.
      found.push(...(await programHome(named.path, homes)), ...(await programHome(real, homes)));
    } else if (defaults) {
      given.push(named.path);
    }
  }
  // docs/security.md: the default profile reads its working directory (configured, else
  // mcpwire's own) with its node_modules: npx runs a project's packages from there.
  const cwdMapped = defaults && !holdsHome(cwd, homes);
  if (cwdMapped) found.push(...(await withLinkedModules(cwd)));
  if (defaults) {
    for (const root of roots) {
      if (!root.startsWith("file://")) given.push(root);
      else if (URL.canParse(root)) given.push(decodeURIComponent(new URL(root).pathname));
    }
  } else {
    given.push(...(settings.read ?? []));
  }
  const env: Record<string, string> = { ...spawn.env };
  for (const variable of settings.env) {
    const value = hostEnv[variable];
    if (value !== undefined) env[variable] = value;
  }
  // Its temporary files go to its private /tmp, whatever mcpwire's TMPDIR says.
  env.TMPDIR = "/tmp";
  const runner = NPM_RUNNERS.test(name) ? "npx" : UV_RUNNERS.test(name) ? "uvx" : undefined;
  if (runner !== undefined && !settings.network) offline(runner, env);
  const plan: SandboxPlan = {
    read: [...new Set([...found.filter((path) => !holdsHome(path, homes)), ...given])],
    write: [...settings.write],
    network: settings.network,
    cwd,
    ...(env.HOME === undefined || !isAbsolutePath(env.HOME) ? {} : { home: env.HOME }),
  };
  const workdir = cwdMapped ? "mapped" : defaults ? "home" : "unlisted";
  const exitNote = runner === undefined ? undefined : runnerNote(runner, settings, runnerCaches(name, spawn.env), cwd, workdir, runPackage(spawn.args));
  return { plan, env, ...(exitNote === undefined ? {} : { exitNote }) };
}

/**
 * Without a network a package runner is told so: npm and uv otherwise retry the registry with
 * back-off (npm: 2 retries, 10 then 60 s apart), past a server's connect_timeout, before they
 * exit; offline they use their cache and fail at once. A setting of the server's own env stays.
 */
function offline(runner: "npx" | "uvx", env: Record<string, string>): void {
  const variable = runner === "npx" ? "npm_config_offline" : "UV_OFFLINE";
  const set = Object.keys(env).some((key) => key.toLowerCase() === variable.toLowerCase());
  if (!set) env[variable] = runner === "npx" ? "true" : "1";
}

/**
 * What a package runner lacks in its sandbox and what grants it: npx needs the network to
 * download a package, and its cache writable even to run one it has cached (from a read-only
 * cache npm answers ENOTCACHED), so in the default profile it runs only a package installed in
 * the working directory's node_modules. Undefined when the settings give it both.
 */
function runnerNote(
  runner: "npx" | "uvx",
  settings: SandboxSettings,
  caches: string[],
  cwd: string,
  workdir: "mapped" | "home" | "unlisted",
  pkg = "PACKAGE",
): string | undefined {
  const readOnly = caches.filter((cache) => !settings.write.some((path) => isWithin(cache, path)));
  if (settings.network && readOnly.length === 0) return undefined;
  const lacks = [
    ...(settings.network ? [] : ["no network"]),
    ...(readOnly.length === 0 ? [] : [`its cache (${readOnly.join(", ")}) read-only`]),
  ].join(" and ");
  const grant = `sandbox: { network: true, write: [${caches.map((cache) => JSON.stringify(cache)).join(", ")}] }`;
  if (runner === "uvx") {
    return `in its sandbox uvx has ${lacks}, so it cannot download or install a package: install it first (uv tool install ${pkg}) and run ` +
      `its command instead of uvx, or let uvx download and cache packages with ${grant} in the server's config (it may then write that cache)`;
  }
  const where = workdir === "mapped"
    ? `installed in its working directory ${cwd} (npm install ${pkg} there)`
    : workdir === "home"
    ? `installed in a project directory: its working directory ${cwd} is, or holds, your home, which the sandbox does not map, ` +
      `so give it a project's directory as cwd (--cwd DIR) and npm install ${pkg} there`
    : `installed in its working directory, which its sandbox.read does not list (${cwd}): add it, and npm install ${pkg} there`;
  return `in its sandbox npx has ${lacks}, so it runs only a package ${where}; or install the package (npm install -g ${pkg}) and run its command ` +
    `instead of npx; or let npx download and cache packages with ${grant} in the server's config (it may then write that cache)`;
}

/**
 * The package a runner's command line runs, for the hint: the first word that is not an option
 * (`npx -y @scope/server --flag` → `@scope/server`), or `--package NAME`/`-p NAME`/`--from NAME`
 * when given; a version suffix is kept (`npm install pkg@1.2`). Undefined when none is seen.
 */
function runPackage(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const named = /^--(?:package|from)=(.+)$/.exec(arg);
    if (named) return named[1];
    if (arg === "-p" || arg === "--package" || arg === "--from") return args[i + 1];
    if (arg === "--") return args[i + 1];
    if (!arg.startsWith("-") && !arg.includes("://")) return arg; // not the value of --registry URL
  }
  return undefined;
}
