// JSON Pointer (RFC 6901) reference tokens: a key written as one step of a pointer, and a step
// read back as its key. A server's keys may hold "/" and "~"; a pointer into its message names
// them escaped.

/** A key as a JSON Pointer reference token (RFC 6901 section 3): "~" as "~0", "/" as "~1". */
export function pointerToken(key: string | number): string {
  return String(key).replaceAll("~", "~0").replaceAll("/", "~1");
}

/** A JSON Pointer reference token as the key it names (RFC 6901 section 4): "~1" as "/", then "~0" as "~". */
export function pointerKey(token: string): string {
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}
