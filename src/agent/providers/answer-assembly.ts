// What the providers' answer assemblies share: one answer put together from the chunks of a
// stream (SSE events, NDJSON lines) or from one whole JSON body, its text handed to `onText`
// as it comes, then finished into a ChatResponse or a ProviderError saying what was missing.

import type { ChatResponse } from "./types.ts";

export abstract class AnswerAssembly<Chunk> {
  /** The provider's name, for the errors an assembly throws. */
  protected readonly provider: string;
  readonly #onText?: (chunk: string) => void;
  protected model?: string;
  protected stopReason?: string;
  protected usage?: ChatResponse["usage"];

  constructor(provider: string, onText?: (chunk: string) => void) {
    this.provider = provider;
    this.#onText = onText;
  }

  /** Hands a piece of the answer's text to onText as it comes (an empty piece is not handed on). */
  protected streamed(text: string): void {
    if (text !== "") this.#onText?.(text);
  }

  /** Takes in the next chunk: an SSE event's data, an NDJSON line, or a whole JSON body. */
  abstract push(chunk: Chunk): void;

  /** The whole answer; a ProviderError when the stream ended before the API said it was done. */
  abstract finish(): ChatResponse;
}
