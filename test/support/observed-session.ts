// Test helper for the check's passive families: an `Observed` session made from the lists and
// notifications a test gives (as a walk would have recorded them: initialize or server/discover,
// then one list request and its answer per list, each item with its message index and pointer);
// and the Observed of a real session, made from
// a Client's trace as the check's walk records it. The conformant items are the spec's own
// examples (2026-07-28 schema/examples, 2025-11-25 server/tools, server/resources, server/prompts).

import type { ListedItem, Observed, ObservedLists } from "../../src/check/observed.ts";
import type { SeenMessage } from "../../src/check/rule.ts";
import type { ProtocolEra } from "../../src/client/protocol-version.ts";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.ts";
import type { TraceEvent } from "../../src/transport/trace-event.ts";

/** What a test session holds: the lists by their result key, notifications the server sent after the lists, requests the client sent before them. */
export interface SessionSpec {
  era?: ProtocolEra;
  protocolVersion?: string;
  capabilities?: Record<string, unknown>;
  instructions?: string;
  tools?: unknown[];
  prompts?: unknown[];
  resources?: unknown[];
  resourceTemplates?: unknown[];
  /** Requests (and notifications) the client sent after the lists, before `notifications`. */
  sent?: { method: string; params?: Record<string, unknown> }[];
  /** Notifications the server sent, last. */
  notifications?: { method: string; params?: Record<string, unknown> }[];
}

const LIST_METHODS: [keyof ObservedLists, string][] = [
  ["tools", "tools/list"],
  ["prompts", "prompts/list"],
  ["resources", "resources/list"],
  ["resourceTemplates", "resources/templates/list"],
];

/** An Observed session of `spec`, its messages numbered from 1 and 10 ms apart. */
export function observedSession(spec: SessionSpec): Observed {
  const era = spec.era ?? "legacy";
  const protocolVersion = spec.protocolVersion ?? (era === "modern" ? "2026-07-28" : "2025-11-25");
  const capabilities = spec.capabilities ?? { tools: { listChanged: true }, prompts: {}, resources: { subscribe: true, listChanged: true }, logging: {} };
  const messages: SeenMessage[] = [];
  let id = 0;
  const push = (dir: "send" | "receive", message: Record<string, unknown>, method?: string): number => {
    const index = messages.length + 1;
    messages.push({ index, dir, message: message as unknown as JsonRpcMessage, at: index * 10, ...(method === undefined ? {} : { method }) });
    return index;
  };
  const serverInfo = { name: "test-server", version: "1.0.0" };
  // spec 2026-07-28 server/discover: supportedVersions, and serverInfo in _meta; initialize's result has both as fields.
  const result: Record<string, unknown> = era === "modern"
    ? { resultType: "complete", supportedVersions: [protocolVersion], capabilities, _meta: { "io.modelcontextprotocol/serverInfo": serverInfo } }
    : { protocolVersion, capabilities, serverInfo };
  if (spec.instructions !== undefined) result.instructions = spec.instructions;
  const opening = era === "modern" ? "server/discover" : "initialize";
  push("send", { jsonrpc: "2.0", id: ++id, method: opening, params: {} });
  const negotiationIndex = push("receive", { jsonrpc: "2.0", id, result }, opening);
  if (era === "legacy") push("send", { jsonrpc: "2.0", method: "notifications/initialized" });
  const lists: ObservedLists = {};
  for (const [key, method] of LIST_METHODS) {
    const items = spec[key];
    if (items === undefined) continue;
    push("send", { jsonrpc: "2.0", id: ++id, method, params: {} });
    const index = push("receive", { jsonrpc: "2.0", id, result: { [key]: items } }, method);
    lists[key] = items.map((value, at): ListedItem => ({ value, index, pointer: `/result/${key}/${at}` }));
  }
  for (const each of spec.sent ?? []) {
    push("send", { jsonrpc: "2.0", id: ++id, method: each.method, ...(each.params === undefined ? {} : { params: each.params }) });
  }
  for (const each of spec.notifications ?? []) {
    push("receive", { jsonrpc: "2.0", method: each.method, ...(each.params === undefined ? {} : { params: each.params }) });
  }
  return {
    era,
    protocolVersion,
    negotiation: { result, index: negotiationIndex },
    capabilities,
    ...(spec.instructions === undefined ? {} : { instructions: spec.instructions }),
    lists,
    messages,
  };
}

/** get_weather, as spec 2025-11-25 server/tools "Listing Tools" lists it (icons and all). */
export function weatherTool(): Record<string, unknown> {
  return {
    name: "get_weather",
    title: "Weather Information Provider",
    description: "Get current weather information for a location",
    inputSchema: { type: "object", properties: { location: { type: "string", description: "City name or zip code" } }, required: ["location"] },
    icons: [{ src: "https://example.com/weather-icon.png", mimeType: "image/png", sizes: ["48x48"] }],
    execution: { taskSupport: "optional" },
  };
}

/** A tool with an outputSchema and annotations (spec 2025-11-25 server/tools "Output Schema", schema ToolAnnotations). */
export function weatherDataTool(): Record<string, unknown> {
  return {
    name: "get_weather_data",
    title: "Weather Data Retriever",
    description: "Get current weather data for a location",
    inputSchema: { type: "object", properties: { location: { type: "string", description: "City name or zip code" } }, required: ["location"] },
    outputSchema: {
      type: "object",
      properties: { temperature: { type: "number" }, conditions: { type: "string" }, humidity: { type: "number" } },
      required: ["temperature", "conditions", "humidity"],
    },
    annotations: { title: "Weather data", readOnlyHint: true, openWorldHint: true },
  };
}

/** calculate_sum, whose inputSchema names draft-07 (2026-07-28 schema/examples Tool). */
export function draft07Tool(): Record<string, unknown> {
  return {
    name: "calculate_sum",
    description: "Add two numbers",
    inputSchema: {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    },
  };
}

/** README.md with annotations (2026-07-28 schema/examples Resource). */
export function readmeResource(): Record<string, unknown> {
  return {
    uri: "file:///project/README.md",
    name: "README.md",
    title: "Project Documentation",
    mimeType: "text/markdown",
    annotations: { audience: ["user"], priority: 0.8, lastModified: "2025-01-12T15:00:58Z" },
  };
}

/** Project Files (spec 2025-11-25 server/resources "Resource Templates"). */
export function filesTemplate(): Record<string, unknown> {
  return {
    uriTemplate: "file:///{path}",
    name: "Project Files",
    title: "📁 Project Files",
    description: "Access files in the project directory",
    mimeType: "application/octet-stream",
    icons: [{ src: "https://example.com/folder-icon.png", mimeType: "image/png", sizes: ["48x48"] }],
  };
}

/** code_review (2026-07-28 schema/examples ListPromptsResultResponse). */
export function reviewPrompt(): Record<string, unknown> {
  return {
    name: "code_review",
    title: "Request Code Review",
    description: "Asks the LLM to analyze code quality and suggest improvements",
    arguments: [{ name: "code", description: "The code to review", required: true }],
    icons: [{ src: "https://example.com/review-icon.svg", mimeType: "image/svg+xml", sizes: ["any"] }],
  };
}

/**
 * The Observed of a session a Client traced (ClientOptions.trace): every message event in order,
 * numbered from 1, the negotiation's result (initialize's or server/discover's), and each list
 * result's items with their message and pointer, pages in order.
 */
export function observedFromTrace(events: readonly TraceEvent[], era: ProtocolEra, protocolVersion: string): Observed {
  const messages: SeenMessage[] = [];
  for (const event of events) {
    if (event.kind !== "message") continue;
    messages.push({
      index: messages.length + 1,
      dir: event.dir,
      message: event.message,
      at: event.t,
      ...(event.method === undefined ? {} : { method: event.method }),
    });
  }
  const lists: ObservedLists = {};
  let negotiation: Observed["negotiation"];
  for (const seen of messages) {
    const result = (seen.message as { result?: unknown }).result;
    if (seen.dir !== "receive" || typeof result !== "object" || result === null) continue;
    const fields = result as Record<string, unknown>;
    if ((seen.method === "initialize" || seen.method === "server/discover") && fields.capabilities !== undefined) negotiation = { result, index: seen.index };
    for (const [key, method] of LIST_METHODS) {
      const items = fields[key];
      if (seen.method !== method || !Array.isArray(items)) continue;
      (lists[key] ??= []).push(...items.map((value, at): ListedItem => ({ value, index: seen.index, pointer: `/result/${key}/${at}` })));
    }
  }
  const fields = (negotiation?.result ?? {}) as Record<string, unknown>;
  const capabilities = typeof fields.capabilities === "object" && fields.capabilities !== null ? fields.capabilities as Record<string, unknown> : {};
  return {
    era,
    protocolVersion,
    ...(negotiation === undefined ? {} : { negotiation }),
    capabilities,
    ...(typeof fields.instructions === "string" ? { instructions: fields.instructions } : {}),
    lists,
    messages,
  };
}
