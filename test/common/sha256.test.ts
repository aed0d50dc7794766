// SHA-256 in plain TypeScript (the CSP hashes of `mcpwire trace html`) against the runtime's own
// (node:crypto, which Deno provides too): the padding edges, multi-byte UTF-8, several blocks.

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import { sha256, sha256Base64 } from "../../src/common/sha256.ts";

test('the FIPS 180-4 example: SHA-256 of "abc"', () => {
  const hex = [...sha256(new TextEncoder().encode("abc"))].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  assert.equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
});

test("equals node:crypto's digest across the padding edges (55, 56, 64 bytes), multi-byte UTF-8 and many blocks", () => {
  for (const text of ["", "a".repeat(55), "a".repeat(56), "a".repeat(63), "a".repeat(64), "a".repeat(65), "ü€😀 </script>".repeat(500), "x".repeat(100_003)]) {
    assert.equal(sha256Base64(text), createHash("sha256").update(text, "utf8").digest("base64"), `${text.length} characters`);
  }
});
