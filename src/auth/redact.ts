// Keeps credentials out of traces, logs and error messages: header values, form and JSON fields,
// query parameters and JWT-shaped strings are replaced — spec 2025-11-25 basic/authorization
// ("Token Theft": tokens must not leak), OAuth 2.1 section 7 (security considerations).

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
/** A compact JWS/JWT: three base64url parts, the first a JSON header (`eyJ`). */
const JWT = /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;

/**
 * A copy of the headers with each credential's value replaced: the scheme is kept
 * (`Authorization: Bearer [redacted]`), so a trace still shows what kind of credential went.
 */
export function redactHeaders(headers: Headers | Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  for (const [name, value] of entries) out[name] = redactHeaderValue(name, value);
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
    .replace(JWT, REDACTED);
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
