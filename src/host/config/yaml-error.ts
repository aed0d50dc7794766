// Where a YAML config is wrong, as its writer sees it. The yaml package places each error where
// its parser noticed it, which is not always where the fault is: a line indented too deep is
// read as the continuation of the value above, so the error falls on that value, a line early
// (`command: node` / `    args: [x]` → line 3, for the fault on line 4); an unclosed `[`, `{`
// or quote is noticed at the end of the file (or at the next key), past the line that opened it;
// an indentation error points at column 1 rather than at the text. Here each is moved to the
// fault, and said in words that name it.

import { type Document, isMap, isScalar, isSeq, parseDocument, visit, type YAMLError } from "yaml";

/** The place (offset) and message of a YAML document's first error, moved to where the fault is. */
export function yamlError(doc: Document, text: string): { offset: number; message: string } {
  const first = doc.errors[0]!; // the caller checked there is one
  const more = doc.errors.length > 1 ? ` (and ${doc.errors.length - 1} more problem${doc.errors.length > 2 ? "s" : ""})` : "";
  const deeper = deeperLine(doc.errors, text);
  if (deeper !== undefined) return { offset: deeper.offset, message: deeper.message + more };
  const opened = unclosedAt(first, text);
  if (opened !== undefined) return { offset: opened.offset, message: opened.message + more };
  let message = first.message;
  const multiline = doc.errors.find((error) => error.code === "MULTILINE_IMPLICIT_KEY");
  // `command:node` on one line and a key on the next: the colon without a space made no key.
  if (multiline !== undefined && /[^\s:]:[^\s:/]/.test(lineAt(text, multiline.pos[0]).text)) {
    message += "; a key's colon needs a space after it (command: node)";
  } else if (first.code === "BLOCK_AS_IMPLICIT_KEY" && /^Nested mappings/.test(first.message)) {
    // `command: node: x`: a second ": " on the line starts a mapping inside the value.
    message += '; a value that holds ": " must be quoted (command: "node: x")';
  }
  return { offset: textStart(text, Math.min(first.pos[0], lastLineEnd(text))), message: message + more };
}

/** The line holding `offset`: its start and its text. */
function lineAt(text: string, offset: number): { start: number; text: string } {
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  const end = text.indexOf("\n", offset);
  return { start, text: text.slice(start, end === -1 ? text.length : end) };
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/**
 * A key spread over two lines (MULTILINE_IMPLICIT_KEY) whose last line is indented deeper than
 * its first: that line is the fault (it continues the value above instead of starting a key).
 */
function deeperLine(errors: readonly YAMLError[], text: string): { offset: number; message: string } | undefined {
  const multiline = errors.find((error) => error.code === "MULTILINE_IMPLICIT_KEY");
  if (multiline === undefined) return undefined;
  const [start, end] = multiline.pos;
  const first = lineAt(text, start);
  const last = lineAt(text, Math.max(start, end - 1));
  if (last.start === first.start || indentOf(last.text) <= indentOf(first.text)) return undefined;
  const shown = first.text.trim().length > 40 ? `${first.text.trim().slice(0, 40)}…` : first.text.trim();
  return {
    offset: last.start + indentOf(last.text),
    message: `this line is indented deeper (${indentOf(last.text)} spaces) than the line above (${indentOf(first.text)}: "${shown}"), ` +
      "so YAML reads it as part of that line's value; indent it as the keys above it",
  };
}

/**
 * The `[`, `{` or quote an error about an unclosed one is about: the innermost flow collection
 * of its kind without its closing bracket (the text read again with its source tokens, which say
 * so), or the quoted scalar still open where the error was noticed.
 */
function unclosedAt(error: YAMLError, text: string): { offset: number; message: string } | undefined {
  const kind = /^Flow sequence/.test(error.message)
    ? "seq"
    : /^Flow map/.test(error.message)
    ? "map"
    : /^Missing closing "quote/.test(error.message)
    ? "QUOTE_DOUBLE"
    : /^Missing closing 'quote/.test(error.message)
    ? "QUOTE_SINGLE"
    : undefined;
  if (kind === undefined) return undefined;
  const at = error.pos[0];
  let open: number | undefined;
  const doc = parseDocument(text, { keepSourceTokens: true, prettyErrors: false });
  visit(doc, (_key, node) => {
    const range = (node as { range?: [number, number, number] | null }).range;
    if (!range || range[0] >= at) return;
    const token = (node as { srcToken?: { type: string; end?: { type: string }[] } }).srcToken;
    const closer = kind === "seq" ? "flow-seq-end" : "flow-map-end";
    const fits = kind === "seq" || kind === "map"
      ? (kind === "seq" ? isSeq(node) : isMap(node)) && (node as { flow?: boolean }).flow === true && token?.type === "flow-collection" &&
        !(token.end ?? []).some((end) => end.type === closer)
      : isScalar(node) && node.type === kind && range[1] >= at;
    if (fits && (open === undefined || range[0] > open)) open = range[0];
  });
  if (open === undefined) return undefined;
  const message = kind === "seq"
    ? "this [ is not closed: a list written in brackets ends with ] (its further lines indented deeper than its key)"
    : kind === "map"
    ? "this { is not closed: a mapping written in braces ends with } (its further lines indented deeper than its key)"
    : `this ${kind === "QUOTE_DOUBLE" ? '"' : "'"} is not closed: a quoted string ends with the same quote`;
  return { offset: open, message };
}

/** The offset of the last character of the text's last line (not past its final line feed). */
function lastLineEnd(text: string): number {
  const trimmed = text.replace(/\s+$/, "");
  return Math.max(0, trimmed.length - 1);
}

/** At a line's leading spaces, the first character after them (an indentation error names the text, not column 1). */
function textStart(text: string, offset: number): number {
  const line = lineAt(text, offset);
  const indent = indentOf(line.text);
  return offset - line.start < indent && line.text[offset - line.start] === " " ? line.start + indent : offset;
}
