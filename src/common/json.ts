// JSON value shapes every layer checks.

/** A JSON object: not null, not an array. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** What kind of JSON value this is, for messages: "null", "an array", "an object", "a string", "a number". */
export function jsonKind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/**
 * An empty table for keys read from files or servers (server, tool, variable names): it has no
 * prototype, so `__proto__`, `constructor` or `toString` is an ordinary key, never Object's.
 */
export function nameTable<T = unknown>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** `table[key] = value` as an own property, `__proto__` too (an assignment would set the prototype). */
export function setOwn<T>(table: Record<string, T>, key: string, value: NoInfer<T>): void {
  Object.defineProperty(table, key, { value, writable: true, enumerable: true, configurable: true });
}

/** `table[key]` when it is the table's own, else undefined (never Object.prototype's `constructor`). */
export function ownValue<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
