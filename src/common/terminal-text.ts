// Server text made safe to show on a terminal. A server's strings (tool descriptions, log lines,
// error messages, stderr, elicitation messages and URLs) are untrusted: an ESC starts a CSI or OSC
// sequence (colours, cursor moves, window titles, OSC 8 hyperlinks whose shown text differs from
// their target), BEL rings, CR overwrites what was printed, bidi controls reorder what is read,
// and invisible characters (zero-width ones, Unicode tag characters) carry text a reader never
// sees: an instruction to a model hidden in a tool's description. Each such character is shown
// as a visible escape (`\x1b`, `\u202e`, `\u{e0041}`) instead of being sent.

// C0 controls but TAB and LF, DEL, C1 controls (0x80–0x9f: 0x9b is a one-byte CSI, 0x9d an OSC),
// the Arabic letter mark, bidi marks, embeddings, overrides and isolates, the line/paragraph
// separators; the invisible ones: zero-width space, non-joiner and joiner (U+200B–200D), word
// joiner, invisible operators and the deprecated format characters (U+2060–206F), the BOM / zero-
// width no-break space (U+FEFF), the Mongolian vowel separator, the Hangul fillers (blank
// letters), Unicode tag characters (U+E0000–E007F: invisible ASCII, "ASCII smuggling") and the
// variation selectors supplement (U+E0100–E01EF, which can encode bytes after any letter); and a
// lone surrogate, which no terminal can show.
const INVISIBLE = "\\u115f\\u1160\\u180e\\u200b-\\u200f\\u2060-\\u206f\\u3164\\ufeff\\uffa0\\u{e0000}-\\u{e007f}\\u{e0100}-\\u{e01ef}\\ud800-\\udfff";
const CONTROLS = "\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u061c\\u2028\\u2029\\u202a-\\u202e";
const UNSAFE = new RegExp(`[${CONTROLS}${INVISIBLE}]`, "gu");
const UNSAFE_IN_LINE = new RegExp(`[\\n${CONTROLS}${INVISIBLE}]`, "gu");
const ZWJ = "\u200d";
/** An emoji on the ZWJ's side (UTS #51 emoji ZWJ sequences), after any emoji presentation selector or skin tone. */
const PICTOGRAPH_BEFORE = /\p{Extended_Pictographic}[\ufe0f\u{1f3fb}-\u{1f3ff}]?$/u;
const PICTOGRAPH_AFTER = /^\p{Extended_Pictographic}/u;

function visible(char: string, offset: number, whole: string): string {
  // A ZWJ joining two emoji (👩‍💻) is what draws them as one; anywhere else it is made visible.
  if (char === ZWJ && PICTOGRAPH_BEFORE.test(whole.slice(Math.max(0, offset - 4), offset)) && PICTOGRAPH_AFTER.test(whole.slice(offset + 1, offset + 3))) {
    return char;
  }
  const code = char.codePointAt(0)!; // a match is one code point
  if (char === "\n") return "\\n";
  if (char === "\r") return "\\r";
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, "0")}`;
  return code <= 0xffff ? `\\u${code.toString(16).padStart(4, "0")}` : `\\u{${code.toString(16)}}`;
}

/**
 * `text` with every control character, escape-sequence introducer and invisible character made
 * visible; line feeds and tabs are kept (multi-line text such as a description or a stderr tail).
 */
export function terminalText(text: string): string {
  return text.replace(UNSAFE, visible);
}

/** Like terminalText, for a value shown on one line: line feeds are made visible too. */
export function terminalLine(text: string): string {
  return text.replace(UNSAFE_IN_LINE, visible);
}

/** True when `text` holds nothing terminalText would change. */
export function isTerminalSafe(text: string): boolean {
  return terminalText(text) === text;
}
