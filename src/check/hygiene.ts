// The hygiene family of `mcpwire check` (docs/check.md): what a host cares about before it puts a
// server's text in front of a model, at the level of advice (MAY: info) since the spec sets no
// limit — the size of `instructions` and of each tool description, and text a reader cannot see
// (bidi controls, invisible characters, Unicode tag characters) in names, titles, descriptions
// and instructions. Also each method's response times, which the report prints as a table.

import { hiddenCharacters } from "../common/deceptive-text.ts";
import { isObject } from "../common/json.ts";
import { clipText } from "../common/preview.ts";
import type { ListedItem, Observed } from "./observed.ts";
import type { MethodTiming } from "./report.ts";
import { type Judge, rule, type Seen } from "./rule.ts";
import { Tally } from "./tally.ts";

/**
 * The sizes past which a text is reported, in UTF-8 bytes. A tool description goes to the model
 * with every request that offers the tool: 4 KiB is about 1,000 tokens, ten times a usual one (a
 * few hundred bytes), and a twentieth of a server's worst case seen live (68 KB). The instructions
 * go once, into the system prompt (spec 2025-11-25 schema InitializeResult: "MAY be added to the
 * system prompt"): 16 KiB, about 4,000 tokens, a fiftieth of a 200k-token context.
 */
export const HYGIENE_LIMITS = { descriptionBytes: 4096, instructionsBytes: 16_384 } as const;

/** The rules of the hygiene family, by name. */
export const HygieneRules = {
  instructionsSize: rule(
    "hygiene/instructions-size",
    "MAY",
    `The server's instructions fit in ${HYGIENE_LIMITS.instructionsBytes / 1024} KiB`,
    { source: "2025-11-25", page: "schema", section: "InitializeResult" },
    "Keep `instructions` to what a model needs to use the server: a host may put them in every system prompt, where each kilobyte costs about 250 tokens.",
  ),
  descriptionSize: rule(
    "hygiene/tool-description-size",
    "MAY",
    `Each tool description fits in ${HYGIENE_LIMITS.descriptionBytes / 1024} KiB`,
    { source: "2025-11-25", page: "server/tools", section: "Tool" },
    "Shorten the description to what a model needs to choose and call the tool; put long reference text in a resource the tool can point to.",
  ),
  hiddenText: rule(
    "hygiene/hidden-characters",
    "MAY",
    "Names, titles, descriptions and instructions hold no bidi controls, invisible or tag characters",
    { source: "2025-11-25", page: "server/tools", section: "Tool" },
    "Remove the bidi controls, zero-width and tag characters: a person reviewing the text does not see them, a model reads them (hidden instructions).",
  ),
} as const;

const encoder = new TextEncoder();

/** The UTF-8 size of `text`, counted without encoding a text that cannot exceed `limit`. */
function bytesOver(text: string, limit: number): number | undefined {
  if (text.length * 3 <= limit) return undefined;
  const bytes = encoder.encode(text).length;
  return bytes > limit ? bytes : undefined;
}

function size(bytes: number): string {
  return bytes >= 10_240 ? `${Math.round(bytes / 1024)} KiB` : `${(bytes / 1024).toFixed(1)} KiB`;
}

/** The texts of one listed item a person reads before trusting it, with their place in it. */
function textsOf(item: ListedItem, kind: string): { what: string; text: string; seen: Seen }[] {
  const value = item.value;
  if (!isObject(value)) return [];
  const id = kind === "resource" ? value.uri : kind === "resource template" ? value.uriTemplate : value.name;
  const who = typeof id === "string" ? `${kind} ${JSON.stringify(clipText(id, 80))}` : `${kind} at ${item.pointer}`;
  const found: { what: string; text: string; seen: Seen }[] = [];
  const add = (what: string, text: unknown, path: string) => {
    if (typeof text === "string") found.push({ what: `${who}'s ${what}`, text, seen: { index: item.index, pointer: `${item.pointer}${path}` } });
  };
  add("name", value.name, "/name");
  add("title", value.title, "/title");
  add("description", value.description, "/description");
  if (isObject(value.annotations)) add("annotations.title", value.annotations.title, "/annotations/title");
  return found;
}

/** What a HiddenCharacters says, in one clause. */
function hiddenDetail(what: string, text: string): string | undefined {
  const hidden = hiddenCharacters(text);
  if (hidden === undefined) return undefined;
  const parts: string[] = [];
  if (hidden.bidi.length > 0) parts.push(`bidi controls ${hidden.bidi.join(", ")}`);
  if (hidden.invisible.length > 0) parts.push(`invisible characters ${hidden.invisible.join(", ")}`);
  if (hidden.tags !== "") parts.push(`Unicode tag characters spelling ${JSON.stringify(hidden.tags)}`);
  return `${what} holds ${parts.join("; ")}`;
}

/** Judges the sizes and hidden characters of the instructions and of every listed item's texts. */
export function judgeHygiene(observed: Observed, judge: Judge): void {
  const tally = new Tally(judge);
  const instructions = observed.instructions;
  const where: Seen = observed.negotiation === undefined ? {} : { index: observed.negotiation.index, pointer: "/result/instructions" };
  if (typeof instructions === "string") {
    const over = bytesOver(instructions, HYGIENE_LIMITS.instructionsBytes);
    if (over === undefined) tally.held(HygieneRules.instructionsSize);
    else tally.fail(HygieneRules.instructionsSize, `the instructions are ${size(over)} (over ${HYGIENE_LIMITS.instructionsBytes / 1024} KiB)`, where);
    const hidden = hiddenDetail("the instructions", instructions);
    if (hidden === undefined) tally.held(HygieneRules.hiddenText);
    else tally.fail(HygieneRules.hiddenText, hidden, where);
  }
  const { tools = [], prompts = [], resources = [], resourceTemplates = [] } = observed.lists;
  for (const item of tools) {
    const description = isObject(item.value) ? item.value.description : undefined;
    if (typeof description !== "string") continue;
    const over = bytesOver(description, HYGIENE_LIMITS.descriptionBytes);
    const name = isObject(item.value) && typeof item.value.name === "string" ? JSON.stringify(clipText(item.value.name, 80)) : `at ${item.pointer}`;
    if (over === undefined) tally.held(HygieneRules.descriptionSize);
    else {
      tally.fail(HygieneRules.descriptionSize, `tool ${name}'s description is ${size(over)} (over ${HYGIENE_LIMITS.descriptionBytes / 1024} KiB)`, {
        index: item.index,
        pointer: `${item.pointer}/description`,
      });
    }
  }
  const groups: [string, ListedItem[]][] = [["tool", tools], ["prompt", prompts], ["resource", resources], ["resource template", resourceTemplates]];
  for (const [kind, items] of groups) {
    for (const item of items) {
      for (const { what, text, seen } of textsOf(item, kind)) {
        const hidden = hiddenDetail(what, text);
        if (hidden === undefined) tally.held(HygieneRules.hiddenText);
        else tally.fail(HygieneRules.hiddenText, hidden, seen);
      }
    }
  }
  tally.done(HygieneRules.instructionsSize, "the server gave no instructions");
  tally.done(HygieneRules.descriptionSize, "no listed tool has a description");
  tally.done(HygieneRules.hiddenText, "the server gave no instructions and listed nothing with a name or description");
}

/** `ms` to 0.1 ms, as trace events stamp times. */
function tenths(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/**
 * Each method's response times: from each request the client sent to the answer with its id, by
 * method, in the order of the methods' names, to 0.1 ms. No finding is made of them (the spec sets no time).
 */
export function methodTimings(observed: Observed): MethodTiming[] {
  const pending = new Map<string, { method: string; at: number }>();
  const times = new Map<string, number[]>();
  for (const seen of observed.messages) {
    const message = seen.message as unknown as Record<string, unknown>;
    const id = message.id;
    if (typeof id !== "string" && typeof id !== "number") continue;
    const key = `${typeof id}:${id}`;
    if (seen.dir === "send" && typeof message.method === "string") {
      pending.set(key, { method: message.method, at: seen.at });
    } else if (seen.dir === "receive" && message.method === undefined) {
      const request = pending.get(key);
      if (request === undefined) continue;
      pending.delete(key);
      const list = times.get(request.method) ?? [];
      list.push(Math.max(0, seen.at - request.at));
      times.set(request.method, list);
    }
  }
  return [...times].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([method, list]) => {
    const sorted = [...list].sort((a, b) => a - b);
    const middle = sorted.length >> 1;
    const median = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
    return { method, count: sorted.length, medianMs: tenths(median), maxMs: tenths(sorted[sorted.length - 1]!) };
  });
}
