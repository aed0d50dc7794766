// Test helper: the fenced code blocks of the documentation (README.md, CONTRIBUTING.md and
// docs/**/*.md but the generated API reference docs/api/), each with its file, the line of its
// opening fence, its language and its flags (the words after the language in the info string:
// ```ts run, ```yaml config, ```json ignore). test/docs/examples.test.ts decides what each is.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** One fenced code block of a page. */
export interface DocBlock {
  /** The page, relative to the repository root ("README.md", "docs/client.md"). */
  file: string;
  /** The 1-based line of the opening fence; the block's first line is `line + 1`. */
  line: number;
  /** The info string's first word, lower-cased ("" when there is none). */
  lang: string;
  /** The info string's other words ("run", "ignore", "config"). */
  flags: string[];
  /** The lines between the fences, the opening fence's indentation taken off. */
  body: string;
}

/** `file:line`, how failures name a block. */
export function whereOf(block: DocBlock): string {
  return `${block.file}:${block.line}`;
}

/** The pages whose blocks are checked, sorted, relative to the root. */
export function docPages(): string[] {
  const pages = ["README.md", "CONTRIBUTING.md"].filter((file) => existsSync(join(ROOT, file)));
  const walk = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return path === "docs/api" ? [] : walk(path);
      return entry.name.endsWith(".md") ? [path] : [];
    });
  return [...pages, ...(existsSync(join(ROOT, "docs")) ? walk("docs").sort() : [])];
}

/** The fenced blocks of markdown `text` (CommonMark fences: ``` or ~~~, up to three spaces before). */
export function blocksOf(file: string, text: string): DocBlock[] {
  const lines = text.split("\n");
  const blocks: DocBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = /^( {0,3})(`{3,}|~{3,})\s*([^`]*)$/.exec(lines[index] ?? "");
    if (open === null) continue;
    const [, indent = "", fence = "```", info = ""] = open;
    const body: string[] = [];
    let end = index + 1;
    for (; end < lines.length; end++) {
      const line = lines[end] ?? "";
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
      if (close !== null && close[1]!.startsWith(fence[0]!) && close[1]!.length >= fence.length) break;
      body.push(line.startsWith(indent) ? line.slice(indent.length) : line.trimStart());
    }
    const [lang = "", ...flags] = info.trim().split(/\s+/).filter((word) => word !== "");
    blocks.push({ file, line: index + 1, lang: lang.toLowerCase(), flags, body: body.join("\n") });
    index = end;
  }
  return blocks;
}

/** Every block of every page of docPages(). */
export function docBlocks(): DocBlock[] {
  return docPages().flatMap((file) => blocksOf(file, readFileSync(join(ROOT, file), "utf8")));
}
