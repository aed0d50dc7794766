// The text of a thrown value, whatever was thrown: an Error's message, anything else as a string.

/** The thrown value as an Error: itself when it is one, else an Error carrying its text. */
export function errorOf(value: unknown): Error {
  return value instanceof Error ? value : new Error(messageOf(value));
}

/** `error.message` for an Error, `String(value)` for anything else (never throws). */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  try {
    return String(error);
  } catch {
    return Object.prototype.toString.call(error);
  }
}
