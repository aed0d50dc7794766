// Whether a string is a URI by RFC 3986's grammar (section 3: scheme ":" hier-part ["?" query]
// ["#" fragment]) — what a resource's `uri` and an icon's `src` must be (spec 2025-11-25 schema:
// `format: "uri"`). The syntax only: no scheme is looked up, nothing is resolved or fetched.

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/;
/** unreserved / sub-delims / ":" / "@" (pchar without pct-encoded, which is matched apart). */
const PCHAR = "A-Za-z0-9\\-._~!$&'()*+,;=:@";
const PATH = new RegExp(`^(?:[${PCHAR}/]|%[0-9A-Fa-f]{2})*$`);
const QUERY = new RegExp(`^(?:[${PCHAR}/?]|%[0-9A-Fa-f]{2})*$`);
const USERINFO = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:]|%[0-9A-Fa-f]{2})*$/;
const REG_NAME = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;
/** IP-literal (RFC 3986 3.2.2): an IPv6 address or an IPvFuture, loosely: the characters they may hold. */
const IP_LITERAL = /^\[(?:[0-9A-Fa-f:.]+|v[0-9A-Fa-f]+\.[A-Za-z0-9\-._~!$&'()*+,;=:]+)\]$/;
const PORT = /^[0-9]*$/;
/** A URI longer than this is not read (a server decides the length). */
const MAX_URI_CHARS = 65_536;

/** The first character of `text` outside `allowed`, said for a message. */
function firstBad(text: string, allowed: RegExp): string {
  for (let at = 0; at < text.length; at++) {
    const char = text.charAt(at);
    if (char === "%") {
      if (!/^%[0-9A-Fa-f]{2}$/.test(text.slice(at, at + 3))) return `a "%" not followed by two hex digits`;
      at += 2;
    } else if (!allowed.test(char)) {
      const code = text.codePointAt(at)!;
      return `the character ${JSON.stringify(String.fromCodePoint(code))} (U+${
        code.toString(16).toUpperCase().padStart(4, "0")
      }), which must be percent-encoded`;
    }
  }
  return "a character RFC 3986 does not allow there";
}

/** Why `authority` (between "//" and the path) is not one: [userinfo "@"] host [":" port]. */
function authorityProblem(authority: string): string | undefined {
  const at = authority.lastIndexOf("@");
  const userinfo = at < 0 ? "" : authority.slice(0, at);
  const hostPort = at < 0 ? authority : authority.slice(at + 1);
  if (!USERINFO.test(userinfo)) return `its user information holds ${firstBad(userinfo, /[A-Za-z0-9\-._~!$&'()*+,;=:]/)}`;
  let host = hostPort;
  let port = "";
  if (hostPort.startsWith("[")) {
    const close = hostPort.indexOf("]");
    host = close < 0 ? hostPort : hostPort.slice(0, close + 1);
    const rest = close < 0 ? "" : hostPort.slice(close + 1);
    if (rest !== "" && !rest.startsWith(":")) return `its host ${JSON.stringify(host)} is followed by ${JSON.stringify(rest)}`;
    port = rest.slice(1);
    if (!IP_LITERAL.test(host)) return `its host ${JSON.stringify(host)} is not an IP literal`;
  } else {
    const colon = hostPort.lastIndexOf(":");
    if (colon >= 0) [host, port] = [hostPort.slice(0, colon), hostPort.slice(colon + 1)];
    if (!REG_NAME.test(host)) return `its host holds ${firstBad(host, /[A-Za-z0-9\-._~!$&'()*+,;=]/)}`;
  }
  if (!PORT.test(port)) return `its port ${JSON.stringify(port)} is not a number`;
  return undefined;
}

/**
 * Why `text` is not a URI (RFC 3986 section 3: an absolute URI, a scheme first, a fragment
 * allowed), said in a few words for a finding, or undefined when it is one. A relative reference
 * (`/a/b`, `b.png`) is not a URI; neither is an IRI's unencoded non-ASCII letter or a space.
 */
export function uriProblem(text: string): string | undefined {
  if (text.length > MAX_URI_CHARS) return `it is longer than ${MAX_URI_CHARS} characters`;
  const colon = text.indexOf(":");
  const scheme = colon < 0 ? "" : text.slice(0, colon);
  if (!SCHEME.test(scheme)) {
    return colon < 0
      ? "it has no scheme (a URI starts with one: `https:`, `file:`)"
      : `its scheme ${JSON.stringify(scheme)} is not a scheme (a letter, then letters, digits, "+", "-", ".")`;
  }
  let rest = text.slice(colon + 1);
  const hash = rest.indexOf("#");
  if (hash >= 0) {
    const fragment = rest.slice(hash + 1);
    if (!QUERY.test(fragment)) return `its fragment holds ${firstBad(fragment, new RegExp(`[${PCHAR}/?]`))}`;
    rest = rest.slice(0, hash);
  }
  const question = rest.indexOf("?");
  if (question >= 0) {
    const query = rest.slice(question + 1);
    if (!QUERY.test(query)) return `its query holds ${firstBad(query, new RegExp(`[${PCHAR}/?]`))}`;
    rest = rest.slice(0, question);
  }
  let path = rest;
  if (rest.startsWith("//")) {
    const slash = rest.indexOf("/", 2);
    const authority = slash < 0 ? rest.slice(2) : rest.slice(2, slash);
    path = slash < 0 ? "" : rest.slice(slash);
    const problem = authorityProblem(authority);
    if (problem !== undefined) return problem;
  }
  if (!PATH.test(path)) return `its path holds ${firstBad(path, new RegExp(`[${PCHAR}/]`))}`;
  return undefined;
}
