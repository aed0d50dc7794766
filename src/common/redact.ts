// Keeps credentials out of traces, logs, events and error messages: the secrets in play (configured
// header values, tokens, the env values a config names) and whatever looks like one (header values,
// form and JSON fields, query parameters, `Bearer …`, JWTs, api-key fields) are replaced — spec
// 2025-11-25 basic/authorization ("Token Theft": tokens must not leak), OAuth 2.1 section 7.

import { boundedJson, type Bounds, DEFAULT_MAX_CHARS, DEFAULT_MAX_DEPTH, depthMarker } from "./bounded.ts";
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
 * The userinfo of a URL in text: `https://user:password@host` (RFC 3986 3.2.1, which deprecates
 * a password there) keeps the user and loses the password; `https://TOKEN@host` (a token as the
 * user name, as git hosts take it) loses the name. The scheme and the userinfo are bounded
 * ({0,31}, {1,256}), so each `://` costs a short scan however long the text.
 */
const URL_USERINFO = /(\b[A-Za-z][A-Za-z0-9+.-]{0,31}:\/\/)([^\s/?#@"'<>\\]{1,256})@/g;

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
    .replace(KEY_TEXT_FIELD, (field, name: string) => (DESCRIBES_A_KEY.test(name.replace(/[\s:="]+$/, "")) ? field : `${name}${REDACTED}`))
    .replace(URL_USERINFO, (_, scheme: string, userinfo: string) => `${scheme}${withoutPassword(userinfo)}@`);
}

/** `user:password` → `user:[redacted]`; a user name alone (often a token) → `[redacted]`. */
function withoutPassword(userinfo: string): string {
  const colon = userinfo.indexOf(":");
  return colon === -1 ? REDACTED : `${userinfo.slice(0, colon)}:${REDACTED}`;
}

/**
 * The secrets in play for one host or one connection — configured header values, tokens as they
 * are obtained, the env values a config names — and one `redact()` every output goes through.
 * Secrets shorter than 8 characters are not matched as text (they would blank out ordinary words);
 * the shapes redactText knows still apply to them.
 */
export class Redactor {
  readonly #secrets = new Set<string>();
  /** The secrets longest first, made once per change (redact runs for every string of a message). */
  #ordered: string[] | undefined;

  constructor(secrets: Iterable<string | undefined> = []) {
    for (const secret of secrets) this.add(secret);
  }

  /** Adds a secret to replace wherever it appears (the longest are replaced first). */
  add(secret: string | undefined): void {
    if (secret === undefined || secret.length < 8) return;
    this.#ordered = undefined;
    this.#secrets.add(secret);
    // Inside JSON text (a server's answer quoting it, a JSON document in a tool's text) a secret
    // with quotes, backslashes or control characters is written escaped: known that way too.
    const escaped = JSON.stringify(secret).slice(1, -1);
    if (escaped !== secret) this.#secrets.add(escaped);
    // A header value `Bearer abc…` is also known by its credential alone.
    const scheme = /^[A-Za-z][A-Za-z0-9-]*\s+(\S{8,})$/.exec(secret);
    if (scheme?.[1] !== undefined) this.add(scheme[1]);
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
    this.#ordered ??= [...this.#secrets].sort((a, b) => b.length - a.length);
    return redactText(text, this.#ordered);
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
  // RFC 3986 3.2.1: a password in a URL is deprecated, and a user name alone may be a token.
  if (parsed.password) parsed.password = REDACTED;
  else if (parsed.username) parsed.username = REDACTED;
  return parsed.href;
}

/** A string JSON text shows otherwise than itself (quotes, backslashes, control characters escaped). */
const ESCAPED_IN_JSON = /["\\\u0000-\u001f]/;
/**
 * How many characters past its bound redactedJson reads and redacts before it cuts, so a
 * credential that straddles the cut is found whole (and not shown in part).
 */
export const REDACT_SLACK_CHARS = 8192;

/** Server data as JSON text, redacted and bounded (redactedJson). */
export interface RedactedJson {
  /** The JSON text: redacted, at most `maxChars` characters and then `… [cut: more than N characters]`. */
  text: string;
  /** The text was cut: it is not the whole value (and not valid JSON). */
  cut: boolean;
  /** Something was replaced (a credential, a value nested too deep): the text is not the value's own JSON. */
  changed: boolean;
}

/**
 * Server data as JSON text with every credential replaced, as each of its strings shows it
 * on its own: a string JSON escapes (a JSON document in a tool's text, with its quotes
 * written `\"`) is redacted as itself first, so `{"api_key": "…"}` inside a text is found here
 * as it is on a terminal; then the text as a whole. Bounded in depth and size like boundedJson
 * (`bounds`; `indent` pretty-prints), and so is the redaction's cost: nothing past `maxChars`
 * and REDACT_SLACK_CHARS is read, so a 50 MB string costs what its first characters cost.
 */
export function redactedJson(value: unknown, redact: (text: string) => string, bounds: Bounds & { indent?: number } = {}): RedactedJson {
  const max = bounds.maxChars ?? DEFAULT_MAX_CHARS;
  const maxDepth = bounds.maxDepth ?? DEFAULT_MAX_DEPTH;
  const budget = max + REDACT_SLACK_CHARS;
  let left = budget;
  let changed = false;
  const seen = new Set<object>();
  // The copy is at most maxDepth levels deep; past the budget the rest is left out (the text is cut there anyway).
  const walk = (item: unknown, depth: number): unknown => {
    if (typeof item === "string") {
      const kept = item.length > left ? item.slice(0, Math.max(0, left)) : item;
      left -= kept.length + 2;
      if (!ESCAPED_IN_JSON.test(kept)) return kept;
      const clean = redact(kept);
      if (clean !== kept) changed = true;
      return clean;
    }
    if (item === null || typeof item !== "object") {
      left -= 1; // the estimates are lower bounds of the JSON's length: `left <= 0` means the text is over the budget
      return item;
    }
    if (depth >= maxDepth) {
      changed = true;
      return depthMarker(maxDepth);
    }
    if (seen.has(item)) {
      changed = true;
      return "[cycle]";
    }
    seen.add(item);
    let out: unknown;
    if (Array.isArray(item)) {
      const copy: unknown[] = [];
      for (const member of item) {
        if (left <= 0) break;
        copy.push(walk(member, depth + 1));
      }
      out = copy;
    } else {
      const copy: Record<string, unknown> = {};
      for (const key of Object.keys(item)) {
        if (left <= 0) break;
        left -= key.length + 3;
        setOwn(copy, key, walk((item as Record<string, unknown>)[key], depth + 1));
      }
      out = copy;
    }
    seen.delete(item);
    return out;
  };
  const raw = boundedJson(walk(value, 0), { maxDepth, maxChars: budget, indent: bounds.indent ?? 0 });
  const clean = redact(raw);
  if (clean !== raw) changed = true;
  // Over the budget (raw was cut, or the walk stopped early) or over maxChars once redacted: cut at maxChars.
  const cut = left <= 0 || raw.length > budget || clean.length > max;
  return { text: cut ? `${clean.slice(0, max)}… [cut: more than ${max} characters]` : clean, cut, changed: changed || cut };
}
