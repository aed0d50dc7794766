// What `mcpwire pin diff` and the question of run / chat show about a held tool: a heading that
// says what changed, notes on what reads otherwise than it is (a name or text mixing look-alike
// letters of different scripts, text hidden in Unicode tag characters: common/deceptive-text.ts),
// then a line diff (line-diff.ts) of each pinned field that differs — strings as their lines,
// schemas as indented JSON with sorted keys — every line sanitized for the terminal (invisible
// characters shown as escapes: common/terminal-text.ts).

import type { JsonObject } from "../../client/types.ts";
import { canonicalJson } from "../../common/canonical-json.ts";
import { deceptionNotes } from "../../common/deceptive-text.ts";
import { isObject } from "../../common/json.ts";
import { PINNED_FIELDS } from "../../registry/pin-record.ts";
import { heldSummary, type HeldTool } from "../../registry/tool-pins.ts";
import { lineOf } from "../output.ts";
import { diffLines, withContext } from "./line-diff.ts";

/** A held tool's heading and the line diff of each field that changed (its whole definition when new). */
export function heldDiffText(held: HeldTool): string {
  const lines = [`${lineOf(heldSummary(held))}${held.rejected ? " [rejected]" : ""}`];
  for (const note of heldNotes(held)) lines.push(`  note: ${lineOf(note)}`);
  if (held.after === undefined) {
    lines.push("  (its new definition was too large to keep; nothing to show)");
    return lines.join("\n");
  }
  const fields = held.change === "changed" && held.before !== undefined
    ? held.fields
    : PINNED_FIELDS.filter((field) => fieldValue(held.after!, field) !== undefined);
  const before = held.change === "new" || held.change === "invalid" ? undefined : held.before;
  if (held.change === "changed" && held.before === undefined) lines.push("  (its pinned definition was too large to keep: the new one is shown whole)");
  lines.push("  --- pinned", "  +++ listed now");
  for (const field of fields) {
    const old = before === undefined ? "" : fieldLines(fieldValue(before, field));
    const now = fieldLines(fieldValue(held.after, field));
    if (old === now && held.change !== "new") continue;
    lines.push(`  ${field}:`);
    for (const line of withContext(diffLines(old, now))) lines.push(line === "…" ? "    …" : `  ${line.kind} ${lineOf(line.text)}`);
  }
  return lines.join("\n");
}

/**
 * What reads otherwise than it is in a held tool, one line each: its name (and the name it was
 * renamed from) and each pinned field of its new definition, mixing scripts or hiding text in
 * tag characters. The lines hold the letters as they are: show them through lineOf.
 */
export function heldNotes(held: HeldTool): string[] {
  const notes = [
    ...deceptionNotes(held.tool, `its name "${held.tool}"`),
    ...(held.renamedFrom === undefined ? [] : deceptionNotes(held.renamedFrom, `its old name "${held.renamedFrom}"`)),
  ];
  if (held.after === undefined) return notes;
  for (const field of PINNED_FIELDS) {
    if (field === "name") continue; // said above, as the tool's name
    const text = fieldLines(fieldValue(held.after, field));
    if (text !== "") notes.push(...deceptionNotes(text, `its ${field}`));
  }
  return notes;
}

function fieldValue(definition: JsonObject, field: string): unknown {
  return field === "_meta.ui" ? (isObject(definition._meta) ? definition._meta.ui : undefined) : definition[field];
}

/** A field as lines to diff: a string as its lines, anything else as JSON with sorted keys, indented. */
function fieldLines(value: unknown): string {
  if (value === undefined) return "";
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(JSON.parse(canonicalJson(value)), null, 2);
  } catch {
    return JSON.stringify(value, null, 2) ?? "";
  }
}
