// Roots the client offers a server: absolute paths become file:// URIs — spec 2025-11-25
// client/roots ("Root": the uri MUST be a file:// URI for now).

import type { Root } from "./types.ts";

/** A root as an embedder may give it: a Root, or an absolute path (POSIX or `C:\…`). */
export type RootInput = Root | string;

const WINDOWS_DRIVE = /^[A-Za-z]:[\\/]/;

/** `/home/me/my project` → `file:///home/me/my%20project`; `C:\src` → `file:///C:/src`. */
export function pathToFileUri(path: string): string {
  const windows = WINDOWS_DRIVE.test(path);
  if (!windows && !path.startsWith("/")) {
    throw new TypeError(`root "${path}" is not an absolute path; give an absolute path or a file:// URI`);
  }
  const slashed = windows ? `/${path.replaceAll("\\", "/")}` : path;
  const encoded = slashed.split("/").map((segment, index) => windows && index === 1 ? segment : encodeURIComponent(segment)).join("/");
  return `file://${encoded}`;
}

/** Normalises roots: paths become file:// URIs; anything else that is not file:// throws. */
export function toRoots(inputs: readonly RootInput[]): Root[] {
  return inputs.map((input) => {
    if (typeof input === "string") {
      return input.startsWith("file://") ? { uri: input } : { uri: pathToFileUri(input) };
    }
    if (typeof input?.uri !== "string") throw new TypeError(`a root needs a "uri" (a file:// URI or an absolute path)`);
    if (input.uri.startsWith("file://")) return input;
    return { ...input, uri: pathToFileUri(input.uri) };
  });
}
