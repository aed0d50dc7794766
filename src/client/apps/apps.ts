// MCP Apps, the part a client owes its host — ext-apps specification/2026-01-26/apps.mdx
// (SEP-1865): a tool's `_meta.ui` (its UI resource and who may see it) and reading that
// `ui://` resource as the HTML of an MCP App. Rendering the HTML is the host's business.
//
// With the extension turned off (or not declared by the server) a tool is a plain tool
// ("If host does not support MCP Apps, tool behaves as standard tool"), but its visibility
// still holds: a tool the server marked for the app only is never offered to a model.

import { messageOf } from "../../common/error-text.ts";
import { isObject } from "../../common/json.ts";
import { McpwireError } from "../../common/mcpwire-error.ts";
import { clipText } from "../../common/preview.ts";
import type { ListOptions } from "../client-options.ts";
import { type AppResourceErrorCode, ResourceNotFoundError } from "../errors.ts";
import type { JsonObject, ReadResourceResult, Tool } from "../types.ts";

/** apps.mdx "UI Resource Format": the one content type of the 2026-01-26 MVP. */
export const APP_MIME_TYPE = "text/html;profile=mcp-app";
/** apps.mdx "UI Resource Format": a UI resource's URI MUST use this scheme. */
export const UI_SCHEME = "ui://";
/** apps.mdx "Resource Discovery": the deprecated flat key, read when `_meta.ui.resourceUri` is absent. */
export const DEPRECATED_RESOURCE_URI_KEY = "ui/resourceUri";

/** Who may see and call a tool: `model` (the agent) and/or `app` (the server's own UI). */
export type ToolVisibility = "model" | "app";

/** apps.mdx "Visibility": `visibility` defaults to ["model", "app"] if omitted. */
export const DEFAULT_VISIBILITY: readonly ToolVisibility[] = ["model", "app"];

/** A tool's MCP Apps metadata, read from `_meta.ui` (values the server sent: untrusted). */
export interface ToolUi {
  /** The `ui://` resource that renders the tool's results, when the tool names one (not yet checked). */
  resourceUri?: string;
  /**
   * Who may see the tool, default ["model", "app"]. A list without "model" (["app"], [], or
   * a value that is not a list) keeps the tool from the model.
   */
  visibility: ToolVisibility[];
}

/**
 * A tool's UI metadata, or undefined when it has none (no `_meta.ui` object and no flat
 * `ui/resourceUri`). A `visibility` written as one string is read as a list of it; any other
 * value that is not a list reads as [] (hidden from the model: the server asked for
 * something and we fail closed); unknown entries are ignored.
 */
export function toolUi(tool: Pick<Tool, "_meta">): ToolUi | undefined {
  const meta = isObject(tool._meta) ? tool._meta : undefined;
  if (meta === undefined) return undefined;
  const ui = isObject(meta.ui) ? meta.ui : undefined;
  const flat = meta[DEPRECATED_RESOURCE_URI_KEY];
  if (ui === undefined && flat === undefined) return undefined;
  const resourceUri = typeof ui?.resourceUri === "string" ? ui.resourceUri : typeof flat === "string" ? flat : undefined;
  const written = ui?.visibility;
  let visibility: ToolVisibility[];
  if (written === undefined) visibility = [...DEFAULT_VISIBILITY];
  else {
    const listed: unknown[] = Array.isArray(written) ? written : typeof written === "string" ? [written] : [];
    visibility = DEFAULT_VISIBILITY.filter((who) => listed.includes(who));
  }
  return resourceUri === undefined ? { visibility } : { resourceUri, visibility };
}

/**
 * Whether a tool is for the app only: its visibility does not include "model". apps.mdx
 * "Visibility": the host MUST NOT include such a tool in the agent's tool list.
 */
export function isAppOnly(tool: Pick<Tool, "_meta">): boolean {
  const ui = toolUi(tool);
  return ui !== undefined && !ui.visibility.includes("model");
}

/** Whether the server's app may call the tool (apps.mdx: the host MUST reject the app's calls to others). */
export function isAppCallable(tool: Pick<Tool, "_meta">): boolean {
  return (toolUi(tool)?.visibility ?? DEFAULT_VISIBILITY).includes("app");
}

/** A tool's UI resource could not be read as an MCP App. The connection is unaffected. */
export class AppResourceError extends McpwireError<AppResourceErrorCode> {
  override readonly name = "AppResourceError";
  /** The server, as the caller named it (or its serverInfo name). */
  readonly server: string;
  /** The tool whose UI resource it is. */
  readonly tool: string;
  /** The URI the tool named, when it named one. */
  readonly uri: string | undefined;
  constructor(message: string, code: AppResourceErrorCode, options: { server: string; tool: string; uri?: string; cause?: unknown }) {
    super(message, code, options);
    this.server = options.server;
    this.tool = options.tool;
    this.uri = options.uri;
  }
}

export type { AppResourceErrorCode };

/** A tool's UI resource, read and checked. */
export interface AppResource {
  uri: string;
  /** As the server wrote it (an MCP App type). */
  mimeType: string;
  /** The HTML document (a base64 blob decoded as UTF-8). */
  html: string;
  /** The content's `_meta.ui` (csp, permissions, domain, prefersBorder) as the server sent it. */
  meta?: JsonObject;
}

export interface ReadToolUiOptions extends ListOptions {
  /** How errors name the server; default its serverInfo name. */
  server?: string;
}

/** What readToolUi needs of a client. */
export interface AppResourceClient {
  readResource(uri: string, options?: ListOptions): Promise<ReadResourceResult>;
  readonly serverInfo?: { name: string } | undefined;
}

/**
 * Reads the UI resource `tool` points at through `client.readResource` and checks it is an
 * MCP App: a `ui://` URI, served as `text/html;profile=mcp-app`, with HTML in `text` or
 * `blob` (apps.mdx "Content Requirements"). Throws AppResourceError naming the server, the
 * tool and what was wrong. Works whether or not the extension was negotiated: it is a plain
 * resources/read (apps.mdx "Host MUST use resources/read to fetch the referenced resource URI").
 * The HTML is as large as the transport's message limit lets a result be.
 */
export async function readToolUi(client: AppResourceClient, tool: Tool, options: ReadToolUiOptions = {}): Promise<AppResource> {
  const { server: named, ...readOptions } = options;
  const server = named ?? client.serverInfo?.name ?? "(unnamed)";
  const toolName = String(tool.name);
  const who = `server "${server}": tool "${clipText(toolName, 80)}"`;
  const uri = toolUi(tool)?.resourceUri;
  if (uri === undefined) {
    throw new AppResourceError(
      `${who} names no UI resource (no _meta.ui.resourceUri); it is a plain tool, call it without a UI`,
      "no-ui-resource",
      { server, tool: toolName },
    );
  }
  const where = { server, tool: toolName, uri };
  const shown = JSON.stringify(clipText(uri, 200));
  const refuse = (code: AppResourceErrorCode, detail: string, cause?: unknown): never => {
    throw new AppResourceError(`${who}: UI resource ${shown} ${detail}`, code, { ...where, cause });
  };
  // apps.mdx "Content Requirements": URI MUST start with ui:// scheme.
  if (!uri.startsWith(UI_SCHEME)) refuse("not-ui-uri", `does not use the ${UI_SCHEME} scheme, which an MCP App resource must; it was not read`);

  let result: ReadResourceResult;
  try {
    result = await client.readResource(uri, readOptions);
  } catch (error) {
    if (error instanceof ResourceNotFoundError) {
      refuse("not-found", "does not exist on the server (resources/read: not found); the server must serve the resource its tool names", error);
    }
    return refuse("read-failed", `could not be read: ${messageOf(error)}`, error);
  }
  const contents: JsonObject[] = Array.isArray(result.contents) ? (result.contents as unknown[]).filter(isObject) : [];
  const content = contents.find((each) => each.uri === uri) ?? contents[0];
  if (content === undefined) return refuse("no-content", "was read but the result holds no contents");

  // apps.mdx: mimeType MUST be "text/html;profile=mcp-app" (other types reserved).
  const mimeType = content.mimeType;
  const problem = mimeTypeProblem(mimeType);
  if (problem !== undefined) refuse("not-html", `is not an MCP App: ${problem}; the server must serve it as ${APP_MIME_TYPE}`);

  let html: string;
  if (typeof content.text === "string") html = content.text;
  else if (typeof content.blob === "string") {
    try {
      html = decodeBase64Utf8(content.blob);
    } catch (error) {
      return refuse("no-content", `has a blob that is not base64 UTF-8 text (${messageOf(error)})`);
    }
  } else return refuse("no-content", "has neither text nor a base64 blob; an MCP App resource must carry its HTML in one");
  // apps.mdx: Content MUST be valid HTML5 document. We check only that it starts as markup.
  if (!/^\uFEFF?\s*</.test(html)) {
    refuse(
      "not-html",
      `is labelled ${APP_MIME_TYPE} but its content does not start with an HTML tag (${
        JSON.stringify(clipText(html.trimStart(), 40))
      }); serve an HTML document`,
    );
  }
  const ui = isObject(content._meta) && isObject(content._meta.ui) ? content._meta.ui : undefined;
  return { uri, mimeType: mimeType as string, html, ...(ui !== undefined ? { meta: ui } : {}) };
}

/**
 * Why a MIME type is not the MCP App type, or undefined when it is. Type and parameter names
 * compare without case and around whitespace (RFC 9110 media types): `text/html; profile=mcp-app`.
 */
export function mimeTypeProblem(mimeType: unknown): string | undefined {
  if (typeof mimeType !== "string" || mimeType.trim() === "") return "it has no mimeType";
  const [type = "", ...parameters] = mimeType.split(";");
  const shown = JSON.stringify(clipText(mimeType, 80));
  if (type.trim().toLowerCase() !== "text/html") return `its mimeType is ${shown}, not HTML`;
  const profile = parameters
    .map((parameter) => parameter.split("="))
    .find(([name = ""]) => name.trim().toLowerCase() === "profile");
  const value = profile?.[1]?.trim().replace(/^"(.*)"$/, "$1");
  if (value !== "mcp-app") return `its mimeType is ${shown}, HTML without profile=mcp-app`;
  return undefined;
}

function decodeBase64Utf8(blob: string): string {
  const binary = atob(blob);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
}
