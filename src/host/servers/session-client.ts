// The Client of one configured server (server-connection.ts), from its config: one per server,
// made at its first connect and connected again after each loss (docs/architecture.md,
// "Reusable clients"). What it declares, answers and runs: the host's handlers, the server's
// roots and sampling policy, all three of mcpwire's extensions, the era cache and telemetry.

import { appsExtension } from "../../client/apps/apps-extension.ts";
import type { ClientOptions } from "../../client/client.ts";
import type { EraCache } from "../../client/era-cache.ts";
import { EXTENSIONS } from "../../client/extension-negotiation.ts";
import type { ClientHandlers } from "../../client/handlers.ts";
import type { JsonSchemaValidator } from "../../client/schema/schema-validator.ts";
import { skillsExtension } from "../../client/skills/skills-extension.ts";
import { tasksExtension } from "../../client/tasks/tasks-extension.ts";
import type { TelemetryOptions } from "../../client/telemetry.ts";
import { openTelemetry } from "../../client/telemetry/telemetry-layer.ts";
import type { ClientCapabilities } from "../../client/types.ts";
import { clientExtensions } from "../config/extensions-key.ts";
import type { ServerConfig } from "../config/types.ts";

/** What the host's supervision (server-connection.ts SupervisionOptions) says of every server's Client. */
export interface SessionClientChoices {
  capabilities?: ClientCapabilities;
  handlers?: ClientHandlers | ((server: ServerConfig) => ClientHandlers | undefined);
  eraCache?: EraCache;
  telemetry?: TelemetryOptions;
  jsonSchema?: JsonSchemaValidator;
  /** `false`: declare no tasks capability (McpManagerOptions.taskReceiver). */
  taskReceiver?: false;
}

/** The options of a configured server's Client (the host adds `unavailable`, which names its state). */
export function sessionClientOptions(config: ServerConfig, supervision: SessionClientChoices): ClientOptions {
  const { handlers } = supervision;
  const { roots, sampling } = config;
  const options: ClientOptions = {
    name: config.name,
    capabilities: supervision.capabilities,
    // connect_timeout bounds the handshake (server-connection.ts #open); initialize itself waits as long as that.
    initializeTimeoutMs: Infinity,
  };
  const chosen = typeof handlers === "function" ? handlers(config) : handlers;
  if (chosen !== undefined) options.handlers = chosen;
  if (roots !== undefined) options.roots = roots;
  if (sampling !== undefined) options.sampling = sampling;
  // A host meets tasks (the registry's task tools, `mcpwire task`), skills and apps: every server's client has the three.
  options.use = [tasksExtension, skillsExtension, appsExtension];
  options.extensions = clientExtensions(config); // config `extensions`: those turned off
  // Config key `tasks: never`: no task on the 2026-07-28 wire either (the extension is not declared).
  if (config.tasks === "never") options.extensions = { ...options.extensions, [EXTENSIONS.tasks]: false };
  // `mcpwire task --session`: the session a detached task runs in, joined without a handshake.
  if (config.session !== undefined) options.session = config.session;
  // Across runs: the era cache (file-era-cache.ts), keyed by the command line or the URL.
  if (supervision.eraCache !== undefined) options.eraCache = supervision.eraCache;
  if (supervision.telemetry !== undefined) options.telemetry = openTelemetry(supervision.telemetry);
  if (supervision.jsonSchema !== undefined) options.jsonSchema = supervision.jsonSchema;
  if (supervision.taskReceiver === false) options.taskReceiver = false;
  return options;
}
