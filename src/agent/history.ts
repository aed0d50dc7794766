// A Runner's conversation as JSON: what saveHistory() writes, and the checks loadHistory()
// makes before it takes one back (roles, contents, every tool call answered by its result).

import type { JsonObject } from "../client/types.ts";
import { messageOf } from "../common/error-text.ts";
import { isObject } from "../common/json.ts";
import { McpwireError, type McpwireErrorOptions } from "../common/mcpwire-error.ts";
import type { ChatMessage, ModelToolCall } from "./providers/types.ts";

/** HistoryError's one code: the saved history is not one loadHistory() can take. */
export type HistoryErrorCode = "invalid-history";

/** A history that loadHistory() cannot take (`code` "invalid-history"; the message says where and what). */
export class HistoryError extends McpwireError<HistoryErrorCode> {
  override readonly name = "HistoryError";
  constructor(message: string, options?: McpwireErrorOptions) {
    super(message, "invalid-history", options);
  }
}

/** The JSON saveHistory() writes. */
export interface SavedHistory {
  format: "mcpwire-history";
  version: 1;
  systemPrompt?: string;
  messages: ChatMessage[];
}

/** The history as saveHistory()'s JSON text. */
export function historyText(messages: ChatMessage[], systemPrompt: string | undefined): string {
  const saved: SavedHistory = {
    format: "mcpwire-history",
    version: 1,
    ...(systemPrompt !== undefined ? { systemPrompt } : {}),
    messages,
  };
  return JSON.stringify(saved, null, 2);
}

/**
 * A saved history (saveHistory's JSON text, the parsed object, or a bare array of messages)
 * as messages. Everything is checked; a problem throws a HistoryError naming the message and
 * what is wrong.
 */
export function parseHistory(saved: unknown): ChatMessage[] {
  let value = saved;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch (error) {
      throw new HistoryError(`the history is not valid JSON (${messageOf(error)}); load what saveHistory() wrote`, { cause: error });
    }
  }
  let messages: unknown;
  if (Array.isArray(value)) {
    messages = value;
  } else if (isObject(value)) {
    if (value.format !== "mcpwire-history") {
      throw new HistoryError(`the history has no "format": "mcpwire-history"; load what saveHistory() wrote`);
    }
    if (value.version !== 1) {
      throw new HistoryError(`the history has version ${JSON.stringify(value.version)}; this mcpwire reads version 1`);
    }
    messages = value.messages;
    if (!Array.isArray(messages)) throw new HistoryError(`the history's "messages" must be an array`);
  } else {
    throw new HistoryError("the history must be saveHistory()'s JSON object or an array of messages");
  }
  const result: ChatMessage[] = [];
  /** Tool-call ids of the latest assistant message that have no result yet. */
  let open = new Set<string>();
  (messages as unknown[]).forEach((message, index) => {
    const where = `history message ${index}`;
    if (!isObject(message)) throw new HistoryError(`${where} is not an object`);
    const content = message.content;
    if (message.role !== "tool" && open.size > 0) {
      throw new HistoryError(`${where}: the tool calls ${[...open].join(", ")} of the assistant message before it have no result`);
    }
    if (typeof content !== "string") throw new HistoryError(`${where} (role ${JSON.stringify(message.role)}) needs a string "content"`);
    switch (message.role) {
      case "user":
        result.push({ role: "user", content });
        return;
      case "assistant": {
        const calls = message.toolCalls;
        if (calls === undefined) {
          result.push({ role: "assistant", content });
          return;
        }
        if (!Array.isArray(calls)) throw new HistoryError(`${where}: "toolCalls" must be an array`);
        const toolCalls: ModelToolCall[] = calls.map((call, callIndex) => {
          if (
            !isObject(call) || typeof call.id !== "string" || typeof call.name !== "string" ||
            !(typeof call.arguments === "string" || isObject(call.arguments))
          ) {
            throw new HistoryError(`${where}: toolCalls[${callIndex}] needs a string "id", a string "name" and "arguments" (an object or a string)`);
          }
          return {
            id: call.id,
            name: call.name,
            arguments: call.arguments as JsonObject | string,
            ...(typeof call.signature === "string" ? { signature: call.signature } : {}),
          };
        });
        result.push({ role: "assistant", content, toolCalls });
        open = new Set(toolCalls.map((call) => call.id));
        return;
      }
      case "tool": {
        if (typeof message.toolCallId !== "string" || typeof message.name !== "string") {
          throw new HistoryError(`${where}: a tool message needs a string "toolCallId" and "name"`);
        }
        if (!open.has(message.toolCallId)) {
          throw new HistoryError(
            `${where}: tool result "${message.toolCallId}" answers no tool call of the assistant message before it`,
          );
        }
        open.delete(message.toolCallId);
        result.push({
          role: "tool",
          toolCallId: message.toolCallId,
          name: message.name,
          content,
          ...(message.isError === true ? { isError: true } : {}),
        });
        return;
      }
      default:
        throw new HistoryError(`${where} has role ${JSON.stringify(message.role)}; roles are "user", "assistant" and "tool"`);
    }
  });
  if (open.size > 0) throw new HistoryError(`the history ends with tool calls that have no result (${[...open].join(", ")})`);
  return result;
}
