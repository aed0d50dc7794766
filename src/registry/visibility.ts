// Which registered tools a model is offered, and who may call them — ext-apps
// specification/2026-01-26/apps.mdx ("Visibility"): the host MUST NOT include a tool in the
// agent's tool list when its visibility does not include "model" ("model": visible to and
// callable by the agent), and MUST reject an app's tools/call of a tool whose visibility does
// not include "app" ("app": callable by the app from the same server connection only). Such a
// tool stays registered: listed by tools() with its `ui`, left out of list(), and called by
// dispatch/call only for the caller it names (ToolCallContext.caller: "app", or "user" for a
// person naming it, as `mcpwire call` does); a model's call of it is refused.
//
// This holds whether or not the Apps extension was negotiated with the server: with it off
// a tool is a plain tool (apps.mdx: "tool behaves as standard tool"), but a tool the server
// marked for its app only is still never offered to a model.

import { type ToolUi, toolUi } from "../client/apps/apps.ts";
import type { Tool } from "../client/types.ts";
import type { McpToolEntry, RegisteredTool, ToolCaller } from "./types.ts";

/** The `ui` field of an MCP tool's registry entry: present when the tool has UI metadata. */
export function uiEntry(tool: Tool): Pick<McpToolEntry, "ui"> {
  const ui = toolUi(tool);
  return ui === undefined ? {} : { ui };
}

/** Whether ToolRegistry.list() may offer the tool to a model (not when it is for the app only). */
export function offeredToModel(tool: RegisteredTool): boolean {
  return tool.ui === undefined || tool.ui.visibility.includes("model");
}

/** Whether a registered tool is for its server's app only: registered and callable, never offered to a model. */
export function isAppOnlyTool(tool: RegisteredTool): boolean {
  return !offeredToModel(tool);
}

/** A copy of a tool's UI metadata (the registry hands out copies). */
export function copyUi(ui: ToolUi): ToolUi {
  return { ...ui, visibility: [...ui.visibility] };
}

/**
 * Why `caller` may not call `tool` (apps.mdx "Visibility"), or undefined when it may. The text
 * follows the tool's description (`server "x", tool "y": …`) and says what to do.
 */
export function callerRefusal(tool: RegisteredTool, caller: ToolCaller, appServer: string | undefined): string | undefined {
  if (caller === "user") return undefined;
  const visibility = tool.ui?.visibility;
  if (caller === "model") {
    if (visibility === undefined || visibility.includes("model")) return undefined;
    return `the tool is for its server's app only (MCP Apps visibility ${JSON.stringify(visibility)}), so it is not called for a model; ` +
      `call one of the listed tools (a host calling it for the server's app passes caller "app")`;
  }
  if (visibility !== undefined && !visibility.includes("app")) {
    return `the tool is not callable by an app (MCP Apps visibility ${JSON.stringify(visibility)} leaves out "app"); only a model may call it`;
  }
  if (appServer !== undefined && (tool.origin.kind !== "mcp" || tool.origin.server !== appServer)) {
    return `the app of server "${appServer}" may call only its own server's tools (MCP Apps: an app calls tools of its own server connection only)`;
  }
  return undefined;
}
