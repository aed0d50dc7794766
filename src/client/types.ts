// The MCP shapes the client sends and receives — spec 2025-11-25 schema/schema.json.
// Only what the client reads is typed precisely; every object keeps unknown extra fields.

export type JsonObject = Record<string, unknown>;

/** spec 2025-11-25 schema: Implementation (clientInfo / serverInfo). */
export interface Implementation {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
  [key: string]: unknown;
}

export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: "light" | "dark";
}

/** spec 2025-11-25 schema: ClientCapabilities. */
export interface ClientCapabilities {
  roots?: { listChanged?: boolean };
  sampling?: { context?: JsonObject; tools?: JsonObject };
  elicitation?: { form?: JsonObject; url?: JsonObject };
  experimental?: Record<string, JsonObject>;
  [key: string]: unknown;
}

/** spec 2025-11-25 schema: ServerCapabilities. */
export interface ServerCapabilities {
  tools?: { listChanged?: boolean };
  resources?: { subscribe?: boolean; listChanged?: boolean };
  prompts?: { listChanged?: boolean };
  logging?: JsonObject;
  completions?: JsonObject;
  experimental?: Record<string, JsonObject>;
  [key: string]: unknown;
}

export interface InitializeResult {
  protocolVersion: string;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  instructions?: string;
}

/** spec 2025-11-25 schema: Annotations (on content and resources). */
export interface Annotations {
  audience?: ("user" | "assistant")[];
  priority?: number;
  lastModified?: string;
}

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** spec 2025-11-25 server/tools: Tool. */
export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonObject & { type: "object"; properties?: Record<string, JsonObject>; required?: string[] };
  outputSchema?: JsonObject;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: JsonObject;
  [key: string]: unknown;
}

export interface TextContent {
  type: "text";
  text: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}

export interface ImageContent {
  type: "image";
  /** base64 */
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}

export interface AudioContent {
  type: "audio";
  /** base64 */
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}

export interface ResourceLink {
  type: "resource_link";
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
  _meta?: JsonObject;
}

export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
  _meta?: JsonObject;
}

export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  /** base64 */
  blob: string;
  _meta?: JsonObject;
}

export type ResourceContents = TextResourceContents | BlobResourceContents;

export interface EmbeddedResource {
  type: "resource";
  resource: ResourceContents;
  annotations?: Annotations;
  _meta?: JsonObject;
}

/** spec 2025-11-25 schema: ContentBlock. */
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

/** spec 2025-11-25 server/tools: CallToolResult. A tool error is `isError: true`, not a throw. */
export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: JsonObject;
  isError?: boolean;
  _meta?: JsonObject;
  [key: string]: unknown;
}

/** spec 2025-11-25 server/resources: Resource. */
export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: JsonObject;
  [key: string]: unknown;
}

export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: JsonObject;
  [key: string]: unknown;
}

export interface ReadResourceResult {
  contents: ResourceContents[];
  _meta?: JsonObject;
  [key: string]: unknown;
}

export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

/** spec 2025-11-25 server/prompts: Prompt. */
export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: JsonObject;
  [key: string]: unknown;
}

export interface PromptMessage {
  role: "user" | "assistant";
  content: ContentBlock;
}

export interface GetPromptResult {
  description?: string;
  messages: PromptMessage[];
  _meta?: JsonObject;
  [key: string]: unknown;
}

/** spec 2025-11-25 server/utilities/completion: what is being completed. */
export type CompleteReference =
  | { type: "ref/prompt"; name: string }
  | { type: "ref/resource"; uri: string };

export interface CompleteResult {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

/** spec 2025-11-25 server/utilities/logging: syslog severities, least severe first. */
export const LOGGING_LEVELS = [
  "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency",
] as const;
export type LoggingLevel = (typeof LOGGING_LEVELS)[number];

/** What `notifications/message` carries. */
export interface LogMessage {
  level: LoggingLevel;
  logger?: string;
  data: unknown;
}
