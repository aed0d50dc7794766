// The check's capabilities family (docs/check.md): the capabilities a server declares kept both
// ways — a declared capability's list answered, a feature served only when declared, list_changed
// sent only when declared, no request for a capability the check client did not declare — spec
// 2025-11-25 basic/lifecycle ("Capability Negotiation", "Operation"), server/tools, server/resources,
// server/prompts ("Capabilities"); spec 2026-07-28 server/tools ("Capabilities").

import { answeredText, seenAt } from "./answer.ts";
import { DEFAULT_CHECK_TIMEOUT_MS } from "./check-options.ts";
import type { WalkResult } from "./list-walk.ts";
import type { Observed } from "./observed.ts";
import { type Judge, type Rule, rule } from "./rule.ts";
import type { CheckSession } from "./session.ts";

const FEATURES = ["tools", "resources", "prompts"] as const;
type Feature = (typeof FEATURES)[number];

function undeclaredRule(feature: Feature): Rule {
  return rule(
    `capabilities/${feature}-undeclared`,
    "MUST",
    `A server that serves ${feature}/list declares the ${feature} capability`,
    { source: "2025-11-25", page: `server/${feature}`, section: "Capabilities" },
    `Declare "${feature}" in your capabilities if you serve ${feature}; if you do not, answer ${feature}/list with error -32601.`,
  );
}

/** The rules of the capabilities family. */
export const CapabilityRules = {
  declaredListAnswers: rule(
    "capabilities/declared-list-answers",
    "MUST",
    "On the 2026-07-28 wire, each list method of a declared capability (tools, resources, prompts) is answered with a result",
    { source: "2026-07-28", page: "server/tools", section: "Capabilities" },
    "Serve tools/list (resources/list and resources/templates/list, prompts/list) for every capability you declare, or stop declaring it.",
  ),
  declaredListAnswersHandshake: rule(
    "capabilities/declared-list-answers-handshake",
    "SHOULD",
    "In the handshake era, each list method of a declared capability (tools, resources, prompts) is answered with a result",
    { source: "2025-11-25", page: "basic/lifecycle", section: "Capability Negotiation" },
    "Serve tools/list (resources/list and resources/templates/list, prompts/list) for every capability you declare, or stop declaring it.",
  ),
  toolsUndeclared: undeclaredRule("tools"),
  resourcesUndeclared: undeclaredRule("resources"),
  promptsUndeclared: undeclaredRule("prompts"),
  clientCapabilityRespected: rule(
    "capabilities/client-capability-respected",
    "MUST",
    "The server sends no sampling, elicitation or roots request to a client that did not declare that capability",
    { source: "2025-11-25", page: "basic/lifecycle", section: "Operation" },
    "Read the client's capabilities from initialize and send sampling/createMessage, elicitation/create or roots/list only to a client that declared them.",
  ),
} as const;

const UNDECLARED: Record<Feature, Rule> = {
  tools: CapabilityRules.toolsUndeclared,
  resources: CapabilityRules.resourcesUndeclared,
  prompts: CapabilityRules.promptsUndeclared,
};

/** Options of probeCapabilities. */
export interface CapabilityProbeOptions {
  /** Bound of each answer awaited. Default 10 s. */
  timeoutMs?: number;
}

/**
 * The active part of the capabilities family: each declared capability's lists (as the walk found
 * them) answered; each feature not declared asked for its list, which must not be served.
 */
export async function probeCapabilities(session: CheckSession, walked: WalkResult, judge: Judge, options: CapabilityProbeOptions = {}): Promise<void> {
  const R = CapabilityRules;
  const timeoutMs = options.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  const capabilities = session.observed().capabilities;
  const [declaredRule, other] = session.era === "modern"
    ? [R.declaredListAnswers, R.declaredListAnswersHandshake]
    : [R.declaredListAnswersHandshake, R.declaredListAnswers];
  judge.skip(other, session.era === "modern" ? "the session speaks the 2026-07-28 wire" : "the session speaks the initialize handshake");
  if (walked.walks.length === 0) judge.skip(declaredRule, "the server declares no tools, resources or prompts");
  for (const walk of walked.walks) {
    const failed = walk.pages.find((page) => !("result" in page));
    if (failed === undefined) judge.pass(declaredRule);
    else {
      const capability = walk.method.slice(0, walk.method.indexOf("/"));
      judge.fail(declaredRule, `the server declares ${capability}, but ${walk.method} ${answeredText(failed, timeoutMs)}`, seenAt(failed));
    }
  }
  for (const feature of FEATURES) {
    const undeclared = UNDECLARED[feature];
    if (capabilities[feature] !== undefined) {
      judge.skip(undeclared, `the server declares ${feature}`);
      continue;
    }
    const method = `${feature}/list`;
    const answer = await session.request(method, undefined, { timeoutMs });
    const listed = "result" in answer ? answer.result[feature] : undefined;
    // Served: a page holding items. An error, or an empty list, serves nothing.
    if (Array.isArray(listed) && listed.length > 0) {
      judge.fail(
        undeclared,
        `the server does not declare ${feature}, yet answered ${method} with ${listed.length} item(s)`,
        seenAt(answer, `/result/${feature}`),
      );
    } else judge.pass(undeclared);
  }
}

/**
 * The passive part of the capabilities family, over every message the session saw: no request
 * for a capability the check client did not declare (it declares none: session.ts
 * CHECK_CLIENT_CAPABILITIES). Which notifications a server may send is capability-use.ts's.
 */
export function judgeCapabilitiesKept(observed: Observed, judge: Judge): void {
  const R = CapabilityRules;
  let asked = 0;
  for (const seen of observed.messages) {
    if (seen.dir !== "receive") continue;
    const message = seen.message as unknown as Record<string, unknown>;
    const method = message.method;
    if (typeof method !== "string") continue;
    if ("id" in message && (method === "sampling/createMessage" || method === "elicitation/create" || method === "roots/list")) {
      asked++;
      judge.fail(R.clientCapabilityRespected, `the server sent ${method}, a request for a capability the check client did not declare`, { index: seen.index });
    }
  }
  if (asked === 0) judge.pass(R.clientCapabilityRespected);
}
