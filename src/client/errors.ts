// Errors the client raises itself (as opposed to RpcError, which the server sent).

/** A method was called in a state that does not allow it (before connect, after close, …). */
export class ClientStateError extends Error {
  override readonly name = "ClientStateError";
  readonly state: string;
  constructor(message: string, state: string, options?: { cause?: unknown }) {
    super(message, options);
    this.state = state;
  }
}

/** The server answered initialize with a protocol version we do not speak. */
export class ProtocolVersionError extends Error {
  override readonly name = "ProtocolVersionError";
  readonly offered: string;
  readonly received: unknown;
  readonly supported: readonly string[];
  constructor(message: string, offered: string, received: unknown, supported: readonly string[]) {
    super(message);
    this.offered = offered;
    this.received = received;
    this.supported = supported;
  }
}

/** The server did not declare the capability a method needs. */
export class CapabilityError extends Error {
  override readonly name = "CapabilityError";
  readonly capability: string;
  constructor(message: string, capability: string) {
    super(message);
    this.capability = capability;
  }
}

/** The server sent a result that does not have the shape the spec gives it. */
export class ProtocolError extends Error {
  override readonly name = "ProtocolError";
}

/** A tool's structuredContent does not match the outputSchema it listed. */
export class OutputValidationError extends Error {
  override readonly name = "OutputValidationError";
  readonly tool: string;
  /** JSON Pointer of the first failing place in structuredContent ("" is the root). */
  readonly path: string;
  readonly errors: readonly { path: string; message: string }[];
  constructor(message: string, tool: string, errors: readonly { path: string; message: string }[]) {
    super(message);
    this.tool = tool;
    this.path = errors[0]?.path ?? "";
    this.errors = errors;
  }
}
