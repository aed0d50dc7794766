// What each MCP method and notification is for, in one sentence, and the spec section it comes
// from: the table `mcpwire trace show --explain` prints from, the first time a method appears.
// Every entry cites the spec text under shared/spec by its path without the extension; the
// methods are those of the schemas of 2025-11-25 and 2026-07-28 (schema/schema.json).

/** One method or notification explained: what it is for, and where the spec says so. */
export interface MethodGuideEntry {
  /** One sentence: what the message is for. */
  text: string;
  /** `spec 2025-11-25 server/tools`: the spec version and the section's path under shared/spec. */
  spec: string;
}

/** Every MCP method and notification, by its method name. */
export const METHOD_GUIDE: Readonly<Record<string, MethodGuideEntry>> = {
  // Lifecycle and the era (spec 2025-11-25 basic/lifecycle, 2026-07-28 basic/versioning).
  "initialize": {
    text: "The client's first request on the 2025-11-25 wire: it offers a protocol version and its capabilities, the server answers with its own.",
    spec: "spec 2025-11-25 basic/lifecycle",
  },
  "notifications/initialized": {
    text: "The client says the initialize handshake is done; only then may normal requests flow.",
    spec: "spec 2025-11-25 basic/lifecycle",
  },
  "server/discover": {
    text: "The 2026-07-28 stateless probe: the server says which protocol versions, capabilities and identity it has, with no session to set up.",
    spec: "spec 2026-07-28 server/discover",
  },
  "ping": {
    text: "Either side checks that the other is still there; the answer is an empty result.",
    spec: "spec 2025-11-25 basic/utilities/ping",
  },
  // Utilities.
  "notifications/cancelled": {
    text: "The sender of a request says it no longer wants the answer (the receiver should stop working on it).",
    spec: "spec 2025-11-25 basic/utilities/cancellation",
  },
  "notifications/progress": {
    text: "Progress of a long request, tied to it by the progressToken the requester put in _meta.",
    spec: "spec 2025-11-25 basic/utilities/progress",
  },
  "logging/setLevel": {
    text: "The client sets the lowest log level the server should send as notifications/message.",
    spec: "spec 2025-11-25 server/utilities/logging",
  },
  "notifications/message": {
    text: "A log message from the server (level, logger, data) for the client to show or keep.",
    spec: "spec 2025-11-25 server/utilities/logging",
  },
  "completion/complete": {
    text: "The client asks for completions of a prompt's or resource template's argument as the user types.",
    spec: "spec 2025-11-25 server/utilities/completion",
  },
  // Tools.
  "tools/list": {
    text: "The client asks which tools the server offers: names, descriptions and input (and output) JSON Schemas; paginated.",
    spec: "spec 2025-11-25 server/tools",
  },
  "tools/call": {
    text: "The client runs one tool with arguments; the result is content blocks (and structuredContent), isError for a tool's own failure.",
    spec: "spec 2025-11-25 server/tools",
  },
  "notifications/tools/list_changed": {
    text: "The server says its list of tools changed, so the client should call tools/list again.",
    spec: "spec 2025-11-25 server/tools",
  },
  // Resources.
  "resources/list": {
    text: "The client asks which resources (data addressed by URI) the server exposes; paginated.",
    spec: "spec 2025-11-25 server/resources",
  },
  "resources/templates/list": {
    text: "The client asks for the server's resource templates: URI templates the client fills in to name resources.",
    spec: "spec 2025-11-25 server/resources",
  },
  "resources/read": {
    text: "The client reads one resource by URI; the answer holds its text or base64 blob contents.",
    spec: "spec 2025-11-25 server/resources",
  },
  "resources/subscribe": {
    text: "The client asks to be told (notifications/resources/updated) when one resource changes.",
    spec: "spec 2025-11-25 server/resources",
  },
  "resources/unsubscribe": {
    text: "The client stops a subscription made with resources/subscribe.",
    spec: "spec 2025-11-25 server/resources",
  },
  "notifications/resources/updated": {
    text: "The server says a resource the client subscribed to changed; the client may read it again.",
    spec: "spec 2025-11-25 server/resources",
  },
  "notifications/resources/list_changed": {
    text: "The server says its list of resources changed, so the client should call resources/list again.",
    spec: "spec 2025-11-25 server/resources",
  },
  // Prompts.
  "prompts/list": {
    text: "The client asks which prompt templates the server offers, with their arguments; paginated.",
    spec: "spec 2025-11-25 server/prompts",
  },
  "prompts/get": {
    text: "The client fills in one prompt template with arguments and gets the messages it makes.",
    spec: "spec 2025-11-25 server/prompts",
  },
  "notifications/prompts/list_changed": {
    text: "The server says its list of prompts changed, so the client should call prompts/list again.",
    spec: "spec 2025-11-25 server/prompts",
  },
  // Client features: the server asks the client.
  "sampling/createMessage": {
    text: "The server asks the client's model for a completion (the client may show it to the user first).",
    spec: "spec 2025-11-25 client/sampling",
  },
  "elicitation/create": {
    text: "The server asks the user, through the client, for input: a form with a JSON Schema, or a URL to visit.",
    spec: "spec 2025-11-25 client/elicitation",
  },
  "notifications/elicitation/complete": {
    text: "The server says an out-of-band (URL mode) elicitation it started has finished.",
    spec: "spec 2025-11-25 client/elicitation",
  },
  "roots/list": {
    text: "The server asks the client which filesystem roots (file:// URIs) it may work within.",
    spec: "spec 2025-11-25 client/roots",
  },
  "notifications/roots/list_changed": {
    text: "The client says its list of roots changed, so the server should call roots/list again.",
    spec: "spec 2025-11-25 client/roots",
  },
  // Tasks (spec 2025-11-25 basic/utilities/tasks): a request run as a task answers at once with a task.
  "tasks/get": {
    text: "The requester polls a task's status (working, input_required, completed, failed, cancelled).",
    spec: "spec 2025-11-25 basic/utilities/tasks",
  },
  "tasks/result": {
    text: "The requester fetches the result of a task, waiting until it is done.",
    spec: "spec 2025-11-25 basic/utilities/tasks",
  },
  "tasks/list": {
    text: "The requester lists the tasks the receiver holds for it; paginated.",
    spec: "spec 2025-11-25 basic/utilities/tasks",
  },
  "tasks/cancel": {
    text: "The requester cancels a task that has not finished.",
    spec: "spec 2025-11-25 basic/utilities/tasks",
  },
  "notifications/tasks/status": {
    text: "The receiver says a task's status changed, so the requester need not poll.",
    spec: "spec 2025-11-25 basic/utilities/tasks",
  },
  // Subscriptions on the 2026-07-28 wire (no session: one long request carries the notifications).
  "subscriptions/listen": {
    text: "The 2026-07-28 client opens a long-lived request asking for the list-changed and resource-updated notifications it wants.",
    spec: "spec 2026-07-28 basic/patterns/subscriptions",
  },
  "notifications/subscriptions/acknowledged": {
    text: "The server confirms which subscriptions a subscriptions/listen request holds.",
    spec: "spec 2026-07-28 basic/patterns/subscriptions",
  },
};

/** The guide's entry for `method`, or undefined for a method MCP does not define. */
export function methodGuide(method: string): MethodGuideEntry | undefined {
  return Object.hasOwn(METHOD_GUIDE, method) ? METHOD_GUIDE[method] : undefined;
}
