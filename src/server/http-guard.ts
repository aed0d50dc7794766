// The checks every request to an HTTP front passes before anything reads its body: the Host
// header and the Origin header against DNS rebinding (spec 2025-11-25 basic/transports, "Security
// Warning": servers MUST validate Origin, 403 when present and invalid; spec 2026-07-28
// streamable-http, "Security & Endpoint"), then a bearer token (RFC 6750: 401 with
// WWW-Authenticate when it is missing or wrong), compared in constant time, never echoed. Host and
// Origin are checked with the token off too: a token does not stop a page that rebinds a name.

import { checkOptions, optionNames } from "../common/options.ts";

/** What an HTTP front lets through besides loopback callers. */
export interface HttpGuardOptions {
  /** The bearer token every request must carry (`Authorization: Bearer …`); undefined: no token asked for. */
  token?: string;
  /** The address the listener is bound to: its name is an accepted Host (a wildcard, 0.0.0.0 or ::, accepts any IP address). */
  boundHost?: string;
  /** Host names accepted besides loopback ones and the bound one (no port: `mcp.example.com`). */
  allowedHosts?: readonly string[];
  /** Origins accepted besides loopback ones, as browsers send them (`https://app.example.com`); `"*"` accepts any. */
  allowedOrigins?: readonly string[];
  /** Said in a 401 after what went wrong: where the token comes from (never the token). */
  tokenHint?: string;
}

const GUARD_OPTIONS = optionNames<HttpGuardOptions>({ token: true, boundHost: true, allowedHosts: true, allowedOrigins: true, tokenHint: true });

/** Names that always mean this machine. */
const LOOPBACK_NAMES: ReadonlySet<string> = new Set(["localhost", "127.0.0.1", "::1"]);
const WILDCARDS: ReadonlySet<string> = new Set(["0.0.0.0", "::", ""]);
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** A host name as compared: lower case, without brackets or a trailing dot. */
function normalHost(name: string): string {
  return name.toLowerCase().replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "");
}

function isLoopback(name: string): boolean {
  return LOOPBACK_NAMES.has(name) || name.endsWith(".localhost") || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/** The name part of a Host header (`[::1]:8080` → `::1`, `example.com:80` → `example.com`), or undefined when malformed. */
function hostName(header: string): string | undefined {
  const bracketed = /^\[([0-9a-fA-F:.]+)\](?::\d{1,5})?$/.exec(header);
  if (bracketed) return normalHost(bracketed[1]!);
  const plain = /^([A-Za-z0-9.-]+)(?::\d{1,5})?$/.exec(header);
  return plain ? normalHost(plain[1]!) : undefined;
}

/** Equal strings, in a time that depends on their lengths only (the token is never compared byte by byte in a way that leaks where it differs). */
function sameSecret(given: string, expected: string): boolean {
  const a = new TextEncoder().encode(given);
  const b = new TextEncoder().encode(expected);
  let difference = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) difference |= (a[i] ?? 0) ^ b[i]!;
  return difference === 0;
}

function refusal(status: number, message: string, headers: Record<string, string> = {}): Response {
  // The body MAY be a JSON-RPC error response without an id (2025-11-25 transports, Security Warning 1).
  return new Response(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32600, message } }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/**
 * The guard of an HTTP front: for each request, undefined when it may pass, or the response that
 * refuses it — 403 for a Host or Origin not accepted, 401 for a missing or wrong token.
 */
export function httpGuard(options: HttpGuardOptions = {}): (request: Request) => Response | undefined {
  checkOptions("httpGuard", options, GUARD_OPTIONS);
  const bound = normalHost(options.boundHost ?? "127.0.0.1");
  const anyAddress = WILDCARDS.has(bound);
  const hosts = new Set((options.allowedHosts ?? []).map(normalHost));
  if (!anyAddress) hosts.add(bound);
  const origins = new Set(options.allowedOrigins ?? []);
  const token = options.token;
  if (token !== undefined && token.length === 0) throw new TypeError("httpGuard: token must not be empty (leave it out to ask for none)");
  const hint = options.tokenHint === undefined ? "" : `; ${options.tokenHint}`;

  const hostAccepted = (name: string): boolean => isLoopback(name) || hosts.has(name) || (anyAddress && (IPV4.test(name) || name.includes(":")));

  return (request) => {
    // DNS rebinding: a page of evil.example whose name now points at us sends Host: evil.example.
    const host = request.headers.get("host");
    const name = host === null ? undefined : hostName(host);
    if (name === undefined || !hostAccepted(name)) {
      return refusal(
        403,
        `Forbidden: Host ${
          JSON.stringify((host ?? "").slice(0, 100))
        } is not a name of this server (a guard against DNS rebinding); add it to the allowed hosts to accept it`,
      );
    }
    const origin = request.headers.get("origin");
    if (origin !== null && !origins.has("*") && !origins.has(origin)) {
      let originHost: string | undefined;
      try {
        const url = new URL(origin);
        if (url.protocol === "http:" || url.protocol === "https:") originHost = normalHost(url.hostname);
      } catch {
        // "null" or not a URL: not accepted
      }
      if (originHost === undefined || !isLoopback(originHost)) {
        return refusal(
          403,
          `Forbidden: Origin ${
            JSON.stringify(origin.slice(0, 100))
          } is not allowed (a guard against DNS rebinding); add it to the allowed origins to accept it`,
        );
      }
    }
    if (token === undefined) return undefined;
    const authorization = request.headers.get("authorization");
    const match = authorization === null ? null : /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
    if (match === null) {
      return refusal(401, `Unauthorized: this server asks for a bearer token (Authorization: Bearer …)${hint}`, {
        "www-authenticate": 'Bearer realm="mcpwire"',
      });
    }
    if (!sameSecret(match[1]!, token)) {
      return refusal(401, `Unauthorized: the bearer token is not this server's${hint}`, {
        "www-authenticate": 'Bearer realm="mcpwire", error="invalid_token"',
      });
    }
    return undefined;
  };
}
