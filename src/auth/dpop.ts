// DPoP: proofs of possession of a key pair, bound to one HTTP request, and server nonces — RFC 9449
// (sections 4.2 proof syntax, 7.1 the DPoP scheme, 8 and 9 authorization/resource server nonces).

import { base64UrlEncode } from "./base64url.ts";
import { generateSigningKeyPair, importPrivateKey, jwkThumbprint, type JwsAlgorithm, publicJwk, signJwt } from "./jwt.ts";
import { parseWwwAuthenticate } from "./www-authenticate.ts";

export interface DpopProofOptions {
  /** Sent with a protected-resource request: its hash becomes the `ath` claim (RFC 9449 4.2). */
  accessToken?: string;
  /** A server nonce; without it, the last nonce that origin gave us (if any) is used. */
  nonce?: string;
}

/** Holds one DPoP key pair and the nonces servers handed out, and signs proofs. */
export class DpopSigner {
  readonly algorithm: JwsAlgorithm;
  readonly #privateKey: CryptoKey;
  readonly #jwk: JsonWebKey;
  readonly #thumbprint: string;
  /** The last DPoP-Nonce of each origin: an AS and an RS keep nonces of their own (RFC 9449 8, 9). */
  readonly #nonces = new Map<string, string>();

  private constructor(algorithm: JwsAlgorithm, privateKey: CryptoKey, jwk: JsonWebKey, thumbprint: string) {
    this.algorithm = algorithm;
    this.#privateKey = privateKey;
    this.#jwk = jwk;
    this.#thumbprint = thumbprint;
  }

  /** A signer with a fresh key pair (private key not extractable). */
  static async generate(algorithm: JwsAlgorithm = "ES256"): Promise<DpopSigner> {
    return await DpopSigner.fromKeyPair(await generateSigningKeyPair(algorithm), algorithm);
  }

  /**
   * A fresh key pair for a signer that must outlive the process (a token bound to a lost key is
   * useless): the private key as a JWK, to be kept where only the user can read it, and the signer.
   */
  static async generateStorable(algorithm: JwsAlgorithm = "ES256"): Promise<{ signer: DpopSigner; privateJwk: JsonWebKey }> {
    const pair = await generateSigningKeyPair(algorithm, true);
    const privateJwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
    return { signer: await DpopSigner.fromPrivateJwk(privateJwk, algorithm), privateJwk };
  }

  /** A signer over a stored private JWK; the key in memory is not extractable. */
  static async fromPrivateJwk(privateJwk: JsonWebKey, algorithm: JwsAlgorithm): Promise<DpopSigner> {
    const privateKey = await importPrivateKey(privateJwk, algorithm);
    const jwk: JsonWebKey = privateJwk.kty === "EC"
      ? { kty: "EC", crv: privateJwk.crv, x: privateJwk.x, y: privateJwk.y }
      : { kty: "RSA", n: privateJwk.n, e: privateJwk.e };
    return new DpopSigner(algorithm, privateKey, jwk, await jwkThumbprint(jwk));
  }

  /** A signer over an existing key pair (the public key must be extractable, to publish its JWK). */
  static async fromKeyPair(pair: CryptoKeyPair, algorithm: JwsAlgorithm): Promise<DpopSigner> {
    const jwk = await publicJwk(pair.publicKey);
    return new DpopSigner(algorithm, pair.privateKey, jwk, await jwkThumbprint(jwk));
  }

  /** The public key as a JWK (no private members). */
  get publicJwk(): JsonWebKey {
    return { ...this.#jwk };
  }

  /** RFC 7638 thumbprint of the public key: the `jkt` a bound token's `cnf` carries (RFC 9449 6). */
  get thumbprint(): string {
    return this.#thumbprint;
  }

  /** Records a server's DPoP-Nonce for the origin of `url`. */
  rememberNonce(url: string | URL, nonce: string): void {
    this.#nonces.set(new URL(url).origin, nonce);
  }

  /** The nonce last recorded for the origin of `url`. */
  nonceFor(url: string | URL): string | undefined {
    return this.#nonces.get(new URL(url).origin);
  }

  /** Records the DPoP-Nonce header of a response to a request sent to `url`, if it has one. */
  noteResponse(url: string | URL, response: Response): void {
    const nonce = response.headers.get("DPoP-Nonce");
    if (nonce) this.rememberNonce(url, nonce);
  }

  /** A DPoP proof JWT for one request (RFC 9449 4.2). */
  async proof(method: string, url: string | URL, options: DpopProofOptions = {}): Promise<string> {
    const target = new URL(url);
    // spec RFC 9449 4.2: htu is the target URI without query and fragment.
    target.search = "";
    target.hash = "";
    const payload: Record<string, unknown> = {
      jti: crypto.randomUUID(),
      htm: method.toUpperCase(),
      htu: target.href,
      iat: Math.floor(Date.now() / 1000),
    };
    const nonce = options.nonce ?? this.nonceFor(url);
    if (nonce !== undefined) payload.nonce = nonce;
    if (options.accessToken !== undefined) payload.ath = await accessTokenHash(options.accessToken);
    return await signJwt({ typ: "dpop+jwt", jwk: this.#jwk }, payload, this.#privateKey, this.algorithm);
  }
}

/** `ath`: base64url of the SHA-256 of the access token's ASCII bytes (RFC 9449 4.2). */
export async function accessTokenHash(accessToken: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(accessToken));
  return base64UrlEncode(new Uint8Array(digest));
}

/** Whether a 401 is a resource server asking for a DPoP nonce (RFC 9449 9). */
export function isUseDpopNonceChallenge(response: Response): boolean {
  if (response.status !== 401) return false;
  const header = response.headers.get("WWW-Authenticate");
  if (header === null) return false;
  return parseWwwAuthenticate(header).some((challenge) => challenge.scheme === "dpop" && challenge.params.error === "use_dpop_nonce");
}

/** Options of dpopFetch: the signer, the token, and the fetch to use. */
export interface DpopFetchOptions {
  signer: DpopSigner;
  /** The DPoP-bound access token, sent as `Authorization: DPoP <token>` (RFC 9449 7.1). */
  accessToken: string;
  fetch?: typeof fetch;
}

/**
 * Sends a request to a protected resource with a DPoP-bound token and its proof. When the resource
 * server answers 401 `use_dpop_nonce` with a DPoP-Nonce, the request is sent once more with a new
 * proof carrying that nonce (RFC 9449 9); the nonce is remembered for the origin's later requests.
 * A body given as a stream cannot be sent twice: then the 401 is returned as it is.
 */
export async function dpopFetch(
  options: DpopFetchOptions,
  input: string | URL | Request,
  init: RequestInit = {},
): Promise<Response> {
  const doFetch = options.fetch ?? fetch;
  const request = new Request(input, init);
  const resendable = init.body === undefined || init.body === null || !(init.body instanceof ReadableStream);
  const spare = resendable ? request.clone() : undefined;
  const send = async (req: Request): Promise<Response> => {
    const headers = new Headers(req.headers);
    headers.set("Authorization", `DPoP ${options.accessToken}`);
    headers.set("DPoP", await options.signer.proof(req.method, req.url, { accessToken: options.accessToken }));
    const response = await doFetch(new Request(req, { headers }));
    options.signer.noteResponse(req.url, response);
    return response;
  };
  const first = await send(request);
  if (!spare || !isUseDpopNonceChallenge(first) || !first.headers.get("DPoP-Nonce")) return first;
  await first.body?.cancel();
  return await send(spare);
}
