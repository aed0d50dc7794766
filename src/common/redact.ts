// Keeps credentials out of traces, logs, events and error messages: the secrets in play (configured
// header values, tokens, the env values a config names) and whatever looks like one (header values,
// form and JSON fields, query parameters, `Bearer …`, JWTs, api-key fields) are replaced — spec
// 2025-11-25 basic/authorization ("Token Theft": tokens must not leak), OAuth 2.1 section 7.

import { setOwn } from "./json.ts";

/** What a secret is replaced with. */
export const REDACTED = "[redacted]";

/** Headers whose values are credentials (names lowercased). */
const SECRET_HEADERS = new Set(["authorization", "proxy-authorization", "dpop", "cookie", "set-cookie", "x-api-key"]);

/** OAuth parameters and JSON members that carry a credential or a one-time grant. */
const SECRET_FIELDS = [
  "access_token",
  "refresh_token",
  "id_token",
  "client_secret",
  "client_assertion",
  "assertion",
  "subject_token",
  "actor_token",
  "code",
  "code_verifier",
  "private_key",
  "private_key_pem",
  "password",
];
const FIELD_ALTERNATIVES = SECRET_FIELDS.join("|");

/** `"access_token": "…"` in JSON (names also in camelCase: accessToken, refreshToken, …). */
const JSON_FIELD = new RegExp(
  `("(?:${FIELD_ALTERNATIVES}|accessToken|refreshToken|idToken|clientSecret)"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`,
  "g",
);
/** `access_token=…` in a form body or query string. */
const FORM_FIELD = new RegExp(`(^|[?&\\s])(${FIELD_ALTERNATIVES})=[^&\\s#"']*`, "g");
/**
 * `Bearer abc…`, `DPoP abc…`, `Basic abc…` anywhere in text (a header line, a message); not a
 * challenge's auth-param (`Bearer resource_metadata="…"`), and not a short word of prose.
 */
const SCHEME_VALUE = /\b(Bearer|DPoP|Basic)\s+(?![A-Za-z0-9_-]+=(?:"|[A-Za-z0-9]))[A-Za-z0-9\-._~+/]{8,}=*/g;
/**
 * An api-key-like field in JSON (`"x-api-key": "…"`, `"apiKey": "…"`, `"token": "…"`,
 * `"authorization": "…"`), whatever the case. The name's parts around the keyword are bounded
 * ({0,64}): unbounded, a long run of word characters (`a.a.a…`, `tokentoken…`) in server text
 * made each match attempt scan the rest of the run — quadratic, a minute for 200 KB.
 */
const KEY_JSON_FIELD = /("(?:[\w.-]{0,64}(?:api[-_]?key|apikey|secret|token|password|passwd|authorization|credential)[\w.-]{0,64})"\s*:\s*)"(?:[^"\\]|\\.)*"/gi;
/**
 * The same as a header line or an assignment in text: `X-Api-Key: …`, `api_key=…`, `token: …`.
 * The name starts where a run of name characters starts (the lookbehind), so a run is tried once,
 * not once per character.
 */
const KEY_TEXT_FIELD =
  /((?<![\w.-])[\w.-]{0,64}(?:api[-_]?key|apikey|secret|token|password|passwd)[\w.-]{0,64}\s*[:=]\s*)(?!\[redacted\])["']?[^\s"',;&}]{8,}["']?/gi;
/** Field names that talk about a credential rather than hold one (`token_type`, `api_key_url`, `max_tokens`). */
const DESCRIBES_A_KEY = /(?:type|types|count|url|uri|endpoint|expires_in|expiry|limit|name|names|id|hint|header|s|_in)$/i;
/**
 * A compact JWS/JWT: three base64url parts, the first a JSON header (`eyJ`). It starts where a
 * run of base64url characters starts (the lookbehind; `\b` also matched after each `-`, and
 * `eyJ-eyJ-…` then cost a scan of the rest of the run per `eyJ`: quadratic).
 */
const JWT = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;

/**
 * A copy of the headers with each credential's value replaced: the scheme is kept
 * (`Authorization: Bearer [redacted]`), so a trace still shows what kind of credential went.
 */
export function redactHeaders(headers: Headers | Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  for (const [name, value] of entries) setOwn(out, name, redactHeaderValue(name, value));
  return out;
}

/** One header's value, redacted when the header carries a credential. */
export function redactHeaderValue(name: string, value: string): string {
  if (!SECRET_HEADERS.has(name.toLowerCase())) return value;
  const scheme = /^([A-Za-z][A-Za-z0-9-]*)\s+\S/.exec(value);
  return scheme && name.toLowerCase().endsWith("authorization") ? `${scheme[1]} ${REDACTED}` : REDACTED;
}

/**
 * Text with credentials replaced: every string in `secrets` (the tokens and secrets we hold),
 * and whatever looks like one — JSON members and form fields named like access_token, `Bearer …`
 * values, JWTs.
 */
export function redactText(text: string, secrets: Iterable<string | undefined> = []): string {
  let out = text;
  for (const secret of secrets) {
    // Very short values would blank out ordinary words; real tokens and secrets are longer.
    if (secret !== undefined && secret.length >= 8) out = out.split(secret).join(REDACTED);
  }
  return out
    .replace(JSON_FIELD, `$1"${REDACTED}"`)
    .replace(FORM_FIELD, `$1$2=${REDACTED}`)
    .replace(SCHEME_VALUE, `$1 ${REDACTED}`)
    .replace(JWT, REDACTED)
    .replace(KEY_JSON_FIELD, (field, name: string) => (DESCRIBES_A_KEY.test(name.replace(/[\s:="]+$/, "")) ? field : `${name}"${REDACTED}"`))
    .replace(KEY_TEXT_FIELD, (field, name: string) => (DESCRIBES_A_KEY.test(name.replace(/[\s:="]+$/, "")) ? field : `${name}${REDACTED}`));
}

/**
 * The secrets in play for one host or one connection — configured header values, tokens as they
 * are obtained, the env values a config names — and one `redact()` every output goes through.
 * Secrets shorter than 8 characters are not matched as text (they would blank out ordinary words);
 * the shapes redactText knows still apply to them.
 */
export class Redactor {
  readonly #secrets = new Set<string>();

  constructor(secrets: Iterable<string | undefined> = []) {
    for (const secret of secrets) this.add(secret);
  }

  /** Adds a secret to replace wherever it appears (the longest are replaced first). */
  add(secret: string | undefined): void {
    if (secret === undefined || secret.length < 8) return;
    this.#secrets.add(secret);
    // A header value `Bearer abc…` is also known by its credential alone.
    const scheme = /^[A-Za-z][A-Za-z0-9-]*\s+(\S{8,})$/.exec(secret);
    if (scheme?.[1] !== undefined) this.#secrets.add(scheme[1]);
  }

  /** Adds every value of a header map whose value could be a credential (all of them: any header can carry one). */
  addHeaders(headers: Record<string, string> | undefined): void {
    for (const value of Object.values(headers ?? {})) this.add(value);
  }

  get size(): number {
    return this.#secrets.size;
  }

  /** `text` with every known secret and every credential-shaped value replaced. */
  redact(text: string): string {
    return redactText(text, [...this.#secrets].sort((a, b) => b.length - a.length));
  }
}

/** A URL with credential-bearing query parameters (code, access_token, …) replaced. */
export function redactUrl(url: string | URL): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return redactText(String(url));
  }
  for (const name of [...parsed.searchParams.keys()]) {
    if (SECRET_FIELDS.includes(name)) parsed.searchParams.set(name, REDACTED);
  }
  if (parsed.password) parsed.password = REDACTED;
  return parsed.href;
}
