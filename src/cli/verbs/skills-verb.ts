// `mcpwire skills [SERVER]`: the skills the configured servers serve (Skills extension,
// io.modelcontextprotocol/skills — ext-skills skills.mdx "Listing Skills"), read from their entries
// only; `mcpwire skills show <server> <skill>` loads one (SKILL.md verified) and prints it.

import { EXTENSIONS } from "../../client/extension-negotiation.ts";
import { checkedSkillPath, skillRoot } from "../../client/skills/skill-entry.ts";
import { ServerSkills, type Skill, SkillError } from "../../client/skills/skills.ts";
import { fitLine } from "../../common/preview.ts";
import type { McpwireConfig } from "../../host/config/types.ts";
import type { McpManager } from "../../host/servers/manager.ts";
import { parseArgs, UsageError } from "../args.ts";
import { EXIT } from "../exit-codes.ts";
import { lineOf, textOf, write, writeJson } from "../output.ts";
import { AD_HOC_USAGE } from "../session/ad-hoc-servers.ts";
import { configSource, parseLogLevel, SESSION_OPTIONS, TRACE_USAGE, withManager } from "../session/host-session.ts";
import { impliedServer, readyClient, serverAndWords } from "../session/server-choice.ts";
import { configCode, reach } from "../session/server-reach.ts";
import { renderTable } from "../table.ts";

export const SKILLS_USAGE = `usage: mcpwire skills [SERVER] [--config FILE] [--import APP[,APP]] [--json] [--log-level LEVEL]
       mcpwire skills show <server> <skill> [--file PATH] [--config FILE] [--json]

Starts the configured servers and lists the skills of those that serve them (the Skills
extension, ${EXTENSIONS.skills}): server, name, description, files. Listing reads no skill
file. Entries that break the spec (a missing name or description, a bad name, a file outside
the skill, over the 16 MiB limit) are refused with the reason on stderr.

show loads one skill: its SKILL.md is read and verified against the listed entry (size,
sha256 digest, frontmatter) and printed; --file PATH prints one of its files instead
(relative to the skill's root, verified too). <skill> is the skill's name, its path
(acme/billing/refunds) when names repeat, or its SKILL.md URI. With one server given on the
command line (--stdio, --http, --sse), <server> may be left out.

--json prints { skills: [...], refused: [{ server, skill, refusal, message }], unreached:
[{ server, state, error }] } (show: the loaded skill as an object).

${AD_HOC_USAGE}

${TRACE_USAGE}

exit codes: 0 listed / shown, 1 a skill or file refused (digest, size, frontmatter, path), or
            a server's listing failed (it serves no skills, or answers skills/list with an
            error; the other servers are still listed), 2 usage or config error, 3 a server
            could not be reached (the others' skills are listed; none reached: nothing is)`;

export const SKILLS_OPTIONS = { ...SESSION_OPTIONS, json: { kind: "flag" }, file: { kind: "string" } } as const;

/** The skill's path without its scheme: `acme/billing/refunds`. */
function pathOf(skill: Skill): string {
  const root = skillRoot(skill.uri);
  return root.slice(root.indexOf("://") + 3);
}

/** The servers to ask: the one named, or every ready one whose client negotiated skills. */
function serversOf(manager: McpManager, named: string | undefined): string[] {
  const statuses = manager.status();
  if (named !== undefined) {
    if (!statuses.some((status) => status.name === named)) {
      throw new UsageError(`no server "${named}" in the config (servers: ${statuses.map((status) => status.name).join(", ") || "none"})`);
    }
    return [named];
  }
  return statuses.filter((status) => status.state === "ready" && manager.client(status.name)?.extension(EXTENSIONS.skills) !== undefined).map((status) =>
    status.name
  );
}

function skillsOf(manager: McpManager, server: string): ServerSkills {
  const client = manager.client(server);
  if (client === undefined) {
    const status = manager.status().find((entry) => entry.name === server);
    throw new SkillError(`server "${server}" is ${status?.state ?? "not running"}${status?.lastError ? `: ${status.lastError}` : ""}`, "not-declared", {
      server,
    });
  }
  return new ServerSkills(client, { server });
}

export async function skills(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, SKILLS_OPTIONS);
  if (args.flags.has("help")) {
    await write("stdout", SKILLS_USAGE + "\n");
    return 0;
  }
  const [first, ...rest] = args.positional;
  const show = first === "show";
  const source = configSource(args);
  // With one server on the command line, <server> may be left out (server-choice.ts serverAndWords).
  const needs = "skills show needs a server and a skill: mcpwire skills show <server> <skill>";
  if (show && (rest.length > 2 || rest.length < (impliedServer(source) ? 1 : 2))) throw new UsageError(needs);
  if (!show && rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`);
  if (!show && args.values.has("file")) throw new UsageError("--file goes with skills show");
  const file = args.values.get("file");
  // What the words name, as far as they say before the config is read (one word: the command line's server's skill).
  let [server, skill] = rest.length === 1 ? [source.commandLineServers?.[0]?.name ?? "", rest[0]!] : [rest[0] ?? "", rest[1] ?? ""];
  if (show && file !== undefined) {
    // A path that could leave the skill is refused before any server is started (the same check readFile makes).
    try {
      checkedSkillPath(file, `server "${server}": skill "${skill}"`, { server, skill });
    } catch (error) {
      if (!(error instanceof SkillError)) throw error;
      await write("stderr", `mcpwire skills: ${lineOf(error.message)}\n`);
      return 1;
    }
  }
  const onConfig = (config: McpwireConfig) => {
    if (!show) return;
    const chosen = serverAndWords(config, rest, (words) => words.length === 1);
    const [named, extra] = chosen.rest;
    if (chosen.server === undefined || named === undefined || extra !== undefined) throw new UsageError(needs);
    [server, skill] = [chosen.server, named];
  };
  const logLevel = parseLogLevel(args.values.get("log-level"));
  return await withManager({ ...source, showLogs: false, logLevel, onConfig, listing: !show }, async (manager, config) => {
    const fromConfig = configCode(config, show ? server : first);
    try {
      const code = show ? await showSkill(manager, server, skill, file, args.flags.has("json")) : await listSkills(manager, first, args.flags.has("json"));
      return Math.max(code, fromConfig);
    } catch (error) {
      if (!(error instanceof SkillError)) throw error;
      await write("stderr", `mcpwire skills: ${lineOf(error.message)}\n`);
      return 1;
    }
  });
}

async function listSkills(manager: McpManager, named: string | undefined, json: boolean): Promise<number> {
  const servers = serversOf(manager, named);
  // A server that could not be reached is said, and with none reached nothing is listed (server-reach.ts).
  const reached = reach(manager, "skills", named === undefined ? {} : { only: named });
  if (reached.none) return reached.code;
  const listed: { server: string; skill: Skill }[] = [];
  const refused: SkillError[] = [];
  const failed: SkillError[] = [];
  for (const server of servers) {
    try {
      const listing = await skillsOf(manager, server).list();
      for (const skill of listing.skills) listed.push({ server, skill });
      refused.push(...listing.refused);
    } catch (error) {
      // One server's failure (it declared the extension and answers -32601, …) does not hide the others'.
      if (named !== undefined || !(error instanceof SkillError)) throw error;
      failed.push(error);
    }
  }
  for (const error of failed) await write("stderr", `mcpwire skills: ${lineOf(error.message)}\n`);
  const code = Math.max(reached.code, failed.length > 0 ? 1 : 0);
  if (json) {
    await writeJson({
      skills: listed.map(({ server, skill }) => ({
        server,
        name: skill.frontmatter.name,
        description: skill.frontmatter.description,
        uri: skill.uri,
        frontmatter: skill.frontmatter,
        resources: skill.resources,
      })),
      // `refusal`, not `code`: a member named like an OAuth code is redacted on output.
      refused: refused.map((error) => ({ server: error.server, skill: error.skill ?? null, refusal: error.code, message: error.message })),
      unreached: reached.unreached,
    });
    return code;
  }
  // Names, descriptions and URIs are the servers' text: one line each, escapes visible.
  const rows = listed.map(({ server, skill }) => [
    lineOf(server),
    lineOf(skill.frontmatter.name),
    fitLine(lineOf(skill.frontmatter.description), 70),
    skill.resources === "dynamic" ? "dynamic" : String(skill.resources.length),
    lineOf(skill.uri),
  ]);
  await write("stdout", renderTable(["SERVER", "SKILL", "DESCRIPTION", "FILES", "URI"], rows));
  for (const error of refused) await write("stderr", `refused: ${lineOf(error.message)}\n`);
  return code;
}

/** The listed skill `wanted` names: by name when one has it, else by path or URI. */
function findSkill(server: string, skills: Skill[], wanted: string): Skill {
  const exact = skills.filter((skill) => skill.uri === wanted || pathOf(skill) === wanted);
  if (exact.length === 1) return exact[0]!;
  const named = skills.filter((skill) => skill.frontmatter.name === wanted);
  if (named.length === 1) return named[0]!;
  if (named.length > 1) {
    throw new UsageError(`server "${server}" has ${named.length} skills named "${wanted}"; name one by its path: ${named.map(pathOf).join(", ")}`);
  }
  throw new UsageError(`server "${server}" lists no skill "${wanted}" (its skills: ${skills.map((skill) => skill.frontmatter.name).join(", ") || "none"})`);
}

async function showSkill(manager: McpManager, server: string, wanted: string, file: string | undefined, json: boolean): Promise<number> {
  serversOf(manager, server);
  if (readyClient(manager, server, "skills") === undefined) return EXIT.server;
  const serverSkills = skillsOf(manager, server);
  const listing = await serverSkills.list();
  let skill: Skill;
  try {
    skill = findSkill(server, listing.skills, wanted);
  } catch (error) {
    // A refused entry is named as refused, with its reason, rather than as missing.
    const refusal = listing.refused.find((entry) => entry.skill === wanted || entry.skill?.includes(`://${wanted}/`));
    if (refusal !== undefined) throw refusal;
    throw error;
  }
  const loaded = await serverSkills.load(skill);
  if (file !== undefined) {
    const read = await serverSkills.readFile(loaded, file);
    if (json) {
      await writeJson({
        server,
        skill: skill.uri,
        path: read.path,
        uri: read.uri,
        mimeType: read.mimeType ?? null,
        verified: read.verified,
        text: read.text ?? null,
        bytes: read.bytes.length,
      });
    } else {
      await write(
        "stdout",
        read.text !== undefined ? textOf(read.text.endsWith("\n") ? read.text : `${read.text}\n`) : `(binary, ${read.bytes.length} bytes)\n`,
      );
    }
    return 0;
  }
  if (json) {
    await writeJson({ server, uri: skill.uri, frontmatter: skill.frontmatter, verified: loaded.verified, files: loaded.files, text: loaded.text });
    return 0;
  }
  const files = loaded.files.length === 0 ? "" : `; files: ${loaded.files.map(lineOf).join(", ")}`;
  await write(
    "stderr",
    `skill "${lineOf(skill.frontmatter.name)}" from server "${lineOf(server)}" (${lineOf(skill.uri)}), ${
      loaded.verified ? "verified" : "unverified (dynamic)"
    }${files}\n`,
  );
  await write("stdout", textOf(loaded.text.endsWith("\n") ? loaded.text : `${loaded.text}\n`));
  return 0;
}
