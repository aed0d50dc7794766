// The manager's servers' skills offered through its registry: each ready server that declared
// the Skills extension (io.modelcontextprotocol/skills) gets its loader tool and its entries in
// the registry's SkillCatalog (registry/skill-tool.ts). A server whose listing fails is a warning.

import { EXTENSIONS } from "../../client/extension-negotiation.ts";
import { messageOf } from "../../common/error-text.ts";
import { type McpSkillsRegistration, registerMcpSkills } from "../../registry/skill-tool.ts";
import { RegistryEvent } from "../../registry/tool-registry.ts";
import type { McpManager } from "./manager.ts";

/**
 * Registers the skills of every ready server of `manager` that serves them; resolves with one
 * registration per server that offers skills. Reads no skill file (skills.mdx "Lazy Retrieval").
 * Each loader reaches its server through manager.client(name), so it follows a reconnect.
 */
export async function offerManagerSkills(manager: McpManager): Promise<McpSkillsRegistration[]> {
  const ready = manager.status().filter((status) => status.state === "ready" && manager.client(status.name)?.extension(EXTENSIONS.skills) !== undefined);
  const outcomes = await Promise.all(ready.map(async ({ name }) => {
    try {
      return await registerMcpSkills(manager.registry, name, () => manager.client(name), { redactor: manager.redactor });
    } catch (error) {
      const message = manager.redactor.redact(`server "${name}": its skills are not offered: ${messageOf(error)}`);
      manager.registry.dispatchEvent(new RegistryEvent("warning", { message }));
      return undefined;
    }
  }));
  return outcomes.filter((registration): registration is McpSkillsRegistration => registration !== undefined && registration.tool !== undefined);
}
