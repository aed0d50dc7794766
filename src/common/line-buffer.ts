// Text split into lines as it arrives: this process's stdin for prompts, a child's stderr, a
// model's NDJSON stream. (The JSON-RPC framer, jsonrpc/line-decoder.ts, splits bytes itself:
// it sizes each line before decoding it.)

/**
 * Decoded text split into lines (`\n` or `\r\n`), or handed back as it came (takeText). Each
 * character is scanned once: a chunk without a line end is kept as one more piece of the
 * partial line, never joined to it and searched again, so the work is linear in the input
 * however it is cut.
 */
export class LineBuffer {
  /** Whole lines as they came (a `\r` before the `\n` still on), from #next on not yet taken. */
  #lines: string[] = [];
  #next = 0;
  /** The partial line, in the pieces it arrived in, and its length. */
  #pieces: string[] = [];
  #partialLength = 0;
  #ended = false;
  push(text: string): void {
    let start = 0;
    for (let newline = text.indexOf("\n"); newline !== -1; newline = text.indexOf("\n", start)) {
      const end = text.slice(start, newline);
      if (this.#pieces.length === 0) this.#lines.push(end);
      else {
        this.#pieces.push(end);
        this.#lines.push(this.#pieces.join(""));
        this.#pieces = [];
        this.#partialLength = 0;
      }
      start = newline + 1;
    }
    if (start < text.length) {
      this.#pieces.push(start === 0 ? text : text.slice(start));
      this.#partialLength += text.length - start;
    }
  }
  end(): void {
    this.#ended = true;
  }
  /** True when a line is ready or the input has ended. */
  get settled(): boolean {
    return this.#next < this.#lines.length || this.#ended;
  }
  /** True when text has arrived that was not taken yet, a line or part of one. */
  get holdsText(): boolean {
    return this.#next < this.#lines.length || this.#pieces.length > 0;
  }
  /** The length of the line begun and not ended yet (0 when none). */
  get partialLength(): number {
    return this.#partialLength;
  }
  /** True once the input has ended (text may still wait to be taken). */
  get ended(): boolean {
    return this.#ended;
  }
  /** The next line without its line ending; at the end of input, the last one without a newline. */
  take(): string | undefined {
    if (this.#next < this.#lines.length) {
      const line = this.#lines[this.#next++]!; // #next < length, checked above
      if (this.#next === this.#lines.length) this.#clearLines();
      return line.endsWith("\r") ? line.slice(0, -1) : line;
    }
    if (!this.#ended || this.#pieces.length === 0) return undefined;
    const last = this.#pieces.join("");
    this.#pieces = [];
    this.#partialLength = 0;
    return last;
  }
  /** All the text not taken yet, as it came (line endings included); "" when there is none. */
  takeText(): string {
    let text = "";
    if (this.#next < this.#lines.length) text = this.#lines.slice(this.#next).join("\n") + "\n";
    this.#clearLines();
    if (this.#pieces.length > 0) text += this.#pieces.join("");
    this.#pieces = [];
    this.#partialLength = 0;
    return text;
  }
  #clearLines(): void {
    this.#lines = [];
    this.#next = 0;
  }
}
