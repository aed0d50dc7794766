// `mcpwire inspect`'s MCP Apps part — ext-apps specification/2026-01-26/apps.mdx: each tool
// with UI metadata, who may see it, and its ui:// resource read and checked (or why not).

import { type AppResourceErrorCode, isAppOnly, readToolUi, toolUi } from "../../client/apps/apps.ts";
import type { Client } from "../../client/client.ts";
import { EXTENSIONS } from "../../client/extension-negotiation.ts";
import type { JsonObject, Tool } from "../../client/types.ts";
import { messageOf } from "../../common/error-text.ts";
import { isObject } from "../../common/json.ts";
import { dataLine, lineOf, textOf, write, writeJson } from "../output.ts";

/** UI resources read at most per inspect (a server may list thousands of tools). */
export const MAX_UI_READS = 32;

/** After the name of a tool for its server's app only: callable, never offered to a model. */
export const APP_ONLY_MARK = " [app only]";

/** One tool with UI metadata, as inspect found it. */
export interface AppUiReport {
  tool: string;
  /** Its visibility lacks "model": a host never offers it to a model. */
  appOnly: boolean;
  /** The UI resource it names, when it names one. */
  uri?: string;
  /** When the resource was read and is an MCP App: its MIME type, size and `_meta.ui`. */
  mimeType?: string;
  chars?: number;
  meta?: JsonObject;
  /**
   * Why it was refused: AppResourceError's code (or `not-read`: past MAX_UI_READS). Named
   * `reason`, not `code`: --json output redacts values under `code` (an OAuth code's key).
   */
  error?: { reason: AppResourceErrorCode | "not-read"; message: string };
}

export interface AppsReport {
  /** Both sides declared io.modelcontextprotocol/ui. */
  appsNegotiated: boolean;
  apps: AppUiReport[];
}

/** Reads the UI resource of every tool that has UI metadata (at most MAX_UI_READS), in parallel. */
export async function collectApps(client: Client, tools: readonly Tool[]): Promise<AppsReport> {
  const withUi = tools.filter((tool) => isObject(tool) && typeof tool.name === "string" && toolUi(tool) !== undefined);
  const apps = await Promise.all(withUi.map(async (tool, index): Promise<AppUiReport> => {
    const ui = toolUi(tool)!;
    const entry: AppUiReport = { tool: tool.name, appOnly: isAppOnly(tool), ...(ui.resourceUri !== undefined ? { uri: ui.resourceUri } : {}) };
    if (index >= MAX_UI_READS) {
      return { ...entry, error: { reason: "not-read", message: `not read: inspect reads the UI resources of the first ${MAX_UI_READS} tools only` } };
    }
    try {
      const resource = await readToolUi(client, tool);
      return { ...entry, mimeType: resource.mimeType, chars: resource.html.length, ...(resource.meta !== undefined ? { meta: resource.meta } : {}) };
    } catch (error) {
      const code = isObject(error) && typeof error.code === "string" ? error.code as AppResourceErrorCode : "read-failed";
      return { ...entry, error: { reason: code, message: messageOf(error) } };
    }
  }));
  return { appsNegotiated: client.extension(EXTENSIONS.apps) !== undefined, apps };
}

/** The report's "apps" section: nothing when no tool has UI metadata. Server text is made safe. */
export function formatApps(report: AppsReport): string[] {
  if (report.apps.length === 0) return [];
  const negotiated = report.appsNegotiated ? `${EXTENSIONS.apps} negotiated` : `${EXTENSIONS.apps} not declared by the server`;
  const lines = ["", `apps (${report.apps.length} tool${report.apps.length === 1 ? "" : "s"} with a UI; ${negotiated})`];
  for (const app of report.apps) {
    const head = `  ${lineOf(app.tool)}${app.appOnly ? APP_ONLY_MARK : ""}${app.uri !== undefined ? ` → ${lineOf(app.uri)}` : ""}`;
    if (app.error !== undefined) {
      lines.push(`${head}: refused (${app.error.reason}): ${lineOf(app.error.message)}`);
      continue;
    }
    const details = [lineOf(app.mimeType ?? ""), `${app.chars ?? 0} characters of HTML`];
    if (app.meta !== undefined) details.push(`_meta.ui ${dataLine(app.meta)}`);
    lines.push(`${head}: ${details.join(", ")}`);
  }
  return lines;
}

/**
 * `inspect --ui TOOL`: the HTML document of the tool's UI resource on stdout (server text:
 * redacted, control characters visible), or with --json `{ tool, uri, mimeType, meta, html }`.
 * Exit 0; 1 with the reason on stderr when the tool is not listed or its resource is refused.
 */
export async function showToolUi(client: Client, name: string, json: boolean): Promise<number> {
  const tools = await client.listTools();
  const tool = tools.find((each) => isObject(each) && each.name === name);
  if (tool === undefined) {
    const withUi = tools.filter((each) => isObject(each) && typeof each.name === "string" && toolUi(each) !== undefined).map((each) => each.name);
    await write(
      "stderr",
      `mcpwire inspect: the server lists no tool ${lineOf(JSON.stringify(name))}; ` +
        `tools with a UI: ${withUi.length === 0 ? "none" : lineOf(withUi.join(", "))}\n`,
    );
    return 1;
  }
  try {
    const resource = await readToolUi(client, tool);
    if (json) await writeJson({ tool: name, uri: resource.uri, mimeType: resource.mimeType, meta: resource.meta ?? null, html: resource.html });
    else await write("stdout", textOf(resource.html) + (resource.html.endsWith("\n") ? "" : "\n"));
    return 0;
  } catch (error) {
    await write("stderr", `mcpwire inspect: ${lineOf(messageOf(error))}\n`);
    return 1;
  }
}
