// The MCP Apps extension as the client sees it (extension.ts): io.modelcontextprotocol/ui
// (SEP-1865, ext-apps specification/2026-01-26/apps.mdx). It claims nothing of the traffic and
// installs nothing: a tool's `_meta.ui` and its ui:// resource are read over the public Client (apps.ts).

import type { ClientExtension } from "../extension.ts";
import { EXTENSIONS } from "../extension-negotiation.ts";
import { APP_MIME_TYPE } from "./apps.ts";

/** The MCP Apps extension's identifier. */
export const APPS_ID = EXTENSIONS.apps;

/** MCP Apps: interactive UI as ui:// resources tied to tools. */
export const appsExtension: ClientExtension = {
  id: APPS_ID,
  // apps.mdx "Client (Host) Capabilities": mimeTypes is REQUIRED.
  settings: { mimeTypes: [APP_MIME_TYPE] },
  methods: ["resources/read"],
};
