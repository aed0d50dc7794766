// Test helper: a model stand-in for the Runner's tests. It is the external API (a model we
// cannot run here), not our code: each turn is a function of the request it receives.

import type { ChatRequest, ChatResponse, ModelToolCall, Provider } from "../../src/agent/providers/types.ts";

export type Turn = (request: ChatRequest) => ChatResponse | Promise<ChatResponse>;

/** Answers turn by turn from `turns`; records every request (a copy of its messages). */
export class ScriptedProvider implements Provider {
  readonly name = "scripted";
  readonly model = "script-1";
  readonly requests: ChatRequest[] = [];
  readonly #turns: Turn[];

  constructor(turns: Turn[]) {
    this.#turns = [...turns];
  }

  chat(request: ChatRequest): Promise<ChatResponse> {
    this.requests.push({ ...request, messages: structuredClone(request.messages) });
    const turn = this.#turns.shift();
    if (turn === undefined) return Promise.reject(new Error(`the script has no turn ${this.requests.length}`));
    return Promise.resolve().then(() => turn(request));
  }
}

/** A turn that calls tools. */
export function callTools(...calls: Array<Omit<ModelToolCall, "id"> & { id?: string }>): Turn {
  return () => ({
    text: "",
    toolCalls: calls.map((call, index) => ({ id: call.id ?? `call_${index + 1}`, name: call.name, arguments: call.arguments })),
    stopReason: "tool_calls",
  });
}

/** A turn that answers with text (a function of the request: it may read the tool results). */
export function answer(text: string | ((request: ChatRequest) => string)): Turn {
  return (request) => ({ text: typeof text === "string" ? text : text(request), toolCalls: [], stopReason: "stop" });
}

/** The content of the tool results in the request's history, newest last. */
export function toolResults(request: ChatRequest): string[] {
  return request.messages.flatMap((message) => (message.role === "tool" ? [message.content] : []));
}
