// The LLM host's top-level keys: model, providers, system_prompt, max_steps, hooks, tool_search,
// tool_definitions, results (read by `mcpwire run` / `chat`; a manager ignores them); and pinning
// (the manager's: tool pins, registry/tool-pins.ts) and telemetry (the manager's and the Runner's:
// OpenTelemetry, docs/telemetry.md).

import { HOOK_EVENTS, type HookCommand, type HooksConfig } from "../../agent/hooks.ts";
import type { ToolDefinitionLimits } from "../../agent/tool-definition-cap.ts";
import { TOOL_SEARCH_MODES, type ToolSearchMode, type ToolSearchOptions } from "../../agent/tool-search.ts";
import { messageOf } from "../../common/error-text.ts";
import { isObject, setOwn } from "../../common/json.ts";
import type { PinningMode } from "../../registry/tool-pins.ts";
import { type Context, describe, problem } from "./context.ts";
import { interpolate, InterpolationError } from "./interpolate.ts";
import { directoryOf, resolvePath } from "./paths.ts";
import { HOOK_KEYS, PINNING_EXPECTED, PINNING_MODES, PROVIDER_KEYS, RESULTS_KEYS, TELEMETRY_KEYS, TOOL_DEFINITIONS_KEYS, TOOL_SEARCH_KEYS } from "./schema.ts";
import { suggest } from "./schema-messages.ts";
import { homePath, isHttpUrl } from "./server.ts";
import type { Path } from "./syntax.ts";
import type { ConfigError, McpwireConfig, ProviderSettings, ResultsSettings, TelemetrySettings } from "./types.ts";

export type HostSettings = Pick<
  McpwireConfig,
  "model" | "providers" | "systemPrompt" | "maxSteps" | "hooks" | "toolSearch" | "toolDefinitions" | "results" | "pinning" | "hostProblems" | "telemetry"
>;

/**
 * The host's keys, checked by hand so that every problem is positioned. A wrong value is a
 * ConfigError for the whole file (the run could not do what the file asks); an unknown key
 * inside them is a warning. An unset `${VAR}` (in a provider's base_url / api_key, or in
 * results.directory) is in `hostProblems`: said by run / chat, which use these keys, and by no
 * other verb (issue 27: a valid key a verb does not use is not its problem).
 */
export function hostSettings(context: Context, root: Record<string, unknown>): HostSettings {
  const keys = new HostKeys(context);
  const settings: HostSettings = {};
  if (root.model !== undefined && root.model !== null) {
    settings.model = keys.text(root.model, ["model"], 'a model string "provider/model", such as "ollama/qwen3" or "openai/gpt-4o"');
  }
  if (root.system_prompt !== undefined && root.system_prompt !== null) {
    settings.systemPrompt = keys.text(root.system_prompt, ["system_prompt"], "a string");
  }
  if (root.max_steps !== undefined && root.max_steps !== null) {
    const value = root.max_steps;
    if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
      keys.fail(["max_steps"], `"max_steps" must be a whole number of at least 1; it is ${describe(value, context.json)}`);
    }
    settings.maxSteps = value as number;
  }
  if (root.providers !== undefined && root.providers !== null) settings.providers = providersOf(keys, root.providers);
  if (root.hooks !== undefined && root.hooks !== null) settings.hooks = hooksOf(keys, root.hooks);
  if (root.tool_search !== undefined && root.tool_search !== null) settings.toolSearch = toolSearchOf(keys, root.tool_search);
  if (root.tool_definitions !== undefined && root.tool_definitions !== null) settings.toolDefinitions = toolDefinitionsOf(keys, root.tool_definitions);
  if (root.results !== undefined && root.results !== null) {
    const results = resultsOf(keys, root.results);
    if (results !== undefined) settings.results = results;
  }
  if (root.telemetry !== undefined && root.telemetry !== null) settings.telemetry = telemetryOf(keys, root.telemetry);
  if (root.pinning !== undefined && root.pinning !== null) {
    const value = root.pinning;
    if (!(PINNING_MODES as readonly unknown[]).includes(value)) {
      keys.fail(["pinning"], `"pinning" must be ${PINNING_EXPECTED}; it is ${describe(value, context.json)}`);
    }
    settings.pinning = value as PinningMode;
  }
  if (keys.problems.warnings.length > 0 || keys.problems.errors.length > 0) settings.hostProblems = keys.problems;
  return settings;
}

/** The checks every host key makes, each failure or warning positioned at its key. */
class HostKeys {
  /** The unset variables: for run / chat only. */
  readonly problems: { warnings: ConfigError[]; errors: ConfigError[] } = { warnings: [], errors: [] };

  constructor(readonly context: Context) {}

  fail(path: Path, detail: string): never {
    throw problem(this.context, this.context.parsed.locate(path), detail);
  }

  warnUnknown(path: Path, known: readonly string[]): void {
    const key = String(path.at(-1));
    const guess = suggest(key, known);
    this.context.warnings.push(problem(
      this.context,
      this.context.parsed.locate(path, "key"),
      `unknown key "${path.join(".")}" is ignored; ${guess ? `did you mean "${guess}"?` : `known keys: ${known.join(", ")}`}`,
    ));
  }

  /** A number of seconds greater than 0, in ms. */
  seconds(value: unknown, path: Path): number {
    if (typeof value !== "number" || !(value > 0) || !Number.isFinite(value)) {
      this.fail(path, `"${path.join(".")}" must be a number of seconds greater than 0; it is ${describe(value, this.context.json)}`);
    }
    return Math.round((value as number) * 1000);
  }

  /** A whole number of at least `min`. */
  count(value: unknown, path: Path, min: number): number {
    if (typeof value !== "number" || !Number.isInteger(value) || value < min) {
      this.fail(path, `"${path.join(".")}" must be a whole number of at least ${min}; it is ${describe(value, this.context.json)}`);
    }
    return value as number;
  }

  /** A string that is not blank; `what` says what it must be. */
  text(value: unknown, path: Path, what: string): string {
    if (typeof value !== "string" || value.trim() === "") {
      this.fail(path, `"${path.join(".")}" must be ${what}; it is ${describe(value, this.context.json)}`);
    }
    return value as string;
  }
}

/** `providers:` — each provider's base_url, api_key (both interpolated) and timeout. */
function providersOf(keys: HostKeys, providers: unknown): Record<string, ProviderSettings> {
  const { context } = keys;
  if (!isObject(providers)) keys.fail(["providers"], `"providers" must be a mapping of provider names (openai, ollama, anthropic, google) to settings`);
  const result: Record<string, ProviderSettings> = {};
  for (const [name, raw] of Object.entries(providers as Record<string, unknown>)) {
    const at = (key: string): Path => ["providers", name, key];
    if (!isObject(raw)) keys.fail(["providers", name], `"providers.${name}" must be a mapping with base_url, api_key and/or timeout`);
    const entry = raw as Record<string, unknown>;
    const provider: ProviderSettings = {};
    for (const key of Object.keys(entry)) if (!(PROVIDER_KEYS as readonly string[]).includes(key)) keys.warnUnknown(at(key), PROVIDER_KEYS);
    const expanded = (key: "base_url" | "api_key"): string | undefined => {
      const value = entry[key];
      if (value === undefined || value === null) return undefined;
      const written = keys.text(value, at(key), "a string");
      try {
        return interpolate(written, context.env);
      } catch (error) {
        if (!(error instanceof InterpolationError)) throw error;
        keys.problems.warnings.push(problem(context, context.parsed.locate(at(key)), `"providers.${name}.${key}": ${error.message}; it is left unset`, {
          variable: error.variable,
        }));
        return undefined;
      }
    };
    const baseUrl = expanded("base_url");
    if (baseUrl !== undefined) {
      if (!isHttpUrl(baseUrl)) keys.fail(at("base_url"), `"providers.${name}.base_url" must be an http:// or https:// URL; it is ${JSON.stringify(baseUrl)}`);
      provider.baseUrl = baseUrl;
    }
    const apiKey = expanded("api_key");
    if (apiKey !== undefined && apiKey !== "") provider.apiKey = apiKey;
    if (entry.timeout !== undefined) provider.timeoutMs = keys.seconds(entry.timeout, at("timeout"));
    setOwn(result, name, provider);
  }
  return result;
}

/** `hooks:` — for each event, a list of { matcher, command, timeout }. */
function hooksOf(keys: HostKeys, hooks: unknown): HooksConfig {
  if (!isObject(hooks)) keys.fail(["hooks"], `"hooks" must be a mapping of events (${HOOK_EVENTS.join(", ")}) to lists of commands`);
  const result: HooksConfig = {};
  for (const [event, list] of Object.entries(hooks as Record<string, unknown>)) {
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      keys.warnUnknown(["hooks", event], HOOK_EVENTS);
      continue;
    }
    if (!Array.isArray(list)) keys.fail(["hooks", event], `"hooks.${event}" must be a list of { matcher, command, timeout }`);
    result[event as keyof HooksConfig] = (list as unknown[]).flatMap((raw, index) =>
      isObject(raw) && raw.hooks !== undefined
        ? nestedHooksOf(keys, `hooks.${event}[${index}]`, ["hooks", event, index], raw)
        : [hookOf(keys, `hooks.${event}[${index}]`, ["hooks", event, index], raw)]
    );
  }
  return result;
}

function hookOf(keys: HostKeys, where: string, path: Path, raw: unknown): HookCommand {
  if (!isObject(raw)) keys.fail(path, `"${where}" must be a mapping with "command" (and optional "matcher", "timeout")`);
  const entry = raw as Record<string, unknown>;
  for (const key of Object.keys(entry)) if (!(HOOK_KEYS as readonly string[]).includes(key)) keys.warnUnknown([...path, key], HOOK_KEYS);
  const command: HookCommand = { command: keys.text(entry.command, [...path, "command"], "a shell command") };
  if (entry.matcher !== undefined && entry.matcher !== null) {
    const matcher = String(keys.text(entry.matcher, [...path, "matcher"], "a regular expression on tool names"));
    try {
      new RegExp(matcher);
    } catch (error) {
      keys.fail([...path, "matcher"], `"${where}.matcher" is not a regular expression (${messageOf(error)})`);
    }
    command.matcher = matcher;
  }
  if (entry.timeout !== undefined) command.timeoutMs = keys.seconds(entry.timeout, [...path, "timeout"]);
  return command;
}

/**
 * Claude Code's and mcphost's nested form, beside ours: `{ matcher, hooks: [{ type: command,
 * command, timeout }] }`, one of our entries per command, each with the group's matcher. Claude
 * Code's hooks reference (code.claude.com/docs/en/hooks, "Structure"): `type` is "command",
 * `timeout` is in seconds, as ours.
 */
function nestedHooksOf(keys: HostKeys, where: string, path: Path, group: Record<string, unknown>): HookCommand[] {
  for (const key of Object.keys(group)) if (key !== "matcher" && key !== "hooks") keys.warnUnknown([...path, key], ["matcher", "hooks"]);
  if (!Array.isArray(group.hooks)) {
    keys.fail([...path, "hooks"], `"${where}.hooks" must be a list of { type: command, command, timeout }; it is ${describe(group.hooks, keys.context.json)}`);
  }
  if (group.matcher !== undefined && group.matcher !== null) {
    // Checked here, where it is written (each command below gets it).
    const matcher = keys.text(group.matcher, [...path, "matcher"], "a regular expression on tool names");
    try {
      new RegExp(matcher);
    } catch (error) {
      keys.fail([...path, "matcher"], `"${where}.matcher" is not a regular expression (${messageOf(error)})`);
    }
  }
  return (group.hooks as unknown[]).map((raw, index) => {
    const at: Path = [...path, "hooks", index];
    const inner = `${where}.hooks[${index}]`;
    if (!isObject(raw)) keys.fail(at, `"${inner}" must be a mapping with "type": "command" and "command" (and optional "timeout")`);
    const entry = raw as Record<string, unknown>;
    if (entry.type !== undefined && entry.type !== "command") {
      keys.fail(
        [...at, "type"],
        `"${inner}.type" must be "command" (a shell command; mcpwire runs no other kind of hook); it is ${describe(entry.type, keys.context.json)}`,
      );
    }
    const { type: _type, ...rest } = entry;
    return hookOf(keys, inner, at, group.matcher === undefined || group.matcher === null ? rest : { ...rest, matcher: group.matcher });
  });
}

/** `tool_search:` — true (always), false (off), a mode, or { mode, max_tools, max_schema_bytes, max_results }. */
function toolSearchOf(keys: HostKeys, raw: unknown): ToolSearchOptions {
  const modes = TOOL_SEARCH_MODES.map((mode) => `"${mode}"`).join(", ");
  if (raw === true) return { mode: "always" };
  if (raw === false) return { mode: "off" };
  if (typeof raw === "string") return { mode: modeOf(keys, raw, ["tool_search"]) };
  if (!isObject(raw)) {
    keys.fail(
      ["tool_search"],
      `"tool_search" must be true, false, one of ${modes}, or a mapping with ${TOOL_SEARCH_KEYS.join(", ")}; ` +
        `it is ${describe(raw, keys.context.json)}`,
    );
  }
  const entry = raw as Record<string, unknown>;
  for (const key of Object.keys(entry)) if (!(TOOL_SEARCH_KEYS as readonly string[]).includes(key)) keys.warnUnknown(["tool_search", key], TOOL_SEARCH_KEYS);
  const options: ToolSearchOptions = {};
  if (entry.mode !== undefined && entry.mode !== null) options.mode = modeOf(keys, entry.mode, ["tool_search", "mode"]);
  if (entry.max_tools !== undefined) options.maxTools = keys.count(entry.max_tools, ["tool_search", "max_tools"], 0);
  if (entry.max_schema_bytes !== undefined) options.maxSchemaBytes = keys.count(entry.max_schema_bytes, ["tool_search", "max_schema_bytes"], 0);
  if (entry.max_results !== undefined) options.maxResults = keys.count(entry.max_results, ["tool_search", "max_results"], 1);
  return options;
}

/** `tool_definitions:` — false (no cap), or { max_description_bytes, max_schema_bytes } (each at least 256). */
function toolDefinitionsOf(keys: HostKeys, raw: unknown): ToolDefinitionLimits | false {
  if (raw === false) return false;
  if (!isObject(raw)) {
    keys.fail(
      ["tool_definitions"],
      `"tool_definitions" must be false or a mapping with ${TOOL_DEFINITIONS_KEYS.join(", ")}; ` +
        `it is ${describe(raw, keys.context.json)}`,
    );
  }
  const entry = raw as Record<string, unknown>;
  for (const key of Object.keys(entry)) {
    if (!(TOOL_DEFINITIONS_KEYS as readonly string[]).includes(key)) keys.warnUnknown(["tool_definitions", key], TOOL_DEFINITIONS_KEYS);
  }
  const limits: ToolDefinitionLimits = {};
  if (entry.max_description_bytes !== undefined) {
    limits.maxDescriptionBytes = keys.count(entry.max_description_bytes, ["tool_definitions", "max_description_bytes"], 256);
  }
  if (entry.max_schema_bytes !== undefined) limits.maxSchemaBytes = keys.count(entry.max_schema_bytes, ["tool_definitions", "max_schema_bytes"], 256);
  return limits;
}

function modeOf(keys: HostKeys, value: unknown, path: Path): ToolSearchMode {
  if (typeof value !== "string" || !(TOOL_SEARCH_MODES as readonly string[]).includes(value)) {
    keys.fail(
      path,
      `"${path.join(".")}" must be one of ${TOOL_SEARCH_MODES.map((mode) => `"${mode}"`).join(", ")}; it is ${describe(value, keys.context.json)}`,
    );
  }
  return value as ToolSearchMode;
}

/** `telemetry:` — true, false, or { enabled, capture_arguments, capture_results } (docs/telemetry.md). */
function telemetryOf(keys: HostKeys, raw: unknown): TelemetrySettings {
  const { context } = keys;
  if (typeof raw === "boolean") return { enabled: raw };
  if (!isObject(raw)) {
    keys.fail(["telemetry"], `"telemetry" must be true, false, or a mapping with ${TELEMETRY_KEYS.join(", ")}; it is ${describe(raw, context.json)}`);
  }
  const entry = raw as Record<string, unknown>;
  for (const key of Object.keys(entry)) if (!(TELEMETRY_KEYS as readonly string[]).includes(key)) keys.warnUnknown(["telemetry", key], TELEMETRY_KEYS);
  const settings: TelemetrySettings = { enabled: true };
  for (const [key, field] of [["enabled", "enabled"], ["capture_arguments", "captureArguments"], ["capture_results", "captureResults"]] as const) {
    const value = entry[key];
    if (value === undefined) continue;
    if (typeof value !== "boolean") keys.fail(["telemetry", key], `"telemetry.${key}" must be true or false; it is ${describe(value, context.json)}`);
    settings[field] = value as boolean;
  }
  return settings;
}

/** `results:` — true, false, or { enabled, directory, max_files, max_age_days }. */
function resultsOf(keys: HostKeys, raw: unknown): ResultsSettings | undefined {
  const { context } = keys;
  if (typeof raw === "boolean") return { enabled: raw };
  if (!isObject(raw)) {
    keys.fail(["results"], `"results" must be true, false, or a mapping with ${RESULTS_KEYS.join(", ")}; it is ${describe(raw, context.json)}`);
  }
  const entry = raw as Record<string, unknown>;
  for (const key of Object.keys(entry)) if (!(RESULTS_KEYS as readonly string[]).includes(key)) keys.warnUnknown(["results", key], RESULTS_KEYS);
  const settings: ResultsSettings = { enabled: true };
  if (entry.enabled !== undefined) {
    if (typeof entry.enabled !== "boolean") {
      keys.fail(["results", "enabled"], `"results.enabled" must be true or false; it is ${describe(entry.enabled, context.json)}`);
    }
    settings.enabled = entry.enabled as boolean;
  }
  if (entry.directory !== undefined && entry.directory !== null) {
    const written = keys.text(entry.directory, ["results", "directory"], "a string: the directory result files go to");
    let expanded: string;
    try {
      expanded = interpolate(written, context.env);
    } catch (error) {
      if (!(error instanceof InterpolationError)) throw error;
      const at = context.parsed.locate(["results", "directory"]);
      keys.problems.errors.push(problem(context, at, `"results.directory": ${error.message}`, { variable: error.variable }));
      return undefined;
    }
    settings.directory = resolvePath(directoryOf(context.file ?? "."), homePath(expanded, context.env));
  }
  if (entry.max_files !== undefined) settings.maxFiles = keys.count(entry.max_files, ["results", "max_files"], 1);
  if (entry.max_age_days !== undefined) {
    const days = entry.max_age_days;
    if (typeof days !== "number" || !(days > 0) || !Number.isFinite(days)) {
      keys.fail(["results", "max_age_days"], `"results.max_age_days" must be a number of days greater than 0; it is ${describe(days, context.json)}`);
    }
    settings.maxAgeMs = Math.round((days as number) * 24 * 60 * 60 * 1000);
  }
  return settings;
}
