// A SKILL.md's YAML frontmatter: split from the body, parsed, and compared field by field with
// the entry the host holds — ext-skills skills.mdx ("Skill Format": SKILL.md MUST begin with YAML
// frontmatter; "Frontmatter Verification"). yaml is loaded on first use, so nothing that only
// imports this module loads it.

import { messageOf } from "../../common/error-text.ts";
import { isObject } from "../../common/json.ts";

type YamlModule = typeof import("yaml");
let loading: Promise<YamlModule> | undefined;

function loadYaml(): Promise<YamlModule> {
  loading ??= import("yaml");
  return loading;
}

/** A SKILL.md split in two: the frontmatter object and the markdown after it. */
export interface ParsedSkillFile {
  frontmatter: Record<string, unknown>;
  body: string;
}

/**
 * The frontmatter of a SKILL.md text, or a string saying why there is none: the text must
 * begin with a `---` line, and a later `---` line ends the YAML, which must be a mapping.
 */
export async function parseSkillFile(text: string): Promise<ParsedSkillFile | string> {
  const source = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const open = /^---[ \t]*\r?\n/.exec(source);
  if (open === null) return "does not begin with a --- line opening YAML frontmatter";
  const rest = source.slice(open[0].length);
  const close = /^---[ \t]*(\r?\n|$)/m.exec(rest);
  if (close === null) return "has no --- line closing its frontmatter";
  const yamlText = rest.slice(0, close.index);
  const body = rest.slice(close.index + close[0].length);
  const { parse } = await loadYaml();
  let value: unknown;
  try {
    // Plain JSON values only (no custom tags), as the entry renders the frontmatter.
    value = parse(yamlText, { uniqueKeys: true, maxAliasCount: 100 });
  } catch (error) {
    return `has frontmatter that is not valid YAML (${messageOf(error).split("\n")[0]})`;
  }
  if (!isObject(value)) return "has frontmatter that is not a YAML mapping";
  return { frontmatter: value, body };
}

/** JSON equality: same types, same array items in order, same keys with equal values. */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key], b[key]));
  }
  return false;
}

/**
 * The fields in which the file's frontmatter and the entry's differ (a field present in one and
 * not the other counts), in the order first met; [] when they are identical in content.
 */
export function frontmatterDifferences(file: Record<string, unknown>, entry: Record<string, unknown>): string[] {
  const fields = new Set([...Object.keys(file), ...Object.keys(entry)]);
  return [...fields].filter((field) => !jsonEqual(file[field], entry[field]));
}
