// Server text made safe to show on a terminal. A server's strings (tool descriptions, log lines,
// error messages, stderr, elicitation messages and URLs) are untrusted: an ESC starts a CSI or OSC
// sequence (colours, cursor moves, window titles, OSC 8 hyperlinks whose shown text differs from
// their target), BEL rings, CR overwrites what was printed, bidi controls reorder what is read.
// Each such character is shown as a visible escape (`\x1b`, `\u202e`) instead of being sent.

// C0 controls but TAB and LF, DEL, C1 controls (0x80–0x9f: 0x9b is a one-byte CSI, 0x9d an OSC),
// bidi embeddings/overrides/isolates, and the line/paragraph separators.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_IN_LINE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function visible(char: string): string {
  const code = char.charCodeAt(0);
  if (char === "\n") return "\\n";
  if (char === "\r") return "\\r";
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

/**
 * `text` with every control character and escape-sequence introducer made visible; line feeds
 * and tabs are kept (multi-line text such as a description or a stderr tail).
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
  UNSAFE.lastIndex = 0;
  return !UNSAFE.test(text);
}
