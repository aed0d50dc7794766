// Which ResultFiles each server's tools use, from the config: the top-level `results:` (on by
// default for `mcpwire run` / `chat`; a directory, how many files, how old) and each server's
// `results:` (false: none; a directory of its own). The files themselves: registry/result-files.ts.

import { ResultFiles } from "../../registry/result-files.ts";
import type { McpwireConfig, ServerConfig } from "../config/types.ts";

/**
 * A chooser of each server's ResultFiles (false: that server's results are cut, never saved).
 * Servers sharing a directory share one ResultFiles, so pruning counts their files together.
 */
export function resultFilesChooser(config: McpwireConfig): (server: ServerConfig) => ResultFiles | false {
  const settings = config.results ?? { enabled: true };
  const byDirectory = new Map<string, ResultFiles>();
  const filesIn = (directory: string | undefined): ResultFiles => {
    const key = directory ?? "";
    let files = byDirectory.get(key);
    if (files === undefined) {
      files = new ResultFiles({
        ...(directory !== undefined ? { directory } : {}),
        ...(settings.maxFiles !== undefined ? { maxFiles: settings.maxFiles } : {}),
        ...(settings.maxAgeMs !== undefined ? { maxAgeMs: settings.maxAgeMs } : {}),
      });
      byDirectory.set(key, files);
    }
    return files;
  };
  return (server) => {
    const own = server.results;
    if (own !== undefined) return own.enabled ? filesIn(own.directory ?? settings.directory) : false;
    return settings.enabled ? filesIn(settings.directory) : false;
  };
}
