// Capabilities kept, seen passively by `mcpwire check` (area `capabilities`, docs/check.md): the
// notifications a server sent that what it declared (or, on the 2026-07-28 wire, what the client
// asked for) does not allow — a list_changed without `listChanged: true` (spec 2025-11-25
// basic/lifecycle "Operation": only negotiated capabilities are used), resources/updated without
// `resources.subscribe`, notifications/message without `logging` (server/utilities/logging).

import { isObject } from "../common/json.ts";
import { clipText } from "../common/preview.ts";
import type { Observed } from "./observed.ts";
import { type Judge, rule, type Seen } from "./rule.ts";
import { Tally } from "./tally.ts";

/** The rules of the passive capabilities family, by name. */
export const CapabilityUseRules = {
  listChangedUndeclared: rule(
    "capabilities/list-changed-undeclared",
    "MUST",
    "A list_changed notification is sent only when its capability declares listChanged: true",
    { source: "2025-11-25", page: "basic/lifecycle", section: "Operation" },
    "Declare `listChanged: true` in the `tools`, `prompts` or `resources` capability the notification is about, or stop sending it.",
  ),
  updatedWithoutSubscribe: rule(
    "capabilities/updated-without-subscribe",
    "MUST",
    "notifications/resources/updated is sent only when the resources capability declares subscribe: true",
    { source: "2025-11-25", page: "basic/lifecycle", section: "Operation" },
    "Declare `resources: { subscribe: true }` (and handle resources/subscribe), or stop sending notifications/resources/updated.",
  ),
  logWithoutLogging: rule(
    "capabilities/log-without-logging",
    "MUST",
    "notifications/message is sent only by a server that declares the logging capability",
    { source: "2025-11-25", page: "server/utilities/logging", section: "Capabilities" },
    "Declare `logging: {}` in the server's capabilities, or log to stderr instead of sending notifications/message.",
  ),
  unrequestedNotification: rule(
    "capabilities/unrequested-notification",
    "MUST",
    "A list_changed or resources/updated notification is sent only when a subscriptions/listen asked for it",
    { source: "2026-07-28", page: "basic/patterns/subscriptions", section: "Opening a Stream" },
    "Send change notifications only on a subscriptions/listen stream whose filter asked for that type (and, for resources/updated, that URI).",
  ),
  logWithoutLevel: rule(
    "capabilities/log-without-log-level",
    "MUST",
    "notifications/message is sent only for a request whose _meta set io.modelcontextprotocol/logLevel",
    { source: "2026-07-28", page: "server/utilities/logging", section: "Per-request log level" },
    "Emit log notifications only on the response stream of a request that asked for them with `io.modelcontextprotocol/logLevel`; log to stderr otherwise.",
  ),
} as const;

const LIST_CHANGED: Record<string, { capability: string; filter: string }> = {
  "notifications/tools/list_changed": { capability: "tools", filter: "toolsListChanged" },
  "notifications/prompts/list_changed": { capability: "prompts", filter: "promptsListChanged" },
  "notifications/resources/list_changed": { capability: "resources", filter: "resourcesListChanged" },
};
const UPDATED = "notifications/resources/updated";
const LOG = "notifications/message";
const LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel";

/** What one subscriptions/listen asked for. */
interface Requested {
  flags: Set<string>;
  uris: Set<string>;
}

function requestedBy(params: unknown): Requested {
  const requested: Requested = { flags: new Set(), uris: new Set() };
  const filter = isObject(params) ? params.notifications : undefined;
  if (!isObject(filter)) return requested;
  for (const [key, value] of Object.entries(filter)) if (value === true) requested.flags.add(key);
  if (Array.isArray(filter.resourceSubscriptions)) { for (const uri of filter.resourceSubscriptions) if (typeof uri === "string") requested.uris.add(uri); }
  return requested;
}

/** Judges each notification the server sent against what it declared (legacy) or what the client asked for (2026-07-28). */
export function judgeCapabilityUse(observed: Observed, judge: Judge): void {
  const tally = new Tally(judge);
  const modern = observed.era === "modern";
  const capabilities = observed.capabilities;
  const declares = (name: string, feature?: string): boolean => {
    const capability = capabilities[name];
    return isObject(capability) && (feature === undefined || capability[feature] === true);
  };
  const requested: Requested = { flags: new Set(), uris: new Set() };
  let logLevelAsked = false;

  for (const seen of observed.messages) {
    const message = seen.message as unknown as Record<string, unknown>;
    const method = message.method;
    if (typeof method !== "string") continue;
    if (seen.dir === "send") {
      if (message.id === undefined) continue;
      if (method === "subscriptions/listen") {
        const asked = requestedBy(message.params);
        for (const flag of asked.flags) requested.flags.add(flag);
        for (const uri of asked.uris) requested.uris.add(uri);
      }
      const meta = isObject(message.params) ? message.params._meta : undefined;
      if (isObject(meta) && meta[LOG_LEVEL_KEY] !== undefined) logLevelAsked = true;
      continue;
    }
    if (message.id !== undefined) continue;
    const where: Seen = { index: seen.index, pointer: "/method", excerpt: method };
    const listChanged = LIST_CHANGED[method];
    if (listChanged !== undefined) {
      if (modern) {
        if (requested.flags.has(listChanged.filter)) tally.held(CapabilityUseRules.unrequestedNotification);
        else tally.fail(CapabilityUseRules.unrequestedNotification, `${method} was sent, but no subscriptions/listen asked for ${listChanged.filter}`, where);
      } else if (declares(listChanged.capability, "listChanged")) tally.held(CapabilityUseRules.listChangedUndeclared);
      else {
        tally.fail(
          CapabilityUseRules.listChangedUndeclared,
          `${method} was sent, but the server's ${listChanged.capability} capability ${
            declares(listChanged.capability) ? "does not declare listChanged: true" : "is not declared"
          }`,
          where,
        );
      }
    } else if (method === UPDATED) {
      const uri = isObject(message.params) ? message.params.uri : undefined;
      if (modern) {
        if (typeof uri === "string" && requested.uris.has(uri)) tally.held(CapabilityUseRules.unrequestedNotification);
        else {
          tally.fail(
            CapabilityUseRules.unrequestedNotification,
            `${method} was sent for ${typeof uri === "string" ? JSON.stringify(clipText(uri, 80)) : "no uri"}, which no subscriptions/listen asked for`,
            where,
          );
        }
      } else if (declares("resources", "subscribe")) tally.held(CapabilityUseRules.updatedWithoutSubscribe);
      else tally.fail(CapabilityUseRules.updatedWithoutSubscribe, `${method} was sent, but the resources capability does not declare subscribe: true`, where);
    } else if (method === LOG) {
      if (declares("logging")) tally.held(CapabilityUseRules.logWithoutLogging);
      else tally.fail(CapabilityUseRules.logWithoutLogging, `${method} was sent, but the server does not declare the logging capability`, where);
      if (modern) {
        if (logLevelAsked) tally.held(CapabilityUseRules.logWithoutLevel);
        else tally.fail(CapabilityUseRules.logWithoutLevel, `${method} was sent before any request carried ${LOG_LEVEL_KEY} in its _meta`, where);
      }
    }
  }
  const era = (which: string) => `a rule of the ${which} (this session is ${modern ? "2026-07-28" : "an initialize"} one)`;
  tally.done(CapabilityUseRules.listChangedUndeclared, modern ? era("initialize era") : "the server sent no list_changed notification");
  tally.done(CapabilityUseRules.updatedWithoutSubscribe, modern ? era("initialize era") : "the server sent no notifications/resources/updated");
  tally.done(CapabilityUseRules.logWithoutLogging, "the server sent no notifications/message");
  tally.done(CapabilityUseRules.unrequestedNotification, modern ? "the server sent no change notification" : era("2026-07-28 era"));
  tally.done(CapabilityUseRules.logWithoutLevel, modern ? "the server sent no notifications/message" : era("2026-07-28 era"));
}
