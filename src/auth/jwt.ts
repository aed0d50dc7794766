// Compact JWS signing with WebCrypto (ES256, RS256), key import from PEM and JWK, and the JWK
// thumbprint — RFC 7515 (JWS compact serialization), RFC 7518 section 3 (algorithms), RFC 7519 (JWT),
// RFC 7638 (thumbprint). Used by private_key_jwt client authentication, JWT grants and DPoP proofs.

import { messageOf } from "../common/error-text.ts";
import { McpwireError, type McpwireErrorOptions } from "../common/mcpwire-error.ts";
import { base64Encode, base64UrlDecode, base64UrlDecodeText, base64UrlEncode } from "./base64url.ts";

/** The signing algorithms we implement: the ones the MCP authorization extensions use. */
export type JwsAlgorithm = "ES256" | "RS256";

export const JWS_ALGORITHMS: readonly JwsAlgorithm[] = ["ES256", "RS256"];

export type JsonObject = Record<string, unknown>;

/** A key could not be read or does not fit the algorithm; the message says what to give instead. */
export class JwtKeyError extends McpwireError<"invalid-key"> {
  override readonly name = "JwtKeyError";
  /** Code "invalid-key", its only one. */
  constructor(message: string, options?: McpwireErrorOptions) {
    super(message, "invalid-key", options);
  }
}

/** A compact JWT split into its parts, not verified. */
export interface DecodedJwt {
  header: JsonObject;
  payload: JsonObject;
  signature: Uint8Array;
  /** `base64url(header).base64url(payload)`: the bytes the signature covers. */
  signingInput: string;
}

const encoder = new TextEncoder();

/** WebCrypto's import parameters for an algorithm (RFC 7518 section 3.1). */
export function importParams(algorithm: JwsAlgorithm): EcKeyImportParams | RsaHashedImportParams {
  return algorithm === "ES256" ? { name: "ECDSA", namedCurve: "P-256" } : { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" };
}

/** WebCrypto's sign/verify parameters for an algorithm. */
export function signParams(algorithm: JwsAlgorithm): EcdsaParams | AlgorithmIdentifier {
  // RFC 7518 3.4: the ES256 signature is R || S, 32 bytes each — what WebCrypto's ECDSA returns.
  return algorithm === "ES256" ? { name: "ECDSA", hash: "SHA-256" } : { name: "RSASSA-PKCS1-v1_5" };
}

/** Generates a key pair for `algorithm`; the public key is extractable, the private one only when asked. */
export async function generateSigningKeyPair(algorithm: JwsAlgorithm = "ES256", extractable = false): Promise<CryptoKeyPair> {
  const params = algorithm === "ES256"
    ? { name: "ECDSA", namedCurve: "P-256" }
    : { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) };
  const pair = await crypto.subtle.generateKey(params, extractable, ["sign", "verify"]);
  return pair as CryptoKeyPair;
}

/** Signs a JWT: `alg` is set in the header from `algorithm`; returns `header.payload.signature`. */
export async function signJwt(
  header: JsonObject,
  payload: JsonObject,
  privateKey: CryptoKey,
  algorithm: JwsAlgorithm,
): Promise<string> {
  checkKeyFits(privateKey, algorithm, "sign");
  const signingInput = `${base64UrlEncode(JSON.stringify({ ...header, alg: algorithm }))}.${base64UrlEncode(JSON.stringify(payload))}`;
  const signature = await crypto.subtle.sign(signParams(algorithm), privateKey, encoder.encode(signingInput));
  return `${signingInput}.${base64UrlEncode(new Uint8Array(signature))}`;
}

/** Splits a compact JWT into header, payload and signature without checking the signature. */
export function decodeJwt(token: string): DecodedJwt {
  const parts = token.split(".");
  if (parts.length !== 3) throw new TypeError(`not a compact JWT: ${parts.length} parts instead of 3`);
  const [h, p, s] = parts as [string, string, string];
  const header = parseObject(base64UrlDecodeText(h), "header");
  const payload = parseObject(base64UrlDecodeText(p), "payload");
  return { header, payload, signature: base64UrlDecode(s), signingInput: `${h}.${p}` };
}

/** Checks a compact JWS signature with a public key; returns the decoded token when it verifies. */
export async function verifyJwt(token: string, publicKey: CryptoKey): Promise<DecodedJwt | undefined> {
  const decoded = decodeJwt(token);
  const alg = decoded.header.alg;
  if (alg !== "ES256" && alg !== "RS256") return undefined;
  checkKeyFits(publicKey, alg, "verify");
  const ok = await crypto.subtle.verify(
    signParams(alg),
    publicKey,
    decoded.signature as Uint8Array<ArrayBuffer>,
    encoder.encode(decoded.signingInput),
  );
  return ok ? decoded : undefined;
}

/**
 * Imports a private signing key from a PEM PKCS#8 block (`-----BEGIN PRIVATE KEY-----`), a JWK
 * object, or a JWK as JSON text. SEC1 (`BEGIN EC PRIVATE KEY`) and PKCS#1 (`BEGIN RSA PRIVATE KEY`)
 * PEM are refused with the openssl command that converts them: WebCrypto reads only PKCS#8.
 */
export async function importPrivateKey(key: string | JsonWebKey, algorithm: JwsAlgorithm): Promise<CryptoKey> {
  const jwk = asJwk(key);
  try {
    if (jwk) {
      if (jwk.d === undefined) throw new JwtKeyError('the JWK has no private part ("d"); give the private key');
      return await crypto.subtle.importKey("jwk", stripJwk(jwk), importParams(algorithm), false, ["sign"]);
    }
    const der = pemBody(key as string, "PRIVATE KEY");
    return await crypto.subtle.importKey("pkcs8", der, importParams(algorithm), false, ["sign"]);
  } catch (error) {
    if (error instanceof JwtKeyError) throw error;
    throw new JwtKeyError(
      `private key: could not import it as an ${algorithm} key (${messageOf(error)}); ` +
        `give a PKCS#8 PEM or a JWK of a ${algorithm === "ES256" ? "P-256 EC" : "RSA"} key`,
      { cause: error },
    );
  }
}

/** Imports a public verification key from a PEM SPKI block (`-----BEGIN PUBLIC KEY-----`) or a JWK. */
export async function importPublicKey(key: string | JsonWebKey, algorithm: JwsAlgorithm): Promise<CryptoKey> {
  const jwk = asJwk(key);
  try {
    if (jwk) {
      const { d: _private, ...publicPart } = stripJwk(jwk);
      return await crypto.subtle.importKey("jwk", publicPart, importParams(algorithm), true, ["verify"]);
    }
    return await crypto.subtle.importKey(
      "spki",
      pemBody(key as string, "PUBLIC KEY"),
      importParams(algorithm),
      true,
      ["verify"],
    );
  } catch (error) {
    if (error instanceof JwtKeyError) throw error;
    throw new JwtKeyError(`public key: could not import it as an ${algorithm} key (${messageOf(error)})`, { cause: error });
  }
}

/** The public members of a public key's JWK (kty, crv, x, y or n, e): what a JWS header's `jwk` carries. */
export async function publicJwk(publicKey: CryptoKey): Promise<JsonWebKey> {
  const full = await crypto.subtle.exportKey("jwk", publicKey);
  return full.kty === "EC" ? { kty: "EC", crv: full.crv, x: full.x, y: full.y } : { kty: "RSA", n: full.n, e: full.e };
}

/** RFC 7638 JWK SHA-256 thumbprint, base64url: the required members in lexicographic order. */
export async function jwkThumbprint(jwk: JsonWebKey): Promise<string> {
  const members = jwk.kty === "EC" ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y } : { e: jwk.e, kty: jwk.kty, n: jwk.n };
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(JSON.stringify(members)));
  return base64UrlEncode(new Uint8Array(digest));
}

/** PEM text (a DER buffer, base64) wrapped in BEGIN/END lines of `label`. */
export function pemEncode(der: ArrayBuffer | Uint8Array, label: string): string {
  const body = base64Encode(der instanceof Uint8Array ? der : new Uint8Array(der)).replace(/.{64}/g, "$&\n");
  return `-----BEGIN ${label}-----\n${body.endsWith("\n") ? body : `${body}\n`}-----END ${label}-----\n`;
}

function pemBody(pem: string, label: "PRIVATE KEY" | "PUBLIC KEY"): Uint8Array<ArrayBuffer> {
  const found = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/.exec(pem);
  if (!found) throw new JwtKeyError(`key: not a PEM block (no "-----BEGIN ${label}-----" line)`);
  const kind = found[1]!;
  if (kind === "EC PRIVATE KEY" || kind === "RSA PRIVATE KEY") {
    throw new JwtKeyError(
      `key: a "${kind}" PEM is not PKCS#8, which is all WebCrypto reads; convert it with ` +
        "`openssl pkcs8 -topk8 -nocrypt -in key.pem -out key.pkcs8.pem`",
    );
  }
  if (kind !== label) throw new JwtKeyError(`key: a "${kind}" PEM block where a "${label}" was expected`);
  const bytes = base64UrlDecode(found[2]!.replace(/\s+/g, "").replace(/\+/g, "-").replace(/\//g, "_"));
  return new Uint8Array(bytes);
}

function asJwk(key: string | JsonWebKey): JsonWebKey | undefined {
  if (typeof key !== "string") return key;
  const text = key.trim();
  if (!text.startsWith("{")) return undefined;
  try {
    return JSON.parse(text) as JsonWebKey;
  } catch (error) {
    throw new JwtKeyError(`key: looks like a JWK but is not valid JSON (${messageOf(error)})`, { cause: error });
  }
}

/** Drops members WebCrypto may refuse on import (key_ops that do not match, alg of another name). */
function stripJwk(jwk: JsonWebKey): JsonWebKey {
  const { key_ops: _ops, use: _use, alg: _alg, ext: _ext, ...rest } = jwk;
  return rest;
}

function checkKeyFits(key: CryptoKey, algorithm: JwsAlgorithm, use: "sign" | "verify"): void {
  const expected = algorithm === "ES256" ? "ECDSA" : "RSASSA-PKCS1-v1_5";
  if (key.algorithm.name !== expected) {
    throw new JwtKeyError(`${use}: the key is a ${key.algorithm.name} key, but ${algorithm} needs ${expected}`);
  }
  if (algorithm === "ES256" && (key.algorithm as EcKeyAlgorithm).namedCurve !== "P-256") {
    throw new JwtKeyError(`${use}: ES256 needs a P-256 key, not ${(key.algorithm as EcKeyAlgorithm).namedCurve}`);
  }
}

function parseObject(text: string, part: string): JsonObject {
  const value: unknown = JSON.parse(text);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new TypeError(`JWT ${part} is not a JSON object`);
  }
  return value as JsonObject;
}
