// A tool's result as text for people: what `mcpwire call` and `mcpwire task` print when not
// --json — the content blocks, the structuredContent only when no text block says the result
// (spec 2025-11-25 server/tools, "Structured Content"), bounded, redacted, terminal-safe.

import type { CallToolResult } from "../../client/types.ts";
import { terminalText } from "../../common/terminal-text.ts";
import { blockText, isCallToolResult } from "../../registry/result-format.ts";
import { boundedText, deeperThan, redacted, RESULT_BOUNDS, textOf } from "../output.ts";

/**
 * Whether people are shown a CallToolResult's structuredContent: only when no text block says
 * the result (spec 2025-11-25 server/tools: the text SHOULD carry it too), so it is printed once.
 */
function showsStructured(result: CallToolResult): boolean {
  return result.structuredContent !== undefined && !result.content.some((block) => block?.type === "text");
}

/** The part of a result `call` prints for people (resultText): what its depth is judged on. */
export function shownPart(result: unknown): unknown {
  return isCallToolResult(result) && !showsStructured(result) ? result.content : result;
}

/**
 * A result as text for people: a CallToolResult's content blocks, or, when none of them is
 * text, those blocks and its structuredContent pretty-printed (--json prints the whole result);
 * anything else as JSON. A value nested past the bound is shown to it, the deep part marked.
 */
export function resultText(result: unknown): string {
  if (typeof result === "string") return textOf(result);
  if (!isCallToolResult(result)) return terminalText(boundedText(result, { ...RESULT_BOUNDS, indent: 2 }));
  const parts = result.content.map((block) => (deeperThan(block, RESULT_BOUNDS.maxDepth) ? boundedText(block, RESULT_BOUNDS) : redacted(blockText(block))));
  if (showsStructured(result)) parts.push(boundedText(result.structuredContent, { ...RESULT_BOUNDS, indent: 2 }));
  return terminalText(parts.join("\n"));
}
