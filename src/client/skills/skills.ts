// The host side of the Skills extension (io.modelcontextprotocol/skills, SEP-2640) over a
// Client: list a server's skills (skills/list, every page), get one (skills/get), load one
// (its SKILL.md through resources/read, verified) and read its files (verified against the held
// entry) — ext-skills specification/stable/skills.mdx ("Listing Skills", "Getting a Skill",
// "Reading Skill Content", "Integrity and Verification"). Nothing is fetched before it is asked
// for ("Lazy Retrieval"): listing reads no file; load() reads SKILL.md only.

import { checkOptions, optionNames } from "../../common/options.ts";
import { ErrorCode, RpcError } from "../../jsonrpc/errors.ts";
import type { Client } from "../client.ts";
import { collectPages, DEFAULT_MAX_PAGES } from "../pagination.ts";
import type { JsonObject, ResourceContents } from "../types.ts";
import {
  checkedSkillPath,
  checkSkillEntry,
  isInsideSkill,
  MAX_SKILL_BYTES,
  type Skill,
  SkillError,
  type SkillErrorCode,
  skillPath,
  type SkillResource,
  skillRoot,
} from "./skill-entry.ts";
import { frontmatterDifferences, parseSkillFile } from "./skill-frontmatter.ts";
import { SKILLS_ID } from "./skills-extension.ts";

export { SkillError } from "./skill-entry.ts";
export type { Skill, SkillErrorCode, SkillFrontmatter, SkillResource } from "./skill-entry.ts";

/** What ServerSkills needs of a client: a Client, or anything shaped like one. */
export type SkillsClient = Pick<Client, "extension" | "request" | "readResource" | "capabilities" | "serverInfo">;

/** A server's listing: the skills that passed the entry checks, and a refusal for each that did not. */
export interface SkillListing {
  skills: Skill[];
  /** One per entry refused (a bad name, a missing field, a file outside the skill…), in listing order. */
  refused: SkillError[];
}

/** A skill whose SKILL.md was read and verified: what a host puts in the model's context. */
export interface LoadedSkill {
  /** The host's label of the server it came from (skills.mdx: identity is server and uri). */
  server: string;
  /** The entry it was loaded under (the held entry). */
  skill: Skill;
  /** SKILL.md as read: frontmatter and body. */
  text: string;
  /** The markdown after the frontmatter. */
  body: string;
  /** The skill's other files, as paths relative to its root ([] for a "dynamic" skill: none are known). */
  files: string[];
  /** False for a "dynamic" skill: no digest could be checked. */
  verified: boolean;
}

/** A file of a loaded skill, read and verified. */
export interface SkillFile {
  /** Relative to the skill's root. */
  path: string;
  uri: string;
  mimeType?: string;
  bytes: Uint8Array;
  /** The bytes as text when they are valid UTF-8. */
  text?: string;
  verified: boolean;
}

/** Options of ServerSkills: the server's name for messages, and the page limit of a listing. */
export interface ServerSkillsOptions {
  /** The host's label of the server, used in every error (default: its serverInfo name). */
  server?: string;
  /** Page cap of skills/list. Default 1000. */
  maxPages?: number;
}

const SKILLS = SKILLS_ID;
const decoder = new TextDecoder("utf-8", { fatal: true });

/** `sha256:` and the lowercase hex SHA-256 of `bytes` (Web Crypto: the same in Node and Deno). */
export async function sha256Digest(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  let hex = "sha256:";
  for (const byte of hash) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/** Every option ServerSkills reads (its constructor checks them). */
const SERVER_SKILLS_OPTIONS = optionNames<ServerSkillsOptions>({ server: true, maxPages: true });

/** One server's skills. Every method refuses with a SkillError; none closes the connection. */
export class ServerSkills {
  readonly server: string;
  readonly #client: SkillsClient;
  readonly #maxPages: number;
  /** Bytes read so far per loaded "dynamic" skill (skills.mdx "Limits": the 16 MiB cap applies to what is retrieved). */
  readonly #dynamicBytes = new WeakMap<LoadedSkill, number>();

  constructor(client: SkillsClient, options: ServerSkillsOptions = {}) {
    checkOptions("ServerSkills", options, SERVER_SKILLS_OPTIONS);
    this.#client = client;
    this.server = options.server ?? client.serverInfo?.name ?? "server";
    this.#maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  }

  /** True when both sides declared the extension, so skills/* may be sent. */
  get available(): boolean {
    return this.#client.extension(SKILLS) !== undefined;
  }

  #error(message: string, code: SkillErrorCode, skill?: string, file?: string, cause?: unknown): SkillError {
    return new SkillError(message, code, { server: this.server, ...(skill !== undefined ? { skill } : {}), ...(file !== undefined ? { file } : {}), cause });
  }

  /** skills.mdx "Capability Negotiation": clients issue skills/* only after observing the server's declaration. */
  #requireExtension(method: string): void {
    if (this.available) return;
    const offMine = this.#client.capabilities.extensions?.[SKILLS] === undefined;
    throw this.#error(
      offMine
        ? `server "${this.server}": ${method} not sent: this client has the skills extension (${SKILLS}) turned off; turn it on to use skills`
        : `server "${this.server}" does not declare the skills extension (${SKILLS}), so it serves no skills; ${method} was not sent`,
      "not-declared",
    );
  }

  /** A server error of skills/*, typed: -32601 from a server that declared the extension is a broken promise. */
  #rpcFailure(method: string, error: unknown, skill?: string): unknown {
    if (error instanceof RpcError && error.rpcCode === ErrorCode.MethodNotFound) {
      return this.#error(
        `server "${this.server}" declares the skills extension (${SKILLS}) but answered ${method} with -32601 (method not found): ` +
          `${error.message}; the server does not implement what it declared — report it to the server's maintainers, ` +
          `or turn the extension off for this server`,
        "not-implemented",
        skill,
        undefined,
        error,
      );
    }
    return error;
  }

  /**
   * Every skill the server lists, all pages followed (skills.mdx "Listing Skills"). Each entry
   * is checked on its own; a bad one is refused (in `refused`) and the rest are kept. No file is read.
   */
  async list(options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<SkillListing> {
    this.#requireExtension("skills/list");
    let entries: unknown[];
    try {
      entries = await collectPages<unknown>(
        `server "${this.server}": skills/list`,
        "skills/list",
        "skills",
        (cursor) => this.#client.request("skills/list", cursor === undefined ? undefined : { cursor }, options),
        this.#maxPages,
      );
    } catch (error) {
      throw this.#rpcFailure("skills/list", error);
    }
    const listing: SkillListing = { skills: [], refused: [] };
    for (const entry of entries) {
      try {
        listing.skills.push(checkSkillEntry(this.server, entry));
      } catch (error) {
        if (!(error instanceof SkillError)) throw error;
        listing.refused.push(error);
      }
    }
    return listing;
  }

  /** One skill's entry by the URI of its SKILL.md (skills.mdx "Getting a Skill"); an unknown URI is `not-found`. */
  async get(uri: string, options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<Skill> {
    this.#requireExtension("skills/get");
    let result: JsonObject;
    try {
      result = await this.#client.request("skills/get", { uri }, options);
    } catch (error) {
      if (error instanceof RpcError && error.rpcCode === ErrorCode.InvalidParams) {
        throw this.#error(
          `server "${this.server}" serves no skill at ${JSON.stringify(uri)} (skills/get: ${error.message})`,
          "not-found",
          uri,
          undefined,
          error,
        );
      }
      throw this.#rpcFailure("skills/get", error, uri);
    }
    const skill = checkSkillEntry(this.server, result.skill);
    if (skill.uri !== uri) {
      throw this.#error(`server "${this.server}": skills/get ${JSON.stringify(uri)} answered the entry of ${JSON.stringify(skill.uri)}`, "bad-entry", uri);
    }
    return skill;
  }

  /**
   * Loads a skill: reads its SKILL.md, checks size and digest against the entry, parses the
   * frontmatter and compares it field by field with the entry's (skills.mdx "Verification on
   * Read", "Frontmatter Verification"). Any discrepancy refuses the skill: nothing unverified is returned.
   */
  async load(skill: Skill, options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<LoadedSkill> {
    const who = `server "${this.server}": skill "${skill.frontmatter.name}" (${skill.uri})`;
    const listed = skill.resources === "dynamic" ? undefined : skill.resources.find((file) => file.uri === skill.uri);
    if (skill.resources !== "dynamic" && listed === undefined) {
      throw this.#error(`${who}: the entry does not list its SKILL.md, so it cannot be verified; not loaded`, "bad-entry", skill.uri);
    }
    const read = await this.#read(skill, skill.uri, listed, options);
    let text: string;
    try {
      text = decoder.decode(read.bytes);
    } catch {
      throw this.#error(`${who}: SKILL.md is not valid UTF-8 text; not loaded`, "bad-content", skill.uri, skill.uri);
    }
    const parsed = await parseSkillFile(text);
    if (typeof parsed === "string") {
      throw this.#error(
        `${who}: SKILL.md ${parsed}; not loaded (the Agent Skills format requires frontmatter with name and description)`,
        "bad-frontmatter",
        skill.uri,
        skill.uri,
      );
    }
    const differences = frontmatterDifferences(parsed.frontmatter, skill.frontmatter);
    if (differences.length > 0) {
      throw this.#error(
        `${who}: the frontmatter of SKILL.md differs from the entry's in ${differences.map((field) => JSON.stringify(field)).join(", ")}; ` +
          "not loaded (what was listed is not what was served; list the skills again, and if it persists the server is inconsistent or tampered with)",
        "frontmatter-mismatch",
        skill.uri,
        skill.uri,
      );
    }
    const files = skill.resources === "dynamic" ? [] : skill.resources.filter((file) => file.uri !== skill.uri).map((file) => skillPath(skill.uri, file.uri));
    const loaded: LoadedSkill = { server: this.server, skill, text, body: parsed.body, files, verified: read.verified };
    if (skill.resources === "dynamic") this.#dynamicBytes.set(loaded, read.bytes.length);
    return loaded;
  }

  /**
   * Reads one file of a loaded skill by its path relative to the skill's root
   * (`references/GUIDE.md`), verified against the held entry: a path that leaves the skill is
   * `outside-skill`, a file the entry does not list is `unlisted` (skills.mdx "The Acting Window").
   */
  async readFile(loaded: LoadedSkill, path: string, options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<SkillFile> {
    const { skill } = loaded;
    const who = `server "${this.server}": skill "${skill.frontmatter.name}" (${skill.uri})`;
    // The path is checked once and the text checked is the text sent (checkSkillPath).
    const uri = `${skillRoot(skill.uri)}/${checkedSkillPath(path, who, { server: this.server, skill: skill.uri })}`;
    if (!isInsideSkill(skill.uri, uri)) {
      throw this.#error(
        `${who}: the path ${JSON.stringify(path)} leaves the skill's directory; only files inside it can be read`,
        "outside-skill",
        skill.uri,
        path,
      );
    }
    let listed: SkillResource | undefined;
    if (skill.resources !== "dynamic") {
      listed = skill.resources.find((file) => file.uri === uri);
      if (listed === undefined) {
        throw this.#error(
          `${who}: ${JSON.stringify(path)} is not one of the files its entry lists (${loaded.files.join(", ") || "none but SKILL.md"}); ` +
            "not read (an unlisted file is a change to the skill: refresh the entry with skills/get first)",
          "unlisted",
          skill.uri,
          path,
        );
      }
    }
    const read = await this.#read(skill, uri, listed, options);
    if (skill.resources === "dynamic") {
      const total = (this.#dynamicBytes.get(loaded) ?? 0) + read.bytes.length;
      if (total > MAX_SKILL_BYTES) {
        throw this.#error(
          `${who}: reading ${JSON.stringify(path)} would take the skill past ${MAX_SKILL_BYTES} bytes (16 MiB); not read`,
          "too-large",
          skill.uri,
          path,
        );
      }
      this.#dynamicBytes.set(loaded, total);
    }
    let text: string | undefined;
    try {
      text = decoder.decode(read.bytes);
    } catch {
      text = undefined;
    }
    return {
      path: skillPath(skill.uri, uri),
      uri,
      ...(read.mimeType !== undefined ? { mimeType: read.mimeType } : {}),
      bytes: read.bytes,
      ...(text !== undefined ? { text } : {}),
      verified: read.verified,
    };
  }

  /** resources/read of one file, its raw bytes checked against `listed` (size first, then digest). */
  async #read(
    skill: Skill,
    uri: string,
    listed: SkillResource | undefined,
    options: { signal?: AbortSignal; timeoutMs?: number },
  ): Promise<{ bytes: Uint8Array; mimeType?: string; verified: boolean }> {
    const who = `server "${this.server}": skill "${skill.frontmatter.name}" (${skill.uri})`;
    const path = skillPath(skill.uri, uri);
    // fresh: a cached copy is no shortcut here; every use is verified on the bytes just read.
    const result = await this.#client.readResource(uri, { ...options, fresh: true });
    const contents: ResourceContents | undefined = result.contents.find((content) => content?.uri === uri) ??
      (result.contents.length === 1 ? result.contents[0] : undefined);
    const bytes = contents === undefined ? undefined : bytesOf(contents);
    if (bytes === undefined) {
      throw this.#error(`${who}: resources/read of ${JSON.stringify(path)} returned no text or base64 blob for ${uri}`, "bad-content", skill.uri, path);
    }
    if (listed !== undefined) {
      // skills.mdx "Resources": a byte length other than size is a verification failure, whether or not the digest is computed.
      if (bytes.length !== listed.size) {
        throw this.#error(
          `${who}: ${JSON.stringify(path)} is ${bytes.length} bytes but its entry says ${listed.size}; the content is not used ` +
            "(corrupted, tampered with, or stale: list the skills again)",
          "size-mismatch",
          skill.uri,
          path,
        );
      }
      const digest = await sha256Digest(bytes);
      if (digest !== listed.digest) {
        throw this.#error(
          `${who}: ${JSON.stringify(path)} hashes to ${digest} but its entry says ${listed.digest}; the content is not used ` +
            "(corrupted, tampered with, or stale: list the skills again)",
          "digest-mismatch",
          skill.uri,
          path,
        );
      }
    } else if (bytes.length > MAX_SKILL_BYTES) {
      throw this.#error(`${who}: ${JSON.stringify(path)} is ${bytes.length} bytes, over the 16 MiB limit per skill; not used`, "too-large", skill.uri, path);
    }
    return { bytes, ...(typeof contents?.mimeType === "string" ? { mimeType: contents.mimeType } : {}), verified: listed !== undefined };
  }
}

/** A content item's raw bytes: its text as UTF-8, or its blob decoded from base64; undefined for neither. */
function bytesOf(contents: ResourceContents): Uint8Array | undefined {
  if ("text" in contents && typeof contents.text === "string") return new TextEncoder().encode(contents.text);
  if ("blob" in contents && typeof contents.blob === "string") {
    try {
      const binary = atob(contents.blob);
      const bytes = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
      return bytes;
    } catch {
      return undefined; // not base64
    }
  }
  return undefined;
}
