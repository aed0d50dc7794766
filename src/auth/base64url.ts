// base64url without padding (RFC 4648 section 5), the encoding of JWS parts, PKCE challenges and
// DPoP thumbprints — RFC 7515 section 2 ("Base64url Encoding"); plus plain base64 for HTTP Basic.

import { preview } from "../common/preview.ts";

const encoder = new TextEncoder();

/** Bytes (or a string, taken as UTF-8) as base64url without `=` padding. */
export function base64UrlEncode(input: Uint8Array | string): string {
  return base64Encode(input).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Decodes base64url (padding optional); throws a TypeError on characters outside the alphabet. */
export function base64UrlDecode(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(text)) {
    throw new TypeError(`not base64url: ${preview(text, 40)}`);
  }
  const standard = text.replace(/=+$/, "").replace(/-/g, "+").replace(/_/g, "/");
  if (standard.length % 4 === 1) throw new TypeError("not base64url: impossible length");
  const binary = atob(standard + "=".repeat((4 - (standard.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Decodes base64url text that holds UTF-8 (a JWT header or payload). */
export function base64UrlDecodeText(text: string): string {
  return new TextDecoder("utf-8", { fatal: true }).decode(base64UrlDecode(text));
}

/** Standard base64 with padding (RFC 4648 section 4), as HTTP Basic credentials use it. */
export function base64Encode(input: Uint8Array | string): string {
  const bytes = typeof input === "string" ? encoder.encode(input) : input;
  let binary = "";
  // In slices, so a large input never overflows the argument list of fromCharCode.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}
