// Test helper: the CLI transcripts of the documentation (```console run blocks, see
// test/docs/examples.test.ts): the `$ mcpwire …` commands of a block, each with the words it
// runs, the exit code it should end with and the output shown after it; the normalising both
// sides go through before they are compared; and the comparison, where a line `…` stands for
// any number of lines and `…` within a line for any text.

/** One `$ mcpwire …` line of a transcript and what follows it. */
export interface TranscriptStep {
  /** Its line in the page. */
  line: number;
  /** The command as written, without the `$ `. */
  command: string;
  /** The words after `mcpwire`, quotes taken off as a POSIX shell would. */
  args: string[];
  /** `# exit N` at the end of the command line; default 0. */
  exit: number;
  /** The lines up to the next `$ ` line (expected stdout; stdout then stderr when `exit` is not 0). */
  expected: string[];
}

/** `$NAME` or `${NAME}` at `index` of `text`, when NAME is one of `vars`: its value and the length it spans. */
function variableAt(text: string, index: number, vars: Readonly<Record<string, string>>): { value: string; length: number } | undefined {
  const found = /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/.exec(text.slice(index));
  const name = found?.[1] ?? found?.[2];
  if (found === null || name === undefined || !Object.hasOwn(vars, name)) return undefined;
  return { value: vars[name]!, length: found[0].length };
}

/**
 * Splits a command line into words as sh does for quotes and backslashes, `$NAME` and `${NAME}`
 * expanded for the names of `vars` only (as one word's text, never split); throws on what it
 * does not run (pipes, other expansions, redirections).
 */
export function shellWords(text: string, vars: Readonly<Record<string, string>> = {}): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    const variable = char === "$" ? variableAt(text, index, vars) : undefined;
    if (variable !== undefined) {
      word = (word ?? "") + variable.value;
      index += variable.length - 1;
      continue;
    }
    if (char === "'") {
      const end = text.indexOf("'", index + 1);
      if (end < 0) throw new Error(`an unclosed ' in: ${text}`);
      word = (word ?? "") + text.slice(index + 1, end);
      index = end;
    } else if (char === '"') {
      let value = "";
      for (index++; index < text.length && text[index] !== '"'; index++) {
        const inner = text[index] === "$" ? variableAt(text, index, vars) : undefined;
        if (inner !== undefined) {
          value += inner.value;
          index += inner.length - 1;
          continue;
        }
        if (text[index] === "\\" && /["\\$`]/.test(text[index + 1] ?? "")) index++;
        else if (text[index] === "$" || text[index] === "`") throw new Error(`a transcript runs no expansion ($, \`): ${text}`);
        value += text[index];
      }
      if (index >= text.length) throw new Error(`an unclosed " in: ${text}`);
      word = (word ?? "") + value;
    } else if (char === "\\") {
      word = (word ?? "") + (text[index + 1] ?? "");
      index++;
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (char === "#" && word === undefined) {
      break;
    } else if (/[|&;<>()$`*?]/.test(char)) {
      throw new Error(`a transcript runs one mcpwire command, no shell (${char}): ${text}`);
    } else {
      word = (word ?? "") + char;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** The steps of a ```console run block whose opening fence is at `fenceLine`; `vars` as shellWords takes them. */
export function transcriptSteps(body: string, fenceLine: number, vars: Readonly<Record<string, string>> = {}): TranscriptStep[] {
  const steps: TranscriptStep[] = [];
  for (const [offset, text] of body.split("\n").entries()) {
    const line = fenceLine + 1 + offset;
    if (text.startsWith("$ ")) {
      const command = text.slice(2).trim();
      const words = shellWords(command, vars);
      if (words[0] !== "mcpwire") throw new Error(`line ${line}: a transcript runs only \`$ mcpwire …\` lines: ${command}`);
      const exit = /#\s*exit\s+(\d+)\s*$/.exec(command);
      steps.push({ line, command, args: words.slice(1), exit: exit ? Number(exit[1]) : 0, expected: [] });
    } else if (steps.length === 0) {
      if (text.trim() !== "") throw new Error(`line ${line}: a transcript starts with a \`$ mcpwire …\` line`);
    } else {
      steps.at(-1)!.expected.push(text);
    }
  }
  return steps;
}

/** What may differ between runs and machines, replaced on both sides of a comparison. */
export interface Normalising {
  /** Paths replaced by the name given (temp dirs by `<tmp>`, the repository by `<root>`). */
  paths: [string, string][];
}

/**
 * Text as compared: colours and trailing spaces off, trailing empty lines off, the given paths
 * named, timings (`12 ms`, `1.2 s`, `350ms`) `<time>`, versions (`1.2.3`, `2.0.0-beta.1`) `<version>`.
 */
export function normalised(text: string, normalising: Normalising): string[] {
  let result = text.replace(/\x1b\[[0-9;]*[A-Za-z]/g, "");
  for (const [path, name] of normalising.paths) if (path !== "") result = result.split(path).join(name);
  const lines = result.split("\n").map((line) =>
    line.trimEnd()
      .replace(/\b\d+(?:\.\d+)?\s?(?:ms|s)\b/g, "<time>")
      .replace(/\bv?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?\b/g, "<version>")
  );
  while (lines.length > 0 && lines.at(-1) === "") lines.pop();
  while (lines.length > 0 && lines[0] === "") lines.shift();
  return lines;
}

/** Whether one line matches an expected line, where `…` stands for any text. */
function lineMatches(actual: string, expected: string): boolean {
  if (!expected.includes("…")) return actual === expected;
  const pattern = expected.split("…").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*");
  return new RegExp(`^${pattern}$`, "s").test(actual);
}

/** Whether `actual` lines match `expected` lines, a line `…` standing for any number of lines. */
export function linesMatch(actual: readonly string[], expected: readonly string[]): boolean {
  const memo = new Map<string, boolean>();
  const from = (a: number, e: number): boolean => {
    const key = `${a},${e}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let result: boolean;
    if (e === expected.length) result = a === actual.length;
    else if (expected[e]!.trim() === "…") result = from(a, e + 1) || (a < actual.length && from(a + 1, e));
    else result = a < actual.length && lineMatches(actual[a]!, expected[e]!) && from(a + 1, e + 1);
    memo.set(key, result);
    return result;
  };
  return from(0, 0);
}
