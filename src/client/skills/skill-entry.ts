// A Skill entry of the Skills extension (io.modelcontextprotocol/skills, SEP-2640) and what a
// host checks of it before it fetches anything — ext-skills specification/stable/skills.mdx
// ("Skill Entries", "Resource Mapping", "Names", "Resources", "Limits"), and the refusals
// (SkillError) every skill check raises.

import { isObject } from "../../common/json.ts";
import { McpwireError } from "../../common/mcpwire-error.ts";
import type { SkillErrorCode } from "../errors.ts";

/** skills.mdx "Limits": resources per skill, SKILL.md included. */
export const MAX_SKILL_RESOURCES = 512;
/** skills.mdx "Limits": the sum of `size` over a skill's resources (16 MiB). */
export const MAX_SKILL_BYTES = 16 * 1024 * 1024;
/** Agent Skills specification: `description` is 1 to 1024 characters. */
export const MAX_SKILL_DESCRIPTION_CHARS = 1024;

/** A file of a skill, with the digest and size of its raw bytes (skills.mdx "Skill Entries"). */
export interface SkillResource {
  uri: string;
  /** `sha256:` and 64 lowercase hex digits. */
  digest: string;
  size: number;
}

/** The skill's SKILL.md frontmatter as the entry renders it; `name` and `description` always present. */
export interface SkillFrontmatter {
  name: string;
  description: string;
  [field: string]: unknown;
}

/** One skill as skills/list and skills/get describe it, checked. */
export interface Skill {
  /** Resource URI of the skill's SKILL.md. */
  uri: string;
  frontmatter: SkillFrontmatter;
  /** Every file of the skill, or "dynamic" when the server can publish no stable digests. */
  resources: SkillResource[] | "dynamic";
}

/** A skill refused, with the server, the skill and what was wrong. The connection is not affected. */
export class SkillError extends McpwireError<SkillErrorCode> {
  override readonly name = "SkillError";
  /** The host's label of the server. */
  readonly server: string;
  /** The skill's SKILL.md URI (or its name, when no URI is known). */
  readonly skill: string | undefined;
  /** The file concerned, when one is. */
  readonly file: string | undefined;
  constructor(message: string, code: SkillErrorCode, options: { server: string; skill?: string; file?: string; cause?: unknown }) {
    super(message, code, options);
    this.server = options.server;
    this.skill = options.skill;
    this.file = options.file;
  }
}

export type { SkillErrorCode };

const SKILL_FILE = "SKILL.md";
const DIGEST = /^sha256:[0-9a-f]{64}$/;
/** Agent Skills specification, `name`: lowercase letters, digits and single hyphens, not at either end. */
const SKILL_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** The problem with a skill name under the Agent Skills naming rules, or undefined when it is fine. */
export function skillNameProblem(name: string): string | undefined {
  if (name.length === 0 || name.length > 64) return `is ${name.length} characters long (1 to 64 allowed)`;
  if (!SKILL_NAME.test(name)) {
    return "is not lowercase letters, digits and single hyphens (no leading, trailing or consecutive hyphen)";
  }
  return undefined;
}

/** `skill://a/b/SKILL.md` → `skill://a/b`: the skill's root directory (skills.mdx "Resource Mapping"). */
export function skillRoot(uri: string): string {
  return uri.endsWith(`/${SKILL_FILE}`) ? uri.slice(0, -SKILL_FILE.length - 1) : uri;
}

/** The final path segment of a SKILL.md URI's root: the skill's name by the spec's path rule. */
export function finalSegment(uri: string): string | undefined {
  const root = skillRoot(uri);
  const scheme = root.indexOf("://");
  const path = scheme < 0 ? root : root.slice(scheme + 3);
  return path.split("/").filter((segment) => segment !== "").at(-1);
}

/**
 * What is wrong with one `/`-separated segment of a skill file's path or URI, or undefined.
 * The segment is percent-decoded once (as a server maps a URI to a file): a `.` or `..` segment,
 * a `/` or `\\` (a separator, plain or encoded: `..%2f`, `%2e%2e%5c`), a control character (NUL
 * among them, plain or `%00`), or a segment that does not decode is refused — each is a way a
 * path could reach outside the skill's directory on the server.
 */
function segmentProblem(segment: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return `its segment ${JSON.stringify(segment)} is not valid percent-encoded UTF-8`;
  }
  const shown = decoded === segment ? JSON.stringify(segment) : `${JSON.stringify(segment)} (decoded ${JSON.stringify(decoded)})`;
  if (decoded === "." || decoded === "..") {
    return `its segment ${shown} is a dot segment ("." or ".."), which leaves the skill's directory or hides where the path goes`;
  }
  if (decoded.includes("/") || decoded.includes("\\")) {
    return `its segment ${shown} holds a "/" or "\\", a separator that a server may follow out of the skill's directory`;
  }
  if (/[\u0000-\u001f\u007f]/.test(decoded)) return `its segment ${shown} holds a control character (NUL or another)`;
  return undefined;
}

/** True when a `/`-separated path has a segment segmentProblem refuses. */
function hasDotSegment(path: string): boolean {
  return path.split("/").some((segment) => segmentProblem(segment) !== undefined);
}

/** A file path relative to a skill's root, checked: what to send, or why not. */
export type SkillPathCheck = { ok: true; relative: string } | { ok: false; problem: string };

/**
 * Checks a file path that a model, a user or a skill gives relative to a skill's root
 * (`references/GUIDE.md`) — skills.mdx "Relative References", "The Acting Window". One leading
 * `./` is dropped; the rest is checked segment by segment (segmentProblem, each segment
 * decoded once) and `relative` is exactly the text checked: it is what is sent, never a
 * decoded or otherwise rewritten form. Every entry point (ServerSkills.readFile, the
 * `mcp_<server>_skill` loader, `mcpwire skills show --file`) goes through this one check.
 */
export function checkSkillPath(path: string): SkillPathCheck {
  const relative = path.startsWith("./") ? path.slice(2) : path;
  if (relative === "") return { ok: false, problem: "it is empty" };
  if (relative.startsWith("/")) return { ok: false, problem: `it starts with "/", which leaves the skill's directory` };
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(relative)) return { ok: false, problem: "it is a URI of its own, which leaves the skill's directory" };
  for (const segment of relative.split("/")) {
    const problem = segmentProblem(segment);
    if (problem !== undefined) return { ok: false, problem };
  }
  return { ok: true, relative };
}

/**
 * The path a caller gave for a file of a skill, checked (checkSkillPath), as the text to send;
 * a path refused is a SkillError `outside-skill` from `who` (`server "docs": skill "x"`).
 */
export function checkedSkillPath(path: string, who: string, where: { server: string; skill?: string }): string {
  const checked = checkSkillPath(path);
  if (checked.ok) return checked.relative;
  throw new SkillError(
    `${who}: the path ${JSON.stringify(path)} is refused: ${checked.problem}; only files inside the skill's directory can be read, ` +
      `by a plain relative path such as "references/GUIDE.md"`,
    "outside-skill",
    { ...where, file: path },
  );
}

/**
 * The URI of `path` inside the skill whose SKILL.md is `skillUri` — skills.mdx "Relative
 * References": resolved against the skill's root as a filesystem path would be. A path that
 * leaves the root (`../x`, an absolute path, a URI of its own) or may (checkSkillPath) is undefined.
 */
export function resolveSkillPath(skillUri: string, path: string): string | undefined {
  const checked = checkSkillPath(path);
  return checked.ok ? `${skillRoot(skillUri)}/${checked.relative}` : undefined;
}

/** Whether `uri` is the skill's SKILL.md or a file inside its directory (no dot segments). */
export function isInsideSkill(skillUri: string, uri: string): boolean {
  if (uri === skillUri) return true;
  const root = `${skillRoot(skillUri)}/`;
  return uri.startsWith(root) && uri.length > root.length && !hasDotSegment(uri.slice(root.length));
}

/** A file's path relative to the skill's root (`references/GUIDE.md`). */
export function skillPath(skillUri: string, uri: string): string {
  const root = `${skillRoot(skillUri)}/`;
  return uri.startsWith(root) ? uri.slice(root.length) : uri;
}

/**
 * Checks one entry from skills/list or skills/get before anything of it is fetched:
 * skills.mdx "Skill Entries" (shape), "Resource Mapping" (final segment = name, naming rules),
 * "Resources" (complete, SKILL.md listed, files inside the skill, digests), "Limits".
 * Throws a SkillError naming the server and the skill.
 */
export function checkSkillEntry(server: string, value: unknown): Skill {
  const uri = isObject(value) && typeof value.uri === "string" ? value.uri : undefined;
  const rawName = isObject(value) && isObject(value.frontmatter) && typeof value.frontmatter.name === "string" ? value.frontmatter.name : undefined;
  const who = `server "${server}": skill ${uri !== undefined ? JSON.stringify(uri) : rawName !== undefined ? JSON.stringify(rawName) : "(no uri)"}`;
  const where = { server, skill: uri ?? rawName };
  const refuse = (code: SkillErrorCode, detail: string): never => {
    throw new SkillError(`${who}: ${detail}; the skill is not loaded (the server must fix its entry)`, code, where);
  };
  if (!isObject(value)) return refuse("bad-entry", "the entry is not an object");
  if (uri === undefined || uri === "") return refuse("bad-entry", 'the entry has no "uri"');
  if (!uri.endsWith(`/${SKILL_FILE}`)) return refuse("bad-entry", `the uri does not end in /${SKILL_FILE}`);
  if (hasDotSegment(uri.slice(uri.indexOf("://") + 3))) return refuse("outside-skill", "the uri has a . or .. path segment");

  const frontmatter = value.frontmatter;
  if (!isObject(frontmatter)) return refuse("bad-entry", 'the entry has no "frontmatter" object');
  for (const field of ["name", "description"] as const) {
    const text = frontmatter[field];
    if (typeof text !== "string" || text.trim() === "") {
      refuse("missing-field", `the frontmatter has no "${field}" (the Agent Skills specification requires name and description)`);
    }
  }
  const name = frontmatter.name as string;
  const description = frontmatter.description as string;
  if (description.length > MAX_SKILL_DESCRIPTION_CHARS) {
    refuse("bad-entry", `the description is ${description.length} characters, over the Agent Skills limit of ${MAX_SKILL_DESCRIPTION_CHARS}`);
  }
  const nameProblem = skillNameProblem(name);
  if (nameProblem !== undefined) refuse("bad-name", `the name ${JSON.stringify(name)} ${nameProblem}`);
  const segment = finalSegment(uri);
  if (segment !== name) {
    refuse("bad-name", `the name ${JSON.stringify(name)} is not the uri's final path segment ${JSON.stringify(segment ?? "")}`);
  }

  const resources = value.resources;
  // skills.mdx "Resources": an entry without resources, or with anything but an array or "dynamic", MUST NOT be loaded.
  if (resources === "dynamic") return { uri, frontmatter: frontmatter as SkillFrontmatter, resources };
  if (!Array.isArray(resources)) return refuse("bad-entry", '"resources" is neither an array nor "dynamic"');
  if (resources.length > MAX_SKILL_RESOURCES) {
    refuse("too-large", `it lists ${resources.length} files, over the limit of ${MAX_SKILL_RESOURCES} per skill`);
  }
  const files: SkillResource[] = [];
  const seen = new Set<string>();
  let total = 0;
  for (const [index, item] of resources.entries()) {
    if (!isObject(item) || typeof item.uri !== "string") return refuse("bad-entry", `resources[${index}] has no "uri"`);
    const file = item.uri;
    if (!isInsideSkill(uri, file)) {
      refuse("outside-skill", `resources[${index}] ${JSON.stringify(file)} is not inside the skill's directory ${JSON.stringify(skillRoot(uri))}`);
    }
    if (seen.has(file)) refuse("bad-entry", `resources lists ${JSON.stringify(file)} twice`);
    seen.add(file);
    if (typeof item.digest !== "string" || !DIGEST.test(item.digest)) {
      refuse("bad-entry", `the digest of ${JSON.stringify(file)} is not "sha256:" and 64 lowercase hex digits`);
    }
    const size = item.size;
    if (typeof size !== "number" || !Number.isSafeInteger(size) || size < 0) {
      return refuse("bad-entry", `the size of ${JSON.stringify(file)} is not a whole number of bytes`);
    }
    if (size > MAX_SKILL_BYTES) refuse("too-large", `${JSON.stringify(file)} is ${size} bytes, over the ${MAX_SKILL_BYTES}-byte (16 MiB) limit per skill`);
    total += size;
    files.push({ uri: file, digest: item.digest as string, size });
  }
  if (total > MAX_SKILL_BYTES) refuse("too-large", `its files total ${total} bytes, over the ${MAX_SKILL_BYTES}-byte (16 MiB) limit per skill`);
  if (!seen.has(uri)) refuse("bad-entry", `resources does not list the skill's own ${SKILL_FILE}, so it cannot be verified`);
  return { uri, frontmatter: frontmatter as SkillFrontmatter, resources: files };
}
