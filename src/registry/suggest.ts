// "Did you mean": the registered names nearest to a name nobody registered. Used by the
// registry's unknown-tool error (a model that calls a wrong name learns the right one) and by
// the CLI (`mcpwire call`, `mcpwire tools SERVER`). Names are compared the way people and models
// get them wrong: `_` for `-` and case (`mcp_everything_get_sum`), the bare tool name without its
// `mcp_<server>_` prefix (`get-sum`), a few typed characters off (`get-smu`), or only the start.

import { editDistance } from "../common/nearest-name.ts";

// The edit distance is common to every "did you mean" (common/nearest-name.ts); exported here too.
export { editDistance };

/** How many names a suggestion offers at most, by default. */
export const MAX_SUGGESTIONS = 3;
/** Longer input is cut before comparing: edit distance costs the product of the two lengths. */
const MAX_COMPARED = 128;

// How close a candidate is; a lower tier wins, then fewer edits, then the shorter name.
const TIER = {
  /** Equal but for case and `_`/`-`. */
  spelling: 0,
  /** The candidate ends with the input at a segment boundary: the bare tool name. */
  suffix: 1,
  /** A few edits away (after the prefix both share). */
  edits: 2,
  /** The candidate starts with the input (or the input with the candidate). */
  prefix: 3,
  /** Every segment of the input is a segment of the candidate. */
  segments: 4,
} as const;

interface Scored {
  name: string;
  tier: number;
  distance: number;
}

/**
 * The registered names nearest to `wanted`, best first, at most `max`; empty when none is near.
 * `wanted` itself, if it is a candidate, is not suggested.
 */
export function suggestNames(wanted: string, candidates: Iterable<string>, max = MAX_SUGGESTIONS): string[] {
  const input = normal(wanted.slice(0, MAX_COMPARED));
  if (input === "" || max <= 0) return [];
  const inputSegments = segmentsOf(input);
  const scored: Scored[] = [];
  const seen = new Set<string>();
  for (const name of candidates) {
    if (name === wanted || seen.has(name)) continue;
    seen.add(name);
    const score = scoreOf(input, inputSegments, name);
    if (score !== undefined) scored.push(score);
  }
  scored.sort((a, b) => a.tier - b.tier || a.distance - b.distance || a.name.length - b.name.length || (a.name < b.name ? -1 : 1));
  // The best tier alone when it is a sure match (spelling, bare name): no noise after it.
  const best = scored[0]?.tier;
  const kept = best !== undefined && best <= TIER.suffix ? scored.filter((each) => each.tier === best) : scored;
  return kept.slice(0, max).map((each) => each.name);
}

/** `did you mean "a" or "b"?`, or "" when there is nothing to suggest. */
export function didYouMean(names: readonly string[]): string {
  if (names.length === 0) return "";
  const quoted = names.map((name) => JSON.stringify(name));
  const list = quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(", ")} or ${quoted[quoted.length - 1]}`;
  return `did you mean ${list}?`;
}

function scoreOf(input: string, inputSegments: string[], name: string): Scored | undefined {
  const candidate = normal(name.slice(0, MAX_COMPARED));
  if (candidate === input) return { name, tier: TIER.spelling, distance: 0 };
  if (candidate.endsWith("_" + input)) return { name, tier: TIER.suffix, distance: candidate.length - input.length };
  // Edits, counted on what differs after a shared start (`mcp_everything_`), against the whole
  // name and against its tail of as many segments as the input has (a bare name with a typo).
  let distance = Infinity;
  for (const tail of [candidate, tailOf(candidate, input.split("_").length)]) {
    const [a, b] = afterSharedPrefix(input, tail);
    const edits = editDistance(a, b);
    if (edits <= allowedEdits(Math.max(a.length, b.length)) && edits < distance) distance = edits;
  }
  if (distance !== Infinity) return { name, tier: TIER.edits, distance };
  if (input.length >= 3 && (candidate.startsWith(input) || input.startsWith(candidate))) {
    return { name, tier: TIER.prefix, distance: Math.abs(candidate.length - input.length) };
  }
  const segments = new Set(segmentsOf(candidate));
  if (inputSegments.length > 0 && inputSegments.every((segment) => segments.has(segment))) {
    return { name, tier: TIER.segments, distance: segments.size - inputSegments.length };
  }
  return undefined;
}

/** Lower case, `-` read as `_` (the two separators people and models swap). */
function normal(name: string): string {
  return name.toLowerCase().replaceAll("-", "_");
}

/** The segments of a normalized name: `mcp_everything_get_sum` → mcp, everything, get, sum. */
function segmentsOf(name: string): string[] {
  return name.split("_").filter((segment) => segment.length > 1);
}

/** The last `count` `_`-separated parts of a name (the whole name when it has no more). */
function tailOf(name: string, count: number): string {
  const parts = name.split("_");
  return parts.length <= count ? name : parts.slice(parts.length - count).join("_");
}

/** The two strings without the start they share up to its last `_` (a whole shared prefix segment). */
function afterSharedPrefix(a: string, b: string): [string, string] {
  let shared = 0;
  const limit = Math.min(a.length, b.length);
  while (shared < limit && a.charCodeAt(shared) === b.charCodeAt(shared)) shared++;
  if (shared === 0) return [a, b];
  const cut = a.lastIndexOf("_", shared - 1) + 1;
  return [a.slice(cut), b.slice(cut)];
}

/** About one edit in three characters of what differs, at least one; none under three (any `a` is one edit from `b`). */
function allowedEdits(length: number): number {
  return length < 3 ? 0 : Math.max(1, Math.floor(length / 3));
}
