// The lock file of tool pins, `mcpwire.lock.json` (registry/tool-pins.ts keeps what is in it):
// beside a project's config (or a config given with --config), else the user's own in the state
// directory (`$XDG_STATE_HOME/mcpwire/`, else `~/.local/state/mcpwire/`). Written mode 0600 and
// atomically; bounded when read; a file that cannot be read or parsed is an error naming it. Each
// read-change-write holds `mcpwire.lock.json.lock` (file-lock.ts), so two processes lose no pin.

import type { Redactor } from "../../common/redact.ts";
import { mcpwireDirectory, switchedOff } from "../../common/user-dirs.ts";
import type { McpServerOptions } from "../../registry/mcp-server.ts";
import { ToolPinsError } from "../../registry/registry-errors.ts";
import type { PinningMode, ToolPins, ToolPinsData, ToolPinStore } from "../../registry/tool-pins.ts";
import { FileError } from "../../runtime/errors.ts";
import { runtime } from "../../runtime/mod.ts";
import { directoryOf, resolvePath, userConfigPaths } from "../config/paths.ts";
import type { McpwireConfig, ServerConfig } from "../config/types.ts";
import { withFileLock } from "./file-lock.ts";

/** The lock file's name. */
export const PIN_LOCK_FILE_NAME = "mcpwire.lock.json";
/** A lock file longer than this is not read (it is ours; the pins' own bounds keep it far smaller). */
export const MAX_LOCK_FILE_CHARS = 16 * 1024 * 1024;

/**
 * Where a config's pins are kept: beside the config file when it is a project's (or any file
 * that is not one of the user's own config files), else in the user's state directory;
 * undefined when there is neither (no file, no home).
 */
export function pinLockFileFor(
  config: Pick<McpwireConfig, "file">,
  env: Readonly<Record<string, string | undefined>>,
  os: string = runtime.os,
): string | undefined {
  if (config.file !== undefined && !userConfigPaths(env).includes(config.file)) return resolvePath(directoryOf(config.file), PIN_LOCK_FILE_NAME);
  const directory = mcpwireDirectory("state", env, os);
  return directory === undefined ? undefined : `${directory}/${PIN_LOCK_FILE_NAME}`;
}

/**
 * The lock file a process uses for `config`: MCPWIRE_LOCK_FILE when set (a path; `off` keeps the
 * pins in memory, for one process only, as tests do), else pinLockFileFor; undefined: in memory.
 */
export function pinLockFileOf(config: Pick<McpwireConfig, "file">, env: Readonly<Record<string, string | undefined>>): string | undefined {
  const chosen = env.MCPWIRE_LOCK_FILE?.trim();
  if (switchedOff(chosen)) return undefined;
  if (chosen) return resolvePath(runtime.cwd(), chosen);
  return pinLockFileFor(config, env);
}

/** A lock file as a ToolPinStore. */
export class PinLockFile implements ToolPinStore {
  readonly location: string;

  constructor(file: string) {
    this.location = file;
  }

  async read(): Promise<unknown> {
    let text: string;
    try {
      text = await runtime.readTextFile(this.location);
    } catch (error) {
      if (error instanceof FileError && error.code === "ENOENT") return undefined;
      throw error;
    }
    // ToolPins (tool-pins.ts) quotes these in its own damaged-pins error, which names the file and what to do.
    if (text.length > MAX_LOCK_FILE_CHARS) throw new ToolPinsError(`it is over ${MAX_LOCK_FILE_CHARS} characters`, "damaged-pins");
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new ToolPinsError(`it is not JSON (${error instanceof Error ? error.message : String(error)})`, "damaged-pins", { cause: error });
    }
  }

  write(data: ToolPinsData): Promise<void> {
    const text = `${JSON.stringify(data, null, 2)}\n`;
    if (text.length > MAX_LOCK_FILE_CHARS) {
      return Promise.reject(new ToolPinsError(`the pins would be over ${MAX_LOCK_FILE_CHARS} characters`, "unwritable-pins"));
    }
    return runtime.writePrivateFile(this.location, text);
  }

  /**
   * One read-change-write holding `mcpwire.lock.json.lock` (file-lock.ts): two processes never
   * interleave theirs. A path that is not a regular file (`MCPWIRE_LOCK_FILE=/dev/null`, a FIFO)
   * gets no lock beside it (nothing is made in a directory such as /dev): the work's read refuses it.
   */
  async exclusive<T>(work: () => Promise<T>): Promise<T> {
    const target = await runtime.realPath(this.location);
    const info = target === undefined ? undefined : await runtime.linkInfo(target);
    if (info !== undefined && info.kind !== "file") return work();
    return withFileLock(this.location, work);
  }
}

/** registerMcpServer's pinning option for a server: by its name and its (redacted) command line or URL; none when its mode is off. */
export function pinningOf(
  server: ServerConfig,
  pins: { pins: ToolPins; mode: (server: ServerConfig) => PinningMode } | undefined,
  redactor: Redactor,
): Pick<McpServerOptions, "pinning"> {
  const mode = pins?.mode(server) ?? "off";
  if (pins === undefined || mode === "off") return {};
  return { pinning: { pins: pins.pins, mode, source: redactor.redact(pinSource(server)) } };
}

/** What a server's pins are kept for besides its name: its command line (stdio), or its URL. */
export function pinSource(server: Pick<ServerConfig, "transport" | "command" | "args" | "url">): string {
  if (server.url !== undefined) return server.url;
  return [server.command ?? "", ...server.args].map(shellWord).join(" ");
}

function shellWord(word: string): string {
  return /^[\w.@%+=:,/-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
