// A user name and password in an HTTP server's URL (`http://user:password@host/mcp`) as what the
// user meant by them: HTTP Basic credentials (RFC 7617), sent in an Authorization header and
// kept out of every message. The URL itself goes without them: RFC 3986 3.2.1 deprecates
// `user:password` in a URI (a password in clear text wherever the URL is shown), and the Fetch
// standard refuses a request URL that includes credentials. As curl and git take such a URL.

import { httpUrl, showUrl } from "./http-errors.ts";
import { TransportError } from "./transport.ts";

/** Where an HTTP transport sends its requests, and what goes with each. */
export interface HttpEndpoint {
  /** The URL, without user name or password. */
  url: URL;
  /** The configured headers, plus `Authorization: Basic …` when the URL held credentials. */
  headers: Record<string, string>;
  /** What the URL's credentials put in play (the password, the Basic value): to keep out of every message. */
  secrets: string[];
}

/**
 * The endpoint of `url` (http:// or https:// only; `kind` names the transport in errors, as its
 * description does): its userinfo moved into an `Authorization: Basic` header. A URL with
 * credentials and a configured Authorization header too is refused: which one was meant is not ours to guess.
 */
export function httpEndpoint(url: string | URL, headers: Record<string, string> | undefined, kind: string): HttpEndpoint {
  const parsed = httpUrl(url, kind);
  const configured = { ...headers };
  if (parsed.username === "" && parsed.password === "") return { url: parsed, headers: configured, secrets: [] };
  const user = decoded(parsed.username);
  const password = decoded(parsed.password);
  parsed.username = "";
  parsed.password = "";
  if (Object.keys(configured).some((name) => name.toLowerCase() === "authorization")) {
    throw new TransportError(
      `${kind} "${showUrl(parsed)}": the URL has a user name and password before the host, and the headers an Authorization ` +
        "header too; keep one (the URL's credentials are sent as Authorization: Basic)",
      "bad-url",
    );
  }
  // RFC 7617 2: user-id ":" password, base64 of its UTF-8 bytes (2.1: the charset clients use).
  const basic = `Basic ${base64(new TextEncoder().encode(`${user}:${password}`))}`;
  // A URL with a user name alone (`https://TOKEN@host`): the name is the credential.
  const secrets = [basic, password !== "" ? password : user];
  return { url: parsed, headers: { ...configured, Authorization: basic }, secrets };
}

/** A percent-encoded userinfo part as the user meant it; as written when its encoding is broken. */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

function base64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
