// The one base of every error mcpwire raises. A caller branches on `code`, one of a union of
// named string values (each layer has its union, listed in the README's error table), never on
// the message text or the class alone. Every subclass is built the same way:
//   new SomeError(message, code, { cause, ...what this error carries })
// (the code is left out only where a class has a single one), and keeps `cause`.

/** The options every mcpwire error takes: the error that caused it, kept as `cause`. */
export interface McpwireErrorOptions {
  cause?: unknown;
}

/** The base class of every mcpwire error: `code` says why, as one of the named values `C`. */
export class McpwireError<C extends string = string> extends Error {
  override readonly name: string = "McpwireError";
  /** Why, as a named value a caller can test (`"connection-closed"`, `"timeout"`, …). */
  readonly code: C;

  constructor(message: string, code: C, options?: McpwireErrorOptions) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }
}
