// Which of a server's tools get registered: `include` and `exclude` lists of exact names or
// `*` globs, matched against the server's original tool names (never the registered ones).

/** Which of a server's tools to register: `include` and `exclude` lists of original names. */
export interface ToolFilter {
  /** When present, only tools matching one of these are registered; wins over exclude. `[]` registers nothing. */
  include?: string[];
  /** Tools matching one of these are not registered (unless include names them). */
  exclude?: string[];
}

/** What filtering one listing found, besides the tools it kept. */
export interface FilterOutcome {
  /** Original names that pass, in listing order. */
  selected: string[];
  /** Patterns that matched no listed tool (a typo, or a tool the server no longer has). */
  unmatched: { list: "include" | "exclude"; pattern: string }[];
  /** Tools matched by both lists; include won, so they are in `selected`. */
  overridden: { tool: string; include: string; exclude: string }[];
}

/** A `*` glob as a whole-string RegExp; every other character stands for itself. */
export function globToRegExp(pattern: string): RegExp {
  const body = pattern.split("*").map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join(".*");
  return new RegExp(`^${body}$`, "s");
}

/** A compiled pattern list: exact names in a Set, globs as RegExps. */
class PatternList {
  readonly #exact = new Set<string>();
  readonly #globs: { pattern: string; regexp: RegExp }[] = [];

  constructor(patterns: readonly string[]) {
    for (const pattern of patterns) {
      if (pattern.includes("*")) this.#globs.push({ pattern, regexp: globToRegExp(pattern) });
      else this.#exact.add(pattern);
    }
  }

  /** Every pattern matching `name`: the exact one first, then globs in list order. */
  matches(name: string): string[] {
    const found = this.#exact.has(name) ? [name] : [];
    for (const glob of this.#globs) if (glob.regexp.test(name)) found.push(glob.pattern);
    return found;
  }
}

/** True when `name` matches one of `patterns` (exact names or `*` globs). */
export function matchesAny(name: string, patterns: readonly string[]): boolean {
  return new PatternList(patterns).matches(name).length > 0;
}

/**
 * Applies a filter to a server's original tool names. With `include`, a tool is kept
 * exactly when it matches include (exclude cannot remove it: include wins); without it,
 * a tool is kept unless it matches exclude.
 */
export function filterToolNames(names: readonly string[], filter: ToolFilter = {}): FilterOutcome {
  const include = filter.include === undefined ? undefined : new PatternList(filter.include);
  const exclude = new PatternList(filter.exclude ?? []);
  const used = new Set<string>();
  const outcome: FilterOutcome = { selected: [], unmatched: [], overridden: [] };
  for (const name of names) {
    const included = include?.matches(name) ?? [];
    const excluded = exclude.matches(name);
    for (const pattern of included) used.add(`include\0${pattern}`);
    for (const pattern of excluded) used.add(`exclude\0${pattern}`);
    if (include !== undefined) {
      if (included.length === 0) continue;
      if (excluded.length > 0) outcome.overridden.push({ tool: name, include: included[0]!, exclude: excluded[0]! });
      outcome.selected.push(name);
    } else if (excluded.length === 0) {
      outcome.selected.push(name);
    }
  }
  for (const list of ["include", "exclude"] as const) {
    for (const pattern of new Set(filter[list] ?? [])) {
      if (!used.has(`${list}\0${pattern}`)) outcome.unmatched.push({ list, pattern });
    }
  }
  return outcome;
}
