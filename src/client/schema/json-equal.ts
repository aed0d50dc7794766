// Equality of JSON values as JSON Schema compares them for enum, const and uniqueItems (2020-12
// core §4.2.2 "Instance Equality"): 1 and 1.0 are one number, key order does not matter.

import { isObject } from "../../common/json.ts";

/** Whether two JSON values are equal (deeply; numbers by value, objects whatever their key order). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, index) => jsonEqual(item, b[index]));
  if (!isObject(a) || !isObject(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key], b[key]));
}
