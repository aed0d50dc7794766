// What `mcpwire check` judges with (docs/check.md): a rule — one thing the specification says a
// server does, at the spec's own RFC 2119 level — and a finding — a rule seen broken, in one
// place. A family of rules (schema, lifecycle, JSON-RPC, lists, definitions, transports,
// hygiene, calls) is one file of src/check/ that declares its rules and reports into a Judge:
// each rule it evaluated passed, failed (once per place it was broken) or was skipped, with why.

import type { JsonRpcMessage } from "../jsonrpc/messages.ts";

/**
 * How strongly the specification asks for it (RFC 2119 as the spec adopts it, spec 2025-11-25
 * index): MUST (or required by the era's JSON Schema, or one of JSON-RPC 2.0's own MUSTs),
 * SHOULD (also what the spec says only in lowercase or by example), MAY (advice, hygiene: info).
 */
export type Level = "MUST" | "SHOULD" | "MAY";

/** The families a report is grouped by, in the order it prints them. */
export const AREAS = ["lifecycle", "json-rpc", "schema", "capabilities", "lists", "definitions", "transport", "hygiene", "calls"] as const;
/** A family of rules, as a report groups them: lifecycle, json-rpc, schema, capabilities, lists, definitions, transport, hygiene, calls. */
export type Area = (typeof AREAS)[number];

/** Where a rule comes from: a revision of the MCP specification, JSON-RPC 2.0, or an RFC the spec cites. */
export type SpecSource = "2024-11-05" | "2025-03-26" | "2025-06-18" | "2025-11-25" | "2026-07-28" | "json-rpc-2.0" | "rfc6570" | "rfc3986";

/** A rule's citation, as `trace show --explain` cites: `spec 2025-11-25 basic/lifecycle, "Version Negotiation"`. */
export interface Citation {
  source: SpecSource;
  /** The page, as the spec's folders name it: `basic/lifecycle`, `server/tools`, `schema`; for JSON-RPC 2.0 its section number (`5.1`). */
  page: string;
  /** The heading on that page, when the rule is under one. */
  section?: string;
}

/** One rule. Its id is stable: `--json` reports, docs/check.md and tests name it. */
export interface Rule {
  /** `<area>/<name>`, kebab-case: `lifecycle/unsupported-version`. */
  readonly id: string;
  readonly area: Area;
  readonly level: Level;
  /** What holds when the server keeps it, in one line: "An unknown method is answered with -32601". */
  readonly title: string;
  readonly spec: Citation;
  /** What a server author changes when it is broken, in one or two sentences. */
  readonly fix: string;
}

/** Makes a rule, its area taken from its id (so the two cannot disagree). */
export function rule(id: `${Area}/${string}`, level: Level, title: string, spec: Citation, fix: string): Rule {
  const area = id.slice(0, id.indexOf("/")) as Area;
  return { id, area, level, title, spec, fix };
}

/** One JSON-RPC message of the session as the check saw it, numbered in the order it crossed the wire. */
export interface SeenMessage {
  /** Its place in the session, from 1: the n-th message event of the `--trace-file` the check writes. */
  index: number;
  dir: "send" | "receive";
  /** For an answer, the method of the request it answers (when that request was seen). */
  method?: string;
  message: JsonRpcMessage;
  /** Milliseconds since the check started. */
  at: number;
}

/** Where a rule was seen broken: a message (by its index), a place in it, an HTTP exchange, a line. */
export interface Seen {
  /** The message's index (SeenMessage.index). */
  index?: number;
  /** A JSON Pointer (RFC 6901) into that message: `/result/tools/3/inputSchema/type`. */
  pointer?: string;
  /** An HTTP exchange: `POST http://127.0.0.1:3000/mcp → 200`. */
  http?: string;
  /** A short excerpt of what was seen (bounded and made printable by the report, not here). */
  excerpt?: string;
}

/** A rule seen broken. */
export interface Finding {
  rule: string;
  level: Level;
  area: Area;
  title: string;
  spec: Citation;
  /** What was seen, said plainly: "tools/list answered with tool 'a b': the name holds a space". */
  detail: string;
  fix: string;
  seen?: Seen;
}

/** What a family reports into: each rule it evaluated passed, failed or could not be judged. */
export interface Judge {
  /** `rule` was evaluated and held (a rule evaluated many times and broken once still counts as broken). */
  pass(rule: Rule): void;
  /** `rule` was broken here. */
  fail(rule: Rule, detail: string, seen?: Seen): void;
  /** `rule` could not be evaluated: `reason` says why (the server declares no tools; `--call` not given; not over HTTP). */
  skip(rule: Rule, reason: string): void;
}
