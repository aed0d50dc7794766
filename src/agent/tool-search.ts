// Tool search: when the registered tools exceed a budget (a count, and the bytes of their
// definitions), the model is offered a built-in search tool and the built-in tools instead of
// every schema; each MCP tool a search finds is offered, with its full schema, from the next
// model request on, and stays offered until the history is cleared. Found tools are called like
// any other: approval, hooks, the input-schema check and the names are the Runner's, unchanged.
// (The Runner hands it the tools as a model is offered them: capped, tool-definition-cap.ts.)
// (The deferral pattern of Kit, the Vercel AI SDK and Anthropic's tool search tool; the host
// side of spec 2025-11-25 server/tools, which leaves to the host which tools a model sees.)

import type { JsonObject } from "../client/types.ts";
import { isObject } from "../common/json.ts";
import { clipLine } from "../common/preview.ts";
import { errorString, resultString } from "../registry/result-format.ts";
import type { ToolRegistry } from "../registry/tool-registry.ts";
import type { LlmToolSchema } from "../registry/types.ts";

/** What tool search reads of the registry (the Runner's registry offers it). */
export type SearchedRegistry = Pick<ToolRegistry, "list" | "get">;

/** The search tool's name; `mcpwire_search_tools` when a registered tool already has it. */
export const TOOL_SEARCH_NAME = "search_tools";
const FALLBACK_NAME = "mcpwire_search_tools";
/** Past this many tools, search is on (mode "auto"). */
export const DEFAULT_TOOL_SEARCH_MAX_TOOLS = 40;
/** Past this many bytes of tool definitions (JSON, UTF-8; about 10,000 tokens), search is on (mode "auto"). */
export const DEFAULT_TOOL_SEARCH_MAX_BYTES = 40_000;
/** Tools one search returns, at most (the model may ask for up to MAX_LIMIT). */
export const DEFAULT_TOOL_SEARCH_RESULTS = 8;
const MAX_LIMIT = 25;
/** Characters of a tool's description a search answer shows. */
const SHORT_DESCRIPTION = 160;
/** Parameter names a search answer lists per tool; its definition, offered next step, has them all. */
const SHORT_PARAMETERS = 20;

/** When the tool search replaces the full tool list: `auto`, `always` or `off`. */
export type ToolSearchMode =
  /** Search when the tools exceed the budget (the default). */
  | "auto"
  /** Search whatever the number of tools. */
  | "always"
  /** Never: every tool's schema on every request. */
  | "off";

export const TOOL_SEARCH_MODES: readonly ToolSearchMode[] = ["auto", "always", "off"];

/** Options of the tool search: its mode, and the tool count and bytes that turn it on. */
export interface ToolSearchOptions {
  /** Default "auto". */
  mode?: ToolSearchMode;
  /** Mode "auto": search once more tools than this are registered. Default 40. */
  maxTools?: number;
  /** Mode "auto": search once the tool definitions take more bytes than this. Default 40,000. */
  maxSchemaBytes?: number;
  /** Tools one search returns, at most. Default 8. */
  maxResults?: number;
}

/** What a request offers: the schemas, and how many MCP tools were held back for search. */
export interface ToolOffer {
  tools: LlmToolSchema[];
  /** MCP tools not offered this step (0 when search is off or under the budget). */
  deferred: number;
}

/** One tool as the search sees it: its words, by field. */
interface Indexed {
  schema: LlmToolSchema;
  server: string | undefined;
  name: Set<string>;
  serverWords: Set<string>;
  params: Set<string>;
  description: Set<string>;
}

/** The search state of one Runner: the budget, the tools found so far, the search tool itself. */
export class ToolSearch {
  readonly #mode: ToolSearchMode;
  readonly #maxTools: number;
  readonly #maxBytes: number;
  readonly #maxResults: number;
  /** Registered names found by searches (offered from the step after). */
  readonly #found = new Set<string>();
  /** The search tool's name in the last offer, or undefined when the last offer had none. */
  #active: string | undefined;
  /** The last budget check: the list it was made for, and its answer (measured again only when the tools change). */
  #measured: { list: LlmToolSchema[]; over: boolean } | undefined;

  constructor(options: ToolSearchOptions | false = {}) {
    const settings = options === false ? { mode: "off" as const } : options;
    this.#mode = settings.mode ?? "auto";
    if (!TOOL_SEARCH_MODES.includes(this.#mode)) {
      throw new RangeError(`toolSearch.mode must be one of ${TOOL_SEARCH_MODES.join(", ")} (got ${JSON.stringify(settings.mode)})`);
    }
    this.#maxTools = whole("maxTools", settings.maxTools, DEFAULT_TOOL_SEARCH_MAX_TOOLS, 0);
    this.#maxBytes = whole("maxSchemaBytes", settings.maxSchemaBytes, DEFAULT_TOOL_SEARCH_MAX_BYTES, 0);
    this.#maxResults = whole("maxResults", settings.maxResults, DEFAULT_TOOL_SEARCH_RESULTS, 1);
  }

  /** Forgets the tools found (a cleared or replaced history). */
  reset(): void {
    this.#found.clear();
  }

  /** Registered names found so far, in the order found. */
  found(): string[] {
    return [...this.#found];
  }

  /**
   * The tools to offer: all of them under the budget; past it, the search tool, the built-in
   * tools and the MCP tools found so far (in the registry's order, so the list stays stable).
   */
  offer(registry: SearchedRegistry): ToolOffer {
    const all = registry.list();
    if (!this.#searching(all)) {
      this.#active = undefined;
      return { tools: all, deferred: 0 };
    }
    const tools: LlmToolSchema[] = [];
    let deferred = 0;
    let taken = false;
    for (const schema of all) {
      if (schema.name === TOOL_SEARCH_NAME) taken = true;
      if (this.#found.has(schema.name) || registry.get(schema.name)?.origin.kind !== "mcp") tools.push(schema);
      else deferred++;
    }
    if (deferred === 0) {
      this.#active = undefined; // everything is found already: nothing left to search for
      return { tools, deferred };
    }
    this.#active = taken ? FALLBACK_NAME : TOOL_SEARCH_NAME;
    tools.unshift(this.#schema(this.#active, all, registry));
    return { tools, deferred };
  }

  /** Whether `name` is the search tool of the last offer (the Runner answers it with answer()). */
  handles(name: string): boolean {
    return this.#active !== undefined && name === this.#active;
  }

  /**
   * For a call to a registered tool the last offer held back: the message to the model, and
   * the tool is counted as found (its schema is offered from the next step). Undefined when
   * `name` is not such a tool.
   */
  notYetOffered(name: string, registry: SearchedRegistry): string | undefined {
    if (this.#active === undefined || this.#found.has(name)) return undefined;
    const tool = registry.get(name);
    if (tool === undefined || tool.origin.kind !== "mcp" || !registry.list().some((schema) => schema.name === name)) return undefined;
    this.#found.add(name);
    return `tool "${name}" was not loaded yet, so its arguments were not checked against its schema and it did not run; ` +
      `its full schema is offered to you from the next step: call it again with arguments that match it ` +
      `(use ${this.#active} to find other tools)`;
  }

  /** Runs the search tool: the tool message's content (`{"result": …}` or `{"error": …}`). */
  answer(args: JsonObject | string, registry: SearchedRegistry): { content: string; isError: boolean } {
    const name = this.#active ?? TOOL_SEARCH_NAME;
    let value: unknown = args;
    if (typeof args === "string") {
      try {
        value = args.trim() === "" ? {} : JSON.parse(args);
      } catch {
        value = undefined;
      }
    }
    const fail = (message: string) => ({ content: errorString(`${name}: ${message}`), isError: true });
    if (!isObject(value)) return fail('the arguments must be a JSON object such as {"query": "read file"}');
    const { query, limit } = value;
    if (typeof query !== "string" || query.trim() === "") {
      return fail('"query" must be a non-empty string of words (a verb, an object, a server name), such as {"query": "read file"}');
    }
    if (limit !== undefined && (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)) {
      return fail(`"limit" must be a whole number from 1 to ${MAX_LIMIT}, or left out (default ${this.#maxResults})`);
    }
    const count = typeof limit === "number" ? limit : this.#maxResults;
    // Tools found before are found again (the model may have lost track); built-ins are offered anyway.
    const candidates = index(registry).filter((tool) => tool.server !== undefined);
    const hits = rank(query, candidates).slice(0, count);
    if (hits.length === 0) return { content: resultString(noMatch(query, registry)), isError: false };
    for (const hit of hits) this.#found.add(hit.schema.name);
    const lines = hits.map(({ schema, server }) => {
      const params = Object.keys(propertiesOf(schema.parameters));
      const description = clipLine(schema.description, SHORT_DESCRIPTION);
      const shown = params.length > SHORT_PARAMETERS ? `${params.slice(0, SHORT_PARAMETERS).join(", ")}, … (${params.length} in all)` : params.join(", ");
      return `- ${schema.name} (server ${server}): ${description === "" ? "(no description)" : description}` +
        (params.length === 0 ? "" : ` [parameters: ${shown}]`);
    });
    const text = `${hits.length === 1 ? "1 tool matches" : `${hits.length} tools match`} ${JSON.stringify(query)}; ` +
      "from your next step on they are offered to you with their full schemas, so call them by these names:\n" + lines.join("\n");
    return { content: resultString(text), isError: false };
  }

  /** Whether the list is past the budget. */
  #searching(all: LlmToolSchema[]): boolean {
    if (this.#mode === "off") return false;
    if (this.#mode === "always") return true;
    if (this.#measured === undefined || !sameTools(this.#measured.list, all)) {
      this.#measured = { list: all, over: all.length > this.#maxTools || definitionBytes(all) > this.#maxBytes };
    }
    return this.#measured.over;
  }

  /** The search tool's definition; its description says what is held back, by server. */
  #schema(name: string, all: LlmToolSchema[], registry: SearchedRegistry): LlmToolSchema {
    const servers = serverCounts(registry, all, this.#found);
    const held = [...servers.values()].reduce((sum, count) => sum + count, 0);
    const listed = [...servers].slice(0, 20).map(([server, count]) => `${server} (${count})`).join(", ");
    return {
      name,
      description: `Finds tools by words and makes them callable. ${held} more tools are available but not loaded yet, ` +
        `from the servers ${listed}${servers.size > 20 ? ", …" : ""}. Search with a few words from what you need ` +
        "(a verb, an object, a server name); the tools found are offered to you from your next step on, with their full schemas.",
      parameters: {
        type: "object",
        properties: {
          query: { type: "string", description: 'words to look for in tool names, descriptions and parameter names, e.g. "read file"' },
          limit: { type: "integer", minimum: 1, maximum: MAX_LIMIT, description: `tools to return, at most (default ${this.#maxResults})` },
        },
        required: ["query"],
      },
    };
  }
}

/** The bytes of the tool definitions as JSON (UTF-8): the measure of the budget. */
export function definitionBytes(tools: readonly LlmToolSchema[]): number {
  return new TextEncoder().encode(JSON.stringify(tools)).length;
}

/** Whether two lists hold the same tools: names, descriptions and schema objects (the registry hands out its own). */
function sameTools(a: readonly LlmToolSchema[], b: readonly LlmToolSchema[]): boolean {
  if (a.length !== b.length) return false;
  for (const [i, x] of a.entries()) {
    const y = b[i];
    if (y === undefined || x.name !== y.name || x.description !== y.description || x.parameters !== y.parameters) return false;
  }
  return true;
}

function whole(what: string, value: number | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min) throw new RangeError(`toolSearch.${what} must be a whole number of at least ${min} (got ${String(value)})`);
  return value;
}

/** Held-back tools per server, in registry order. */
function serverCounts(registry: SearchedRegistry, all: LlmToolSchema[], found: Set<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const schema of all) {
    if (found.has(schema.name)) continue;
    const origin = registry.get(schema.name)?.origin;
    if (origin?.kind === "mcp") counts.set(origin.server, (counts.get(origin.server) ?? 0) + 1);
  }
  return counts;
}

/** The answer to a query that matched nothing: what to try, and which servers there are. */
function noMatch(query: string, registry: SearchedRegistry): string {
  const counts = serverCounts(registry, registry.list(), new Set());
  const servers = [...counts].slice(0, 10).map(([server, count]) => `${server} (${count} tools)`).join(", ");
  return `No tool matches ${JSON.stringify(query)}. Try fewer or broader words: a verb such as read, list, create, search or get, ` +
    "an object such as file, issue or page, or a server's name to see its tools" +
    (servers === "" ? "; no server has tools now." : `. Servers: ${servers}${counts.size > 10 ? ", …" : ""}.`);
}

// --- ranking ---------------------------------------------------------------------------

/** Words that say nothing about which tool is meant. */
const STOP_WORDS = new Set([
  "a",
  "an",
  "and",
  "any",
  "as",
  "at",
  "be",
  "by",
  "can",
  "do",
  "for",
  "from",
  "i",
  "in",
  "is",
  "it",
  "me",
  "my",
  "of",
  "on",
  "or",
  "some",
  "that",
  "the",
  "this",
  "to",
  "tool",
  "tools",
  "use",
  "with",
]);

/** Lower-case words of a name or a text: camelCase, snake_case and kebab-case split; stop words out. */
export function words(text: string): string[] {
  const split = text.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z0-9]+/);
  return split.filter((word) => word.length > 1 && !STOP_WORDS.has(word)).map(stem);
}

/** A crude English stem, so that "files" finds "file" and "listing" finds "list". */
function stem(word: string): string {
  if (word.length > 5 && word.endsWith("ing")) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith("ies")) return word.slice(0, -3) + "y";
  if (word.length > 4 && word.endsWith("es") && /(?:ch|sh|ss|x)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  if (word.length > 4 && word.endsWith("ed")) return word.slice(0, -2);
  return word;
}

function propertiesOf(schema: JsonObject): Record<string, unknown> {
  return isObject(schema.properties) ? schema.properties : {};
}

function index(registry: SearchedRegistry): Indexed[] {
  return registry.list().map((schema) => {
    const origin = registry.get(schema.name)?.origin;
    const server = origin?.kind === "mcp" ? origin.server : undefined;
    return {
      schema,
      server,
      name: new Set(words(`${schema.name} ${origin?.kind === "mcp" ? origin.tool : ""}`)),
      serverWords: new Set(server === undefined ? [] : words(server)),
      params: new Set(Object.keys(propertiesOf(schema.parameters)).flatMap(words)),
      description: new Set(words(schema.description)),
    };
  });
}

/** Whether a query word matches one of `field`'s words: equal, or a prefix of at least 3 letters. */
function matches(word: string, field: Set<string>): boolean {
  if (field.has(word)) return true;
  if (word.length < 3) return false;
  for (const candidate of field) if (candidate.startsWith(word) || (candidate.length >= 4 && word.startsWith(candidate))) return true;
  return false;
}

/**
 * The tools matching `query`, best first. Each query word scores its best field (tool name 6,
 * server name 3, parameter name 3, description 1); a tool matching more of the words scores
 * more; a query that is a tool's exact name puts that tool first. Ties keep registry order.
 */
function rank(query: string, tools: Indexed[]): Indexed[] {
  const exact = query.trim();
  const terms = [...new Set(words(query))];
  const scored: Array<{ tool: Indexed; score: number; order: number }> = [];
  tools.forEach((tool, order) => {
    let score = tool.schema.name === exact ? 100 : 0;
    let matched = 0;
    for (const term of terms) {
      const best = matches(term, tool.name) ? 6 : matches(term, tool.serverWords) || matches(term, tool.params) ? 3 : matches(term, tool.description) ? 1 : 0;
      if (best > 0) matched++;
      score += best;
    }
    if (matched > 1) score += 2 * matched;
    if (score > 0) scored.push({ tool, score, order });
  });
  scored.sort((a, b) => b.score - a.score || a.order - b.order);
  return scored.map((entry) => entry.tool);
}
