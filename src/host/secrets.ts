// The secrets a config puts in play — configured header values, the credential env values given to
// servers, OAuth client secrets, model API keys — collected once so every output of the host (errors,
// events, status, stderr tails, the CLI) can be passed through one Redactor that knows them.

import { boundedCopy, type Bounds } from "../common/bounded.ts";
import { setOwn } from "../common/json.ts";
import { Redactor } from "../common/redact.ts";
import type { McpwireConfig } from "./config/types.ts";

/**
 * An env variable whose name says it holds a credential (`GITHUB_TOKEN`, `OPENAI_API_KEY`,
 * `DB_PASSWORD`, `AWS_SECRET_ACCESS_KEY`, `SESSION_COOKIE`, `PAT`). Other env values (paths,
 * modes, hosts) are not secrets; redacting them would blank ordinary words out of messages.
 */
const CREDENTIAL_NAME = /(?:KEY|TOKEN|SECRET|PASS(?:WORD|WD|PHRASE)?|PWD|AUTH|CREDENTIALS?|PRIVATE|COOKIE|SESSION|(?:^|_)PAT)(?:$|_)/i;

/** Whether a variable's name says it holds a credential (`GITHUB_TOKEN`, `DB_PASSWORD`; not `HOME`). */
export function isCredentialName(name: string): boolean {
  return CREDENTIAL_NAME.test(name);
}

/**
 * Every credential value a loaded config holds (interpolated values included): header values,
 * credential-named env values, the OAuth client secret, the values of credential-named
 * `${VAR}`s wherever they were interpolated (`server.secrets`: an argument, the command, the
 * URL), a URL's password; model API keys.
 */
export function configSecrets(config: McpwireConfig): string[] {
  const secrets: string[] = [];
  for (const server of config.servers) {
    // Any header can carry a credential (X-Api-Key, a custom token header): all of them count.
    secrets.push(...Object.values(server.headers ?? {}));
    for (const [name, value] of Object.entries(server.env ?? {})) if (CREDENTIAL_NAME.test(name)) secrets.push(value);
    if (server.auth?.clientSecret !== undefined) secrets.push(server.auth.clientSecret);
    secrets.push(...(server.secrets ?? []));
    // RFC 3986 3.2.1: `user:password@` in a URL (sent as Basic credentials: transport/url-credentials.ts).
    if (server.url !== undefined && URL.canParse(server.url)) {
      const { password } = new URL(server.url);
      if (password !== "") secrets.push(password, safeDecode(password));
    }
  }
  for (const provider of Object.values(config.providers ?? {})) {
    if (provider.apiKey !== undefined) secrets.push(provider.apiKey);
  }
  return secrets;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A Redactor that knows the config's secrets (and learns more, e.g. tokens, through `add`). */
export function redactorFor(config: McpwireConfig, redactor: Redactor = new Redactor()): Redactor {
  for (const secret of configSecrets(config)) redactor.add(secret);
  return redactor;
}

/**
 * A copy of an error for an event: the same prototype (instanceof and name still hold), its
 * message and stack passed through the redactor, its own fields too — strings redacted, plain
 * data (a close's stderr tail, a JSON-RPC error's `data`) as a bounded redacted copy, a nested
 * error (`cause`) copied the same way — so no field of it quotes a secret or holds server data
 * nested without bound.
 */
export function redactError<E extends Error>(error: E, redactor: Redactor, depth = 0): E {
  const copy = Object.create(Object.getPrototypeOf(error) as object) as E;
  for (const key of Object.getOwnPropertyNames(error)) {
    const descriptor = Object.getOwnPropertyDescriptor(error, key)!;
    // V8 in Deno keeps `stack` as an accessor that reads the original error's slot: read it here.
    if (key === "stack" && !("value" in descriptor)) {
      Object.defineProperty(copy, key, { value: redactedField(error.stack, redactor, depth), writable: true, configurable: true });
      continue;
    }
    if ("value" in descriptor) descriptor.value = redactedField(descriptor.value, redactor, depth);
    Object.defineProperty(copy, key, descriptor);
  }
  return copy;
}

/** How deep redactError follows causes (a chain a server cannot make long, but bounded anyway). */
const MAX_CAUSE_DEPTH = 8;

function redactedField(value: unknown, redactor: Redactor, depth: number): unknown {
  if (typeof value === "string") return redactor.redact(value);
  if (value instanceof Error) return depth < MAX_CAUSE_DEPTH ? redactError(value, redactor, depth + 1) : redactor.redact(String(value));
  if (value === null || typeof value !== "object") return value;
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (Array.isArray(value) || prototype === Object.prototype || prototype === null) return redactedCopy(value, redactor);
  return value; // an object of some class (a Headers, a Response): not server text, kept as it is
}

/**
 * Server data (a log's `data`, `serverInfo`, an error's `data`) as a bounded copy — at most
 * `maxDepth` levels and `maxNodes` values, the rest marked (see common/bounded.ts) — with
 * every string passed through the redactor, and every string member named like a credential
 * (`"apiKey": …`, `"token": …`) judged with its name, as redactText judges JSON text.
 */
export function redactedCopy<T>(value: T, redactor: Redactor, bounds: Bounds = {}): T {
  const copy = boundedCopy(value, bounds);
  // The copy is at most maxDepth levels deep: this walk's recursion is bounded by it.
  const walk = (item: unknown): unknown => {
    if (typeof item === "string") return redactor.redact(item);
    if (item === null || typeof item !== "object") return item;
    if (Array.isArray(item)) return item.map(walk);
    const out: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(item)) {
      setOwn(out, key, typeof member === "string" ? redactMember(key, member, redactor) : walk(member));
    }
    return out;
  };
  return walk(copy) as T;
}

/** A string member's value, redacted as the JSON member `"key": "value"` would be. */
function redactMember(key: string, value: string, redactor: Redactor): string {
  const plain = redactor.redact(value); // known secrets, as they are (JSON would escape some characters)
  const text = redactor.redact(`{${JSON.stringify(key)}:${JSON.stringify(plain)}}`);
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    if (typeof parsed[key] === "string") return parsed[key];
  } catch {
    // a secret spanned the JSON punctuation: the value redacted alone stands
  }
  return plain;
}
