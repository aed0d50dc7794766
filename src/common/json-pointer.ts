// JSON Pointer (RFC 6901) reference tokens: a key written as one step of a pointer, and a step
// read back as its key. A server's keys may hold "/" and "~"; a pointer into its message names
// them escaped.

import { isObject } from "./json.ts";

/** A key as a JSON Pointer reference token (RFC 6901 section 3): "~" as "~0", "/" as "~1". */
export function pointerToken(key: string | number): string {
  return String(key).replaceAll("~", "~0").replaceAll("/", "~1");
}

/** A JSON Pointer reference token as the key it names (RFC 6901 section 4): "~1" as "/", then "~0" as "~". */
export function pointerKey(token: string): string {
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}

/**
 * What a same-document reference names (`#`, `#/$defs/Item`: a JSON Pointer in a URI fragment,
 * RFC 6901 section 6), walked through objects, each step percent-decoded then unescaped;
 * undefined when it names nothing there or is not of that form.
 */
export function fragmentTarget(root: unknown, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let at: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const key = pointerKey(decodeURIComponent(raw));
    if (!isObject(at) || !Object.hasOwn(at, key)) return undefined;
    at = at[key];
  }
  return at;
}
