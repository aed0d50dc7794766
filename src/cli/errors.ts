// The CLI's error codes in one union. The classes live with what they are about: UsageError
// (args.ts; a command line mcpwire cannot run, exit 2), CallArgumentsError (call-arguments.ts,
// a UsageError of `mcpwire call`'s arguments), NoModelError (agent-session.ts). The codes are
// here, not beside the classes, so that args.ts and call-arguments.ts import no cycle.

/** What was wrong with the arguments; each is a usage error (exit 2) found before the call. */
export type CallArgumentsErrorCode =
  /** The JSON argument, a `key:=JSON` value or the args file is not JSON. */
  | "not-json"
  /** The JSON (argument or file) is not an object. */
  | "not-object"
  /** A word is neither `key=value` nor one JSON object. */
  | "not-a-pair"
  /** The same key was given twice. */
  | "duplicate-key"
  /** A JSON object and `key=value` words (or an args file) were given together. */
  | "mixed-forms"
  /** A value does not fit the type the schema gives its property. */
  | "type-mismatch"
  /** A property the schema requires was not given. */
  | "missing-required"
  /** A key the schema does not list, where it allows no others (additionalProperties: false). */
  | "unknown-parameter"
  /** The arguments (or one of them) are nested deeper than MAX_ARGUMENTS_DEPTH levels. */
  | "too-deep"
  /** The args file could not be read (missing, a directory, no permission), or stdin was too long. */
  | "args-file";

/** A UsageError's code: "usage" for a command line that cannot run, or what was wrong with `mcpwire call`'s arguments. */
export type UsageErrorCode = "usage" | CallArgumentsErrorCode;

/** Every code of the CLI's errors: a UsageError's (CallArgumentsError's included) or NoModelError's "no-model-configured". */
export type CliErrorCode = UsageErrorCode | "no-model-configured";
