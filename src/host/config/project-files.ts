// The project files of a working directory — the configs found there and the project files of
// the apps it imports — and one such file read as the trust gate sees it (config/project-trust.ts),
// for `mcpwire trust` to show and approve. Nothing is expanded or run.

import { messageOf } from "../../common/error-text.ts";
import { FileError } from "../../runtime/errors.ts";
import { runtime } from "../../runtime/mod.ts";
import type { Env } from "./context.ts";
import { homeOf, IMPORT_APPS, type ImportSource, importSources, resolveImportApps } from "./import-sources.ts";
import { displayPath, jsonParsed, tomlParsed } from "./imports.ts";
import { configSearchPaths, projectConfigFile } from "./load.ts";
import { type ProjectConfigSummary, summarizeProject } from "./project-summary.ts";
import { projectDigest, ProjectGate } from "./project-trust.ts";
import { parseYaml } from "./syntax.ts";
import { ConfigError } from "./types.ts";

export interface ProjectFilesOptions {
  cwd: string;
  env: Env;
}

/**
 * The project files that exist in `cwd`, as loadConfig would meet them: the config found there
 * (`./mcpwire.yaml`, else `./.mcp.json`), then the project files of the apps its `imports:` and
 * `imports` name. None when `cwd` is HOME (the files there are the user's own).
 */
export async function existingProjectFiles(imports: readonly string[], options: ProjectFilesOptions): Promise<ProjectConfigSummary[]> {
  const { cwd, env } = options;
  if (new ProjectGate({ cwd, env }).inHome) return [];
  const found: ProjectConfigSummary[] = [];
  const names = [...imports];
  for (const file of configSearchPaths({ cwd, env }).slice(0, 2)) {
    const summary = await readProjectFile(file, options, true);
    if (summary === undefined) continue;
    found.push(summary);
    names.push(...summary.imports);
    break;
  }
  const { apps } = resolveImportApps(names);
  for (const app of apps) {
    for (const source of importSources(app, { cwd, env })) {
      if (source.scope !== "project" || found.some((summary) => summary.file === source.file)) continue;
      const summary = await readProjectFile(source.file, options, true);
      if (summary !== undefined) found.push(summary);
    }
  }
  return found;
}

/**
 * `file` (absolute) read as the gate sees it: an app's project file in that app's shape, anything
 * else as mcpwire's own config. Missing: a ConfigError naming it, or undefined with `optional`.
 */
export async function readProjectFile(file: string, options: ProjectFilesOptions, optional: true): Promise<ProjectConfigSummary | undefined>;
export async function readProjectFile(file: string, options: ProjectFilesOptions, optional?: false): Promise<ProjectConfigSummary>;
export async function readProjectFile(file: string, options: ProjectFilesOptions, optional = false): Promise<ProjectConfigSummary | undefined> {
  const { cwd, env } = options;
  let text: string;
  try {
    text = await runtime.readTextFile(file);
  } catch (error) {
    if (optional && error instanceof FileError && (error.code === "ENOENT" || error.code === "ENOTDIR")) return undefined;
    throw new ConfigError(`cannot read ${file} (${messageOf(error)}); check the path`, "unreadable-config", { file, cause: error });
  }
  const digest = await projectDigest(text);
  const source = appSourceOf(file, options);
  if (source === undefined) return summarizeProject({ ...projectConfigFile(file, displayPath(file, cwd, homeOf(env)), text), digest });
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const parsed = source.format === "toml" ? await tomlParsed(body) : source.format === "yaml" ? parseYaml(body) : jsonParsed(body);
  return summarizeProject({
    file,
    display: displayPath(file, cwd, homeOf(env), source.scope),
    text,
    digest,
    value: parsed.value,
    app: source.app,
    serversPath: source.serversPath,
    ...(parsed.syntaxError ? { problem: `it does not parse: ${parsed.syntaxError.message}` } : {}),
  });
}

/** The app project file `file` is in `cwd`, if it is one (a config mcpwire finds there is its own first). */
function appSourceOf(file: string, options: ProjectFilesOptions): ImportSource | undefined {
  if (configSearchPaths(options).slice(0, 2).includes(file)) return undefined;
  for (const app of IMPORT_APPS) {
    const found = importSources(app, options).find((source) => source.scope === "project" && source.file === file);
    if (found !== undefined) return found;
  }
  return undefined;
}
