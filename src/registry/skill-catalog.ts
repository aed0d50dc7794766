// The skills a ToolRegistry offers a model, per server: what the agent lists up front (name,
// description, origin) and the tool that loads each — ext-skills skills.mdx ("Names": resolved
// within a per-origin namespace; "Skill URIs": identity is the server and the uri). Kept beside
// the registry rather than in it, and free of the skill loader, so reading it loads no YAML.

/** One skill as offered to a model. */
export interface OfferedSkill {
  /** The host's label of the server that serves it. */
  server: string;
  /** The key the loader tool takes: the skill's name, or its path when two of the server's skills share a name. */
  key: string;
  /** The frontmatter name. */
  name: string;
  description: string;
  /** The URI of its SKILL.md. */
  uri: string;
  /** The registered name of the tool that loads it. */
  tool: string;
}

/** The skills offered through one registry, by server, in the order servers were added. */
export class SkillCatalog {
  readonly #servers = new Map<string, OfferedSkill[]>();

  /** Makes `skills` the offer of `server` (an empty list removes it). */
  set(server: string, skills: readonly OfferedSkill[]): void {
    if (skills.length === 0) this.#servers.delete(server);
    else this.#servers.set(server, skills.map((skill) => ({ ...skill })));
  }

  remove(server: string): void {
    this.#servers.delete(server);
  }

  /** Every offered skill, server by server. */
  list(): OfferedSkill[] {
    return [...this.#servers.values()].flat().map((skill) => ({ ...skill }));
  }

  /** One server's offered skills. */
  of(server: string): OfferedSkill[] {
    return (this.#servers.get(server) ?? []).map((skill) => ({ ...skill }));
  }
}

const catalogs = new WeakMap<object, SkillCatalog>();

/** The catalog of a registry, made on first use. */
export function skillCatalogOf(registry: object): SkillCatalog {
  let catalog = catalogs.get(registry);
  if (catalog === undefined) catalogs.set(registry, catalog = new SkillCatalog());
  return catalog;
}

/** The catalog of a registry if skills were ever registered in it. */
export function existingSkillCatalog(registry: object): SkillCatalog | undefined {
  return catalogs.get(registry);
}
