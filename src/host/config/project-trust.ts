// Project configs are used only once the user approved them, as Claude Code does for a project's
// `.mcp.json`: a config found in the working directory (`./mcpwire.yaml`, `./.mcp.json`) or a
// project file an import reads (`./.cursor/mcp.json`, `./.vscode/mcp.json`, …) came with a
// repository, not from the user. Until the user approves that file — by absolute path and the
// SHA-256 of its text, so a changed file asks again — nothing in it runs and no variable is read
// for it. The user's own files (under HOME, `--config FILE`) are trusted as they are.
// Approvals live in `$XDG_CONFIG_HOME/mcpwire/trusted-projects.json` (0600, atomic, bounded); a
// trust file others may write, or another user owns, is refused, as ssh's StrictModes does.

import { sha256Digest } from "../../client/skills/skills.ts";
import { messageOf } from "../../common/error-text.ts";
import { isObject } from "../../common/json.ts";
import { FileError } from "../../runtime/errors.ts";
import { runtime } from "../../runtime/mod.ts";
import type { Env } from "./context.ts";
import { homeOf } from "./import-sources.ts";
import { directoryOf, isAbsolutePath, resolvePath } from "./paths.ts";
import { type ProjectConfigSummary, summarizeProject, type SummaryInput } from "./project-summary.ts";
import { ConfigError } from "./types.ts";

/**
 * Asked about a project file nobody approved yet (a terminal prompt, a dialog): true approves it
 * and the approval is recorded; false leaves it unused.
 */
export type ProjectApprover = (summary: ProjectConfigSummary) => boolean | Promise<boolean>;

/**
 * How project files are trusted: `refuse` (the default) uses only those approved before (in the
 * trust file); `all` uses every one for this call, recording nothing (the caller vouches for the
 * directory, e.g. `--trust-project`); a function is asked about each file not approved yet.
 */
export type ProjectTrust = "refuse" | "all" | ProjectApprover;

/** One approval in the trust file. */
export interface TrustedProject {
  /** The file, absolute. */
  file: string;
  /** `sha256:<hex>` of its text when it was approved. */
  digest: string;
  /** ISO 8601. */
  approvedAt: string;
}

/** Approvals kept at most; the oldest go first. */
export const MAX_TRUSTED_PROJECTS = 1000;
/** A trust file larger than this is not read (it is ours and small: about 200 bytes an approval). */
const MAX_TRUST_FILE_CHARS = 4 * 1024 * 1024;

/**
 * Where approvals are kept: `$XDG_CONFIG_HOME/mcpwire/trusted-projects.json`, else
 * `~/.config/mcpwire/…` (`%APPDATA%\mcpwire\…` on Windows); undefined when there is no home.
 */
export function defaultTrustFile(env: Env, os: string = runtime.os): string | undefined {
  const xdg = env.XDG_CONFIG_HOME;
  // XDG base directory spec: a relative XDG_CONFIG_HOME is invalid and ignored.
  if (xdg && isAbsolutePath(xdg)) return resolvePath(xdg, "mcpwire/trusted-projects.json");
  if (os === "windows" && env.APPDATA) return resolvePath(env.APPDATA, "mcpwire/trusted-projects.json");
  const home = homeOf(env);
  return home === undefined ? undefined : resolvePath(home, ".config/mcpwire/trusted-projects.json");
}

/** `sha256:<hex>` of a file's text as UTF-8: what an approval is bound to. */
export function projectDigest(text: string): Promise<string> {
  return sha256Digest(new TextEncoder().encode(text));
}

/** The approvals file: read, approve, revoke. Every failure is a ConfigError with code `trust-store`. */
export class ProjectTrustStore {
  /** Undefined when there is no config directory: nothing is approved, and approving fails. */
  readonly file: string | undefined;

  constructor(file: string | undefined) {
    this.file = file;
  }

  /** Every approval, oldest first. */
  async list(): Promise<TrustedProject[]> {
    if (this.file === undefined) return [];
    await this.#checkPrivate(this.file);
    let text: string;
    try {
      text = await runtime.readTextFile(this.file);
    } catch (error) {
      if (error instanceof FileError && error.code === "ENOENT") return [];
      throw this.#error(`cannot read ${this.file} (${messageOf(error)}); check its owner and permissions`, error);
    }
    if (text.length > MAX_TRUST_FILE_CHARS) throw this.#corrupt(`it is over ${MAX_TRUST_FILE_CHARS} characters`);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw this.#corrupt(messageOf(error), error);
    }
    if (!isObject(value) || !Array.isArray(value.projects)) throw this.#corrupt(`no "projects" list`);
    return value.projects.filter((entry): entry is TrustedProject =>
      isObject(entry) && typeof entry.file === "string" && typeof entry.digest === "string" && typeof entry.approvedAt === "string"
    );
  }

  /** The approval of `file`, whatever its digest. */
  async find(file: string): Promise<TrustedProject | undefined> {
    return (await this.list()).find((entry) => entry.file === file);
  }

  /** Records that `file` with this digest is approved (replacing an approval of another version). */
  async approve(file: string, digest: string): Promise<void> {
    const projects = (await this.list()).filter((entry) => entry.file !== file);
    projects.push({ file, digest, approvedAt: new Date().toISOString() });
    await this.#write(projects.slice(-MAX_TRUSTED_PROJECTS));
  }

  /** Forgets the approval of `file`; false when there was none. */
  async revoke(file: string): Promise<boolean> {
    const projects = await this.list();
    const kept = projects.filter((entry) => entry.file !== file);
    if (kept.length === projects.length) return false;
    await this.#write(kept);
    return true;
  }

  async #write(projects: TrustedProject[]): Promise<void> {
    if (this.file === undefined) {
      throw this.#error(
        "there is no config directory to keep approvals in (neither XDG_CONFIG_HOME nor HOME is set); set HOME, or pass --trust-project for one run",
      );
    }
    try {
      await runtime.writePrivateFile(this.file, `${JSON.stringify({ version: 1, projects }, null, 2)}\n`, undefined, "replace");
    } catch (error) {
      throw this.#error(`cannot write ${this.file} (${messageOf(error)}); check that its directory is writable by you`, error);
    }
  }

  /**
   * Refuses approvals another user could have written, as ssh's StrictModes refuses an
   * authorized_keys file: the trust file (a link's target) must be this user's and writable by
   * no one else, and its directory this user's (or root's) and writable by no one else.
   */
  async #checkPrivate(file: string): Promise<void> {
    const target = await runtime.realPath(file).catch(() => undefined);
    if (target === undefined) return; // nothing there (or unreadable): the read says so
    const me = runtime.userId();
    for (const [path, directory] of [[target, false], [directoryOf(target), true]] as const) {
      const info = await runtime.linkInfo(path).catch(() => undefined);
      if (info === undefined) continue;
      const what = directory ? `its directory ${path}` : path;
      if (info.uid !== null && me !== undefined && info.uid !== me && !(directory && info.uid === 0)) {
        throw this.#error(
          `${what} is owned by user id ${info.uid}, not by you (${me}), so the approvals in ${file} could be theirs; none is used. ` +
            `Remove ${file} and approve your projects again, or make it yours (chown)`,
        );
      }
      const open = info.mode === null ? 0 : info.mode & 0o022; // group or others may write
      if (open !== 0) {
        const mode = info.mode!.toString(8).padStart(4, "0");
        throw this.#error(
          `${what} may be written by others (mode ${mode}), so anyone could have approved a project in ${file}; none is used. ` +
            `Make it yours alone: chmod ${directory ? "go-w" : "600"} ${path}`,
        );
      }
    }
  }

  #corrupt(detail: string, cause?: unknown): ConfigError {
    return this.#error(`${this.file} is not a list of approved project configs (${detail}); delete it and approve your projects again`, cause);
  }

  #error(detail: string, cause?: unknown): ConfigError {
    return new ConfigError(`project trust: ${detail}`, "trust-store", { ...(this.file === undefined ? {} : { file: this.file }), cause });
  }
}

export interface ProjectGateOptions {
  /** The working directory the project files were found in. */
  cwd: string;
  /** HOME (is the working directory the user's home?) and where the trust file is. */
  env: Env;
  /** Default `refuse`. */
  trust?: ProjectTrust;
  /** The approvals file; default defaultTrustFile(env). */
  trustFile?: string;
}

/** A project file as read: its text is what gets hashed, summarized and, once admitted, parsed. */
export type ProjectFile = Omit<SummaryInput, "digest">;

/** Whether a project file may be used; when not, what it holds and whether another version was approved. */
export type GateDecision = { trusted: true } | { trusted: false; summary: ProjectConfigSummary; changed: boolean };

/** Decides, file by file, whether the project files of one load may be used. */
export class ProjectGate {
  readonly store: ProjectTrustStore;
  /**
   * True when the working directory is the user's home: its `.mcp.json` is `~/.mcp.json`, the
   * user's own, and so are the other files found there.
   */
  readonly inHome: boolean;
  readonly #trust: ProjectTrust;
  /** `file\0digest` admitted during this load (a file read twice is asked about once). */
  readonly #admitted = new Set<string>();

  constructor(options: ProjectGateOptions) {
    this.#trust = options.trust ?? "refuse";
    this.store = new ProjectTrustStore(options.trustFile ?? defaultTrustFile(options.env));
    const home = homeOf(options.env);
    this.inHome = home !== undefined && resolvePath(home, ".") === resolvePath(options.cwd, ".");
  }

  /** Whether `read` (a project file) may be used; asks the approver when there is one. */
  async admit(read: ProjectFile): Promise<GateDecision> {
    const digest = await projectDigest(read.text);
    const key = `${read.file}\0${digest}`;
    if (this.#trust === "all" || this.#admitted.has(key)) return { trusted: true };
    const approval = await this.store.find(read.file);
    if (approval?.digest === digest) {
      this.#admitted.add(key);
      return { trusted: true };
    }
    const summary = summarizeProject({ ...read, digest });
    if (typeof this.#trust === "function" && await this.#trust(summary)) {
      await this.store.approve(read.file, digest);
      this.#admitted.add(key);
      return { trusted: true };
    }
    return { trusted: false, summary, changed: approval !== undefined };
  }
}

/** What to do about a project file that was not approved (the end of every refusal message). */
export function approveHint(display: string): string {
  const word = /^[\w./~-]+$/.test(display) ? display : JSON.stringify(display);
  return `approve it with "mcpwire trust ${word}" (it shows what the file runs first), or for one run pass --trust-project ` +
    `(MCPWIRE_TRUST_PROJECT=1 in CI)`;
}

/** The refusal of the config found in the working directory. */
export function untrustedConfigError(summary: ProjectConfigSummary, changed: boolean): ConfigError {
  const state = changed ? "changed since you approved it" : "not approved by you yet";
  return new ConfigError(
    `${summary.display} is a project config (${summary.file}) ${state}: mcpwire starts nothing from it and reads no variable for it ` +
      `until you approve it; ${approveHint(summary.display)}; or use a config of your own with --config FILE`,
    "untrusted-project",
    { file: summary.file, project: summary },
  );
}

/** The warning for an imported project file that was not approved: its servers are left out. */
export function untrustedImportWarning(summary: ProjectConfigSummary, app: string, changed: boolean): ConfigError {
  const state = changed ? "changed since you approved it" : "not approved by you yet";
  return new ConfigError(
    `${summary.display} (${summary.file}) is ${app}'s project config, ${state}, so its servers are not imported; ${approveHint(summary.display)}`,
    "untrusted-project",
    { file: summary.file, project: summary },
  );
}
