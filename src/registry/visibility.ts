// Which registered tools a model is offered — ext-apps specification/2026-01-26/apps.mdx
// ("Visibility"): the host MUST NOT include a tool in the agent's tool list when its
// visibility does not include "model". Such a tool stays registered: callable by name
// (dispatch, call, `mcpwire call`), listed by tools() with its `ui`, left out of list().
//
// This holds whether or not the Apps extension was negotiated with the server: with it off
// a tool is a plain tool (apps.mdx: "tool behaves as standard tool"), but a tool the server
// marked for its app only is still never offered to a model.

import { type ToolUi, toolUi } from "../client/apps.ts";
import type { Tool } from "../client/types.ts";
import type { McpToolEntry, RegisteredTool } from "./types.ts";

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
