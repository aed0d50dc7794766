// What the check saw of a server in one era, as the families that judge after the walk read it:
// every message in order, what negotiation gave, and every list's items as they came on the wire
// (raw values, not what the client made of them: a broken definition must reach its judge).

import type { ProtocolEra } from "../client/protocol-version.ts";
import type { SeenMessage } from "./rule.ts";

/** One item of a list result (a tool, a resource, a template, a prompt), where it was seen. */
export interface ListedItem {
  /** The item as received (unknown: the server is untrusted). */
  value: unknown;
  /** The index of the message (SeenMessage.index) whose result held it. */
  index: number;
  /** Its JSON Pointer in that message: `/result/tools/3`. */
  pointer: string;
}

/** The lists the walk followed to their end (undefined: not listed — the capability is not declared, or the list failed). */
export interface ObservedLists {
  tools?: ListedItem[];
  resources?: ListedItem[];
  resourceTemplates?: ListedItem[];
  prompts?: ListedItem[];
}

/** One era's session as the check saw it. */
export interface Observed {
  era: ProtocolEra;
  /** The version negotiated (initialize's answer, or the one server/discover offered and we chose). */
  protocolVersion: string;
  /** The initialize or server/discover result, raw, and its message index. */
  negotiation?: { result: unknown; index: number };
  /** The server's capabilities as it declared them (raw; {} when none were readable). */
  capabilities: Record<string, unknown>;
  instructions?: string;
  lists: ObservedLists;
  /** Every message both ways, in order (index from 1). */
  messages: readonly SeenMessage[];
}
