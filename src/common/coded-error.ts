// The base of every error that says why with a discriminant: `code`, one of a union of named
// values a caller branches on (never a free string to match). Message, cause and code are set
// here once; a subclass adds its name and whatever else it carries.

/** An error whose `code` says why, as one of the named values `C`. */
export class CodedError<C extends string> extends Error {
  readonly code: C;

  constructor(message: string, code: C, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
