// The entry `mcpwire/extensions` (docs/architecture.md, "Entries"): the extensions a Client is
// given beside tasks (ClientOptions.use: tasksExtension, from the root), and what writing one
// takes — an extension is a value (extension.ts) whose install() receives the client's context
// and gives back its links in the connection's chain (jsonrpc/middleware.ts).
//
//   import { Client, tasksExtension } from "mcpwire";
//   import { appsExtension, skillsExtension } from "mcpwire/extensions";
//   new Client(info, { use: [tasksExtension, skillsExtension, appsExtension] });

// Writing an extension: the value, what install() gives back, the context it receives, the chain.
export type { ClientExtension, ExtensionParts } from "../extension.ts";
export type { ClientContext } from "../client-context.ts";
export { composeChain } from "../../jsonrpc/middleware.ts";
export type { Chain, Hear, Middleware, Receive, Send } from "../../jsonrpc/middleware.ts";

// MCP Apps (io.modelcontextprotocol/ui): the declaration, and reading a tool's UI resource over the public Client.
export { appsExtension } from "../apps/apps-extension.ts";
export { AppResourceError, isAppCallable, isAppOnly, readToolUi, toolUi } from "../apps/apps.ts";
export type { AppResource, ToolUi, ToolVisibility } from "../apps/apps.ts";

// Skills (io.modelcontextprotocol/skills): the declaration (reading and verifying skills: ServerSkills of mcpwire/host).
export { skillsExtension } from "../skills/skills-extension.ts";
