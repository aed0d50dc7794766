// WWW-Authenticate challenge parsing (RFC 9110 section 11.6.1, RFC 6750 section 3, RFC 9728
// section 5.1) — spec 2025-11-25 basic/authorization ("Protected Resource Metadata Discovery").

/** One challenge: its scheme (lowercased) and its auth-params (names lowercased). */
export interface Challenge {
  /** "bearer", "dpop", … (schemes are case-insensitive: RFC 9110 11.1). */
  scheme: string;
  params: Record<string, string>;
  /** A token68 value instead of params ("Basic abc=="), when the challenge had one. */
  token68?: string;
}

/** What an MCP client reads from a 401 or 403 answer. */
export interface ResourceChallenge {
  /** RFC 9728 5.1: where the protected resource metadata is. */
  resourceMetadata?: string;
  /** RFC 6750 3: the scopes the resource wants, space-separated. */
  scope?: string;
  /** RFC 6750 3.1: "invalid_token", "insufficient_scope", … */
  error?: string;
  errorDescription?: string;
  /** The scheme of the challenge these came from ("bearer" or "dpop"). */
  scheme?: string;
}

const PARAM = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+)\s*=\s*(.*)$/s;
const SCHEME = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+)(?:[ \t]+(.*))?$/s;
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;

/** Splits at the commas outside quoted strings. */
function splitItems(header: string): string[] {
  const items: string[] = [];
  let current = "";
  let quoted = false;
  for (let i = 0; i < header.length; i++) {
    const c = header[i]!;
    if (quoted && c === "\\" && i + 1 < header.length) {
      current += c + header[++i];
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (c === "," && !quoted) {
      items.push(current.trim());
      current = "";
      continue;
    }
    current += c;
  }
  items.push(current.trim());
  return items.filter((item) => item !== "");
}

function unquote(value: string): string {
  const v = value.trim();
  if (!v.startsWith('"')) return v;
  let out = "";
  for (let i = 1; i < v.length; i++) {
    const c = v[i]!;
    if (c === "\\" && i + 1 < v.length) {
      out += v[++i];
      continue;
    }
    if (c === '"') break;
    out += c;
  }
  return out;
}

/**
 * Parses a WWW-Authenticate field value into its challenges. A header may hold several,
 * comma-separated (`Bearer realm="a", DPoP algs="ES256"`), and a challenge's parameters are
 * comma-separated too: an item `name=value` belongs to the challenge before it, an item
 * starting with a bare token starts a new one. Quoted strings may hold commas and backslash
 * escapes. Malformed pieces are skipped, never thrown: a server's odd header must not stop
 * the client from trying the well-known URLs instead.
 */
export function parseWwwAuthenticate(header: string): Challenge[] {
  const challenges: Challenge[] = [];
  let current: Challenge | undefined;
  for (const item of splitItems(header)) {
    const param = PARAM.exec(item);
    if (param !== null && current !== undefined) {
      current.params[param[1]!.toLowerCase()] = unquote(param[2]!);
      continue;
    }
    const scheme = SCHEME.exec(item);
    if (scheme === null) continue; // a parameter before any scheme, or garbage
    current = { scheme: scheme[1]!.toLowerCase(), params: {} };
    challenges.push(current);
    const rest = scheme[2]?.trim();
    if (rest === undefined || rest === "") continue;
    if (TOKEN68.test(rest) && !PARAM.test(rest.replace(/=+$/, "")) && (rest.endsWith("=") || !rest.includes("="))) {
      current.token68 = rest;
      continue;
    }
    const first = PARAM.exec(rest);
    if (first !== null) current.params[first[1]!.toLowerCase()] = unquote(first[2]!);
  }
  return challenges;
}

/**
 * The parameters an MCP client acts on, from the Bearer (or DPoP) challenge of a 401/403
 * answer's WWW-Authenticate headers. `headers.get` joins repeated fields with ", ", which
 * the parser splits again.
 */
export function readResourceChallenge(headers: Headers): ResourceChallenge {
  const value = headers.get("www-authenticate");
  if (value === null) return {};
  const challenges = parseWwwAuthenticate(value);
  const chosen = challenges.find((c) => c.scheme === "bearer") ?? challenges.find((c) => c.scheme === "dpop") ??
    challenges.find((c) => "resource_metadata" in c.params);
  if (chosen === undefined) return {};
  const result: ResourceChallenge = { scheme: chosen.scheme };
  // spec 2025-11-25 basic/authorization: resource_metadata in the challenge is used first
  const fromAny = chosen.params.resource_metadata ?? challenges.find((c) => "resource_metadata" in c.params)?.params.resource_metadata;
  if (fromAny !== undefined) result.resourceMetadata = fromAny;
  if (chosen.params.scope !== undefined) result.scope = chosen.params.scope;
  if (chosen.params.error !== undefined) result.error = chosen.params.error;
  if (chosen.params.error_description !== undefined) result.errorDescription = chosen.params.error_description;
  return result;
}

/**
 * True when the answer's WWW-Authenticate names challenges and none of them is OAuth's: no
 * Bearer, no DPoP, no resource_metadata (a server that wants Basic or Digest credentials). No
 * header at all is not such an answer: a server may leave it out and still be OAuth-protected
 * (discovery then starts from the well-known URLs).
 */
export function offersOnlyOtherSchemes(headers: Headers): boolean {
  const value = headers.get("www-authenticate");
  if (value === null) return false;
  const challenges = parseWwwAuthenticate(value);
  return challenges.length > 0 &&
    !challenges.some((c) => c.scheme === "bearer" || c.scheme === "dpop" || "resource_metadata" in c.params);
}
