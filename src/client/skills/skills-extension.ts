// The skills extension as the client sees it (extension.ts): io.modelcontextprotocol/skills
// (SEP-2640, ext-skills specification/stable/skills.mdx). It claims nothing of the traffic and
// installs nothing: ServerSkills (skills.ts) works over the public Client once both sides declared it.

import type { ClientExtension } from "../extension.ts";
import { EXTENSIONS } from "../extension-negotiation.ts";

/** The skills extension's identifier. */
export const SKILLS_ID = EXTENSIONS.skills;

/** Skills served over resources: skills/list, skills/get, and each skill's files through resources/read. */
export const skillsExtension: ClientExtension = {
  id: SKILLS_ID,
  // skills.mdx ("Capability Negotiation"): no settings are defined; {} declares support.
  settings: {},
  methods: ["skills/list", "skills/get", "resources/read"],
};
