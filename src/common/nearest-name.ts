// How far apart two names are, and the known name nearest to a mistyped one: the "did you mean"
// of option objects (options.ts), of config keys and, through registry/suggest.ts, of tool names.

/** Edits (insert, delete, replace, swap two neighbours) from `a` to `b`: optimal string alignment. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let before = new Array<number>(b.length + 1).fill(0); // row i-2
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j); // row i-1
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2]! + 1);
      current[j] = value;
    }
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length]!;
}

/** Longer names are cut before comparing: edit distance costs the product of the two lengths. */
const MAX_COMPARED = 64;

/**
 * The known name `wanted` most likely meant, or undefined when none is near: the same but for
 * case and `_`/`-`; a few edits off (about one in three characters); one the start of the other
 * (`timeout` → `timeoutMs`); or an abbreviation of it, its letters in order from the first
 * (`cmd` → `command`). The nearer kind wins, then fewer edits.
 */
export function nearestName(wanted: string, known: Iterable<string>): string | undefined {
  const input = squash(wanted.slice(0, MAX_COMPARED));
  if (input === "") return undefined;
  let best: string | undefined;
  let bestScore = Infinity;
  for (const name of known) {
    const candidate = squash(name.slice(0, MAX_COMPARED));
    const score = scoreOf(input, candidate);
    if (score < bestScore) {
      best = name;
      bestScore = score;
    }
  }
  return best;
}

/** Lower case, without `_` and `-`. */
function squash(name: string): string {
  return name.toLowerCase().replace(/[-_]/g, "");
}

// A score per kind of nearness, lower is nearer; Infinity for a name not near at all.
function scoreOf(input: string, candidate: string): number {
  if (input === candidate) return 0;
  const edits = editDistance(input, candidate);
  if (edits <= Math.max(1, Math.floor(Math.max(input.length, candidate.length) / 3)) && Math.min(input.length, candidate.length) >= 2) {
    return 100 + edits;
  }
  if (input.length >= 3 && (candidate.startsWith(input) || input.startsWith(candidate))) {
    return 200 + Math.abs(candidate.length - input.length);
  }
  if (input.length >= 2 && input[0] === candidate[0] && isSubsequence(input, candidate)) return 300 + candidate.length - input.length;
  return Infinity;
}

/** Whether the letters of `short` appear in `long` in order. */
function isSubsequence(short: string, long: string): boolean {
  let at = 0;
  for (const char of long) if (char === short[at] && ++at === short.length) return true;
  return false;
}
