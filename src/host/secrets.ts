// The secrets a config puts in play — configured header values, the env values given to servers,
// OAuth client secrets, model API keys — collected once so every output of the host (errors,
// events, status, stderr tails, the CLI) can be passed through one Redactor that knows them.

import { type Bounds, boundedCopy } from "../common/bounded.ts";
import { Redactor } from "../common/redact.ts";
import type { McpwireConfig } from "./config-types.ts";

/** Every credential-capable value a loaded config holds (interpolated values included). */
export function configSecrets(config: McpwireConfig): string[] {
  const secrets: string[] = [];
  for (const server of config.servers) {
    secrets.push(...Object.values(server.headers ?? {}));
    secrets.push(...Object.values(server.env ?? {}));
    if (server.auth?.clientSecret !== undefined) secrets.push(server.auth.clientSecret);
  }
  for (const provider of Object.values(config.providers ?? {})) {
    if (provider.apiKey !== undefined) secrets.push(provider.apiKey);
  }
  return secrets;
}

/** A Redactor that knows the config's secrets (and learns more, e.g. tokens, through `add`). */
export function redactorFor(config: McpwireConfig, redactor: Redactor = new Redactor()): Redactor {
  for (const secret of configSecrets(config)) redactor.add(secret);
  return redactor;
}

/**
 * An error whose message (and stack) passed through the redactor: the same error when nothing
 * was redacted, else a copy with the same prototype (instanceof and name still hold) and the
 * same own fields, strings redacted. The original is kept nowhere in the copy (no `cause`
 * pointing back at the unredacted text).
 */
export function redactError<E extends Error>(error: E, redactor: Redactor): E {
  const message = redactor.redact(error.message);
  const stack = error.stack === undefined ? undefined : redactor.redact(error.stack);
  if (message === error.message && stack === error.stack) return error;
  const copy = Object.create(Object.getPrototypeOf(error) as object) as E;
  for (const key of Object.getOwnPropertyNames(error)) {
    if (key === "cause") continue;
    const descriptor = Object.getOwnPropertyDescriptor(error, key)!;
    if ("value" in descriptor && typeof descriptor.value === "string") descriptor.value = redactor.redact(descriptor.value);
    Object.defineProperty(copy, key, descriptor);
  }
  Object.defineProperty(copy, "message", { value: message, enumerable: false, configurable: true, writable: true });
  if (stack !== undefined) Object.defineProperty(copy, "stack", { value: stack, enumerable: false, configurable: true, writable: true });
  return copy;
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
      out[key] = typeof member === "string" ? redactMember(key, member, redactor) : walk(member);
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
