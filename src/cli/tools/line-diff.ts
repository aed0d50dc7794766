// A small line diff (longest common subsequence) for `mcpwire pin diff`: lines kept, removed
// (`-`) and added (`+`), with a few lines of context around each change. Bounded: past
// MAX_DIFF_LINES lines a side the two texts are shown whole, one removed and one added.

/** Lines a side the LCS table is built for (its size is the product of the two). */
export const MAX_DIFF_LINES = 2_000;

/** One line of a diff: ` ` kept, `-` only in the old text, `+` only in the new. */
export interface DiffLine {
  kind: " " | "-" | "+";
  text: string;
}

/** The diff of two texts, line by line. */
export function diffLines(before: string, after: string): DiffLine[] {
  const a = before === "" ? [] : before.split("\n");
  const b = after === "" ? [] : after.split("\n");
  if (a.length > MAX_DIFF_LINES || b.length > MAX_DIFF_LINES) {
    return [...a.map((text) => ({ kind: "-" as const, text })), ...b.map((text) => ({ kind: "+" as const, text }))];
  }
  // lengths[i][j]: the LCS of a[i..] and b[j..].
  const width = b.length + 1;
  const lengths = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lengths[i * width + j] = a[i] === b[j] ? lengths[(i + 1) * width + j + 1]! + 1 : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ kind: " ", text: a[i++]! });
      j++;
    } else if (lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!) out.push({ kind: "-", text: a[i++]! });
    else out.push({ kind: "+", text: b[j++]! });
  }
  while (i < a.length) out.push({ kind: "-", text: a[i++]! });
  while (j < b.length) out.push({ kind: "+", text: b[j++]! });
  return out;
}

/** The changed lines with `context` kept lines around each run of changes; `…` where kept lines are left out. */
export function withContext(lines: readonly DiffLine[], context = 3): Array<DiffLine | "…"> {
  const near = new Array<boolean>(lines.length).fill(false);
  for (const [index, line] of lines.entries()) {
    if (line.kind === " ") continue;
    for (let k = Math.max(0, index - context); k <= Math.min(lines.length - 1, index + context); k++) near[k] = true;
  }
  const out: Array<DiffLine | "…"> = [];
  for (const [index, line] of lines.entries()) {
    if (near[index]) out.push(line);
    else if (out.at(-1) !== "…") out.push("…");
  }
  return out;
}
