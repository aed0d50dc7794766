// The MCP shapes the client sends and receives — spec 2025-11-25 schema/schema.json.
// Only what the client reads is typed precisely; every object keeps unknown extra fields.

/** A JSON object: tool arguments, `_meta`, structured content. */
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
  /** spec 2025-11-25 basic/utilities/tasks ("Client Capabilities"): what the server may ask as a task. */
  tasks?: {
    list?: JsonObject;
    cancel?: JsonObject;
    requests?: { sampling?: { createMessage?: JsonObject }; elicitation?: { create?: JsonObject } };
  };
  experimental?: Record<string, JsonObject>;
  /** spec 2026-07-28 basic/versioning ("Extension Negotiation"): identifier → settings. */
  extensions?: Record<string, JsonObject>;
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
  /** spec 2025-11-25 basic/utilities/tasks ("Server Capabilities"); gone on the 2026-07-28 wire. */
  tasks?: { list?: JsonObject; cancel?: JsonObject; requests?: { tools?: { call?: JsonObject } } };
  /** spec 2026-07-28 basic/versioning ("Extension Negotiation"): identifier → settings. */
  extensions?: Record<string, JsonObject>;
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
  /** spec 2025-11-25 basic/utilities/tasks ("Tool-Level Negotiation"): absent means forbidden. */
  execution?: { taskSupport?: "required" | "optional" | "forbidden" };
  _meta?: JsonObject;
  [key: string]: unknown;
}

/** spec 2025-11-25 schema: TextContent. */
export interface TextContent {
  type: "text";
  text: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}

/** spec 2025-11-25 schema: ImageContent (base64 data and its MIME type). */
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

/** spec 2025-11-25 schema: ResourceLink — a Resource in a content block. */
export interface ResourceLink extends Resource {
  type: "resource_link";
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

/** spec 2025-11-25 server/resources: ResourceTemplate. */
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

/** spec 2025-11-25 server/resources: ReadResourceResult. */
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

/** spec 2025-11-25 server/prompts: GetPromptResult. */
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
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
] as const;
/** A syslog severity (`debug` … `emergency`) of `notifications/message` and `logging/setLevel`. */
export type LoggingLevel = (typeof LOGGING_LEVELS)[number];

/** What `notifications/message` carries. */
export interface LogMessage {
  level: LoggingLevel;
  logger?: string;
  data: unknown;
}

// --- what the server asks the client (spec 2025-11-25 client/*) --------------------------

/** spec 2025-11-25 client/roots: Root. `uri` MUST be a `file://` URI for now. */
export interface Root {
  uri: string;
  name?: string;
  _meta?: JsonObject;
  [key: string]: unknown;
}

/** One property of a form-mode requestedSchema — spec 2025-11-25 schema: PrimitiveSchemaDefinition. */
export interface PrimitiveSchemaDefinition {
  type: "string" | "number" | "integer" | "boolean" | "array";
  title?: string;
  description?: string;
  default?: ElicitValue;
  /** string */
  format?: "email" | "uri" | "date" | "date-time";
  minLength?: number;
  maxLength?: number;
  /** number / integer */
  minimum?: number;
  maximum?: number;
  /** untitled single-select enum, and the legacy titled one with `enumNames` */
  enum?: string[];
  enumNames?: string[];
  /** titled single-select enum */
  oneOf?: { const: string; title: string }[];
  /** multi-select enums: `items.enum` (untitled) or `items.anyOf` (titled) */
  items?: { type?: "string"; enum?: string[]; anyOf?: { const: string; title: string }[] };
  minItems?: number;
  maxItems?: number;
  [key: string]: unknown;
}

/** spec 2025-11-25 client/elicitation ("Requested Schema"): a flat object of primitives. */
export interface ElicitationSchema {
  $schema?: string;
  type: "object";
  properties: Record<string, PrimitiveSchemaDefinition>;
  required?: string[];
  [key: string]: unknown;
}

export type ElicitValue = string | number | boolean | string[];

/** spec 2025-11-25 schema: ElicitRequestFormParams (mode defaults to "form"). */
export interface ElicitFormRequest {
  mode: "form";
  message: string;
  requestedSchema: ElicitationSchema;
  _meta?: JsonObject;
}

/** spec 2025-11-25 schema: ElicitRequestURLParams. */
export interface UrlElicitation {
  mode: "url";
  message: string;
  url: string;
  elicitationId: string;
  _meta?: JsonObject;
}

/** spec 2025-11-25 schema: ElicitResult. `content` only with `accept` in form mode. */
export interface ElicitResult {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, ElicitValue>;
  _meta?: JsonObject;
  [key: string]: unknown;
}

/** spec 2025-11-25 schema: ToolUseContent / ToolResultContent (sampling with tools). */
export interface ToolUseContent {
  type: "tool_use";
  id: string;
  name: string;
  input: JsonObject;
  _meta?: JsonObject;
}

export interface ToolResultContent {
  type: "tool_result";
  toolUseId: string;
  content: ContentBlock[];
  structuredContent?: JsonObject;
  isError?: boolean;
  _meta?: JsonObject;
}

export type SamplingContent = TextContent | ImageContent | AudioContent | ToolUseContent | ToolResultContent;

/** spec 2025-11-25 schema: SamplingMessage. */
export interface SamplingMessage {
  role: "user" | "assistant";
  content: SamplingContent | SamplingContent[];
  _meta?: JsonObject;
}

export interface ModelPreferences {
  hints?: { name?: string }[];
  costPriority?: number;
  speedPriority?: number;
  intelligencePriority?: number;
}

/** spec 2025-11-25 schema: CreateMessageRequestParams. */
export interface CreateMessageRequest {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  modelPreferences?: ModelPreferences;
  /** Soft-deprecated; mcpwire always treats it as "none" (spec 2025-11-25 client/sampling). */
  includeContext?: "none" | "thisServer" | "allServers";
  temperature?: number;
  stopSequences?: string[];
  metadata?: JsonObject;
  tools?: Tool[];
  toolChoice?: { mode?: "auto" | "required" | "none" };
  _meta?: JsonObject;
  [key: string]: unknown;
}

/** spec 2025-11-25 schema: CreateMessageResult. */
export interface CreateMessageResult {
  role: "user" | "assistant";
  content: SamplingContent | SamplingContent[];
  model: string;
  stopReason?: "endTurn" | "stopSequence" | "maxTokens" | "toolUse" | string;
  _meta?: JsonObject;
  [key: string]: unknown;
}

/** spec 2025-11-25 basic/utilities/tasks ("Task Status Lifecycle"); the 2026-07-28 tasks extension keeps the same five. */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** What `onTaskStatus` and the `taskStatus` event receive when a task's status or message changes. */
export interface TaskStatusUpdate {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
}

/** How the client keeps the tasks a server asks it to run (ClientOptions.taskReceiver; the tasks extension's receiver). */
export interface TaskReceiverOptions {
  /** Tasks kept at once, running or finished; a new one evicts the oldest finished one. Default 100. */
  maxTasks?: number;
  /** The longest ttl granted (a longer or absent request gets this). Default 1 hour. */
  maxTtlMs?: number;
  /** The pollInterval suggested to the server. Default 1000 ms. */
  pollIntervalMs?: number;
}
