// PKCE (RFC 7636) with the S256 method only, by WebCrypto — spec 2025-11-25 basic/authorization
// ("Authorization Code Protection"): MCP clients MUST use PKCE, and S256 when they can.

import { base64UrlEncode } from "./base64url.ts";

export interface PkcePair {
  /** 43 characters of the unreserved set (RFC 7636 4.1), kept secret until the token request. */
  verifier: string;
  /** BASE64URL(SHA-256(verifier)) (RFC 7636 4.2), sent on the authorization request. */
  challenge: string;
  method: "S256";
}

/** Random bytes as base64url: `bytes` of entropy, 4/3 as many characters. */
export function randomToken(bytes = 32): string {
  const buffer = new Uint8Array(bytes);
  crypto.getRandomValues(buffer);
  return base64UrlEncode(buffer);
}

/** The S256 challenge of a verifier. */
export async function s256Challenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return base64UrlEncode(new Uint8Array(digest));
}

/**
 * A fresh verifier and its challenge. 32 random bytes give the 43-character verifier RFC 7636
 * 4.1 recommends (256 bits); base64url's alphabet lies inside the unreserved characters.
 */
export async function createPkce(): Promise<PkcePair> {
  const verifier = randomToken(32);
  return { verifier, challenge: await s256Challenge(verifier), method: "S256" };
}
