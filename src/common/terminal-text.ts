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
// Two passes, without the regex `u` flag (which makes the scan of clean text several times
// slower): the BMP characters first, then, only in text that holds a surrogate, the astral ones
// as their surrogate pairs (U+E0000–E007F and U+E0100–E01EF are \udb40 then \udc00–\udc7f or
// \udd00–\uddef) and a lone surrogate, one its neighbour does not pair.
const BMP = "\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u061c\\u115f\\u1160\\u180e\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u206f\\u3164\\ufeff\\uffa0";
const UNSAFE = new RegExp(`[${BMP}]`, "g");
const UNSAFE_IN_LINE = new RegExp(`[\\n${BMP}]`, "g");
const SURROGATE = /[\ud800-\udfff]/;
const UNSAFE_ASTRAL = /\udb40[\udc00-\udc7f\udd00-\uddef]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const ZWJ = "\u200d";
const ZWNJ = "\u200c";
const PICTOGRAPH = /^\p{Extended_Pictographic}$/u;
/**
 * A letter or mark of a script whose words are written with joiners (Arabic and Persian, the
 * Indic scripts, Syriac…): anything but Latin, Greek, Cyrillic and the scripts without letters.
 */
const JOINING_LETTER = /^(?![\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}])[\p{L}\p{M}]$/u;

/** The code point that ends at `end` (a surrogate pair read whole), and where it starts. */
function codePointBefore(text: string, end: number): { code: number; start: number } | undefined {
  if (end <= 0) return undefined;
  const start = end >= 2 && /[\ud800-\udbff][\udc00-\udfff]/.test(text.slice(end - 2, end)) ? end - 2 : end - 1;
  return { code: text.codePointAt(start)!, start };
}

/** Whether the ZWJ at `offset` joins two emoji (UTS #51 emoji ZWJ sequences), the first maybe with VS16 or a skin tone. */
function joinsEmoji(text: string, offset: number): boolean {
  let before = codePointBefore(text, offset);
  if (before !== undefined && (before.code === 0xfe0f || (before.code >= 0x1f3fb && before.code <= 0x1f3ff))) before = codePointBefore(text, before.start);
  const after = text.codePointAt(offset + 1);
  return before !== undefined && after !== undefined && PICTOGRAPH.test(String.fromCodePoint(before.code)) && PICTOGRAPH.test(String.fromCodePoint(after));
}

/**
 * Whether the joiner or non-joiner at `offset` stands between two letters of a script that
 * writes words with it (Persian می‌خواهم, Hindi क्‍ष: Unicode 15 section 23.2): ordinary text there,
 * not a hidden mark. Between Latin letters, at a word's edge or alone it is made visible.
 */
function joinsLetters(text: string, offset: number): boolean {
  const before = codePointBefore(text, offset);
  const after = text.codePointAt(offset + 1);
  return before !== undefined && after !== undefined && JOINING_LETTER.test(String.fromCodePoint(before.code)) &&
    JOINING_LETTER.test(String.fromCodePoint(after));
}

/**
 * Whether the joiner (U+200D) or non-joiner (U+200C) at `offset` of `text` is ordinary text: a ZWJ
 * joining two emoji (👩‍💻) draws them as one; either inside a Persian or Indic word is part of its
 * spelling. Anywhere else it is a hidden mark.
 */
export function joinerIsText(text: string, offset: number): boolean {
  const char = text.charAt(offset);
  if (char === ZWJ && joinsEmoji(text, offset)) return true;
  return (char === ZWNJ || char === ZWJ) && joinsLetters(text, offset);
}

function visible(char: string, offset: number, whole: string): string {
  if (joinerIsText(whole, offset)) return char;
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
  return astral(text.replace(UNSAFE, visible));
}

/** Like terminalText, for a value shown on one line: line feeds are made visible too. */
export function terminalLine(text: string): string {
  return astral(text.replace(UNSAFE_IN_LINE, visible));
}

/**
 * The second pass: tag characters, supplementary variation selectors (both \udb40 pairs) and lone
 * surrogates; text without either (emoji included) is not scanned again.
 */
function astral(text: string): string {
  return SURROGATE.test(text) && (text.includes("\udb40") || !wellFormed(text)) ? text.replace(UNSAFE_ASTRAL, visible) : text;
}

/** String.prototype.isWellFormed (ES2024: no lone surrogate), where the runtime has it. */
function wellFormed(text: string): boolean {
  const check = (text as { isWellFormed?: () => boolean }).isWellFormed;
  return check === undefined ? false : check.call(text);
}

/** True when `text` holds nothing terminalText would change. */
export function isTerminalSafe(text: string): boolean {
  return terminalText(text) === text;
}
