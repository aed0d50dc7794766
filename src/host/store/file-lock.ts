// An inter-process lock of one file, for a read-change-write that two mcpwire processes may do at
// once (the tool pins of registry/tool-pins.ts: two sessions of one project, a `pin accept`
// beside a running `chat`). The lock is `<file>.lock`, created only if absent (O_EXCL,
// runtime.createExclusive, which makes only missing directories: the directory of the file is
// the user's — a project's — and keeps its mode); removed when the work is done. A lock file older than
// STALE_LOCK_MS was left by a process that died holding it and is taken over. Every
// wait is bounded: past LOCK_WAIT_MS the work fails, naming the lock file.
//
// What it does not do: fence a holder that stalls past STALE_LOCK_MS (the work it guards takes
// milliseconds), or order two processes that find the same stale lock at the same instant.

import { sleep } from "../../common/timing.ts";
import { FileError } from "../../runtime/errors.ts";
import { runtime } from "../../runtime/mod.ts";

/** A lock whose file is older than this was left behind by a process that died holding it, and is taken over. */
export const STALE_LOCK_MS = 10_000;
/** How long a process waits for a lock another holds before it gives up. */
export const LOCK_WAIT_MS = 5_000;
/** How long between two tries while the lock is held: from the first, doubling to the most, each spread by a random half (two waiters do not retry in step). */
const FIRST_RETRY_MS = 10;
const MOST_RETRY_MS = 160;

/**
 * Runs `work` holding the lock of `file` (`<file>.lock`), and releases it after, whether `work`
 * settled or threw. Rejects with a FileError: `EBUSY` when another process holds the lock past
 * `waitMs`, the OS's reason when the lock cannot be made (the directory is not writable).
 */
export async function withFileLock<T>(file: string, work: () => Promise<T>, options: { waitMs?: number; staleMs?: number } = {}): Promise<T> {
  const lock = `${file}.lock`;
  const waitMs = options.waitMs ?? LOCK_WAIT_MS;
  const staleMs = options.staleMs ?? STALE_LOCK_MS;
  const deadline = Date.now() + waitMs;
  let retryMs = FIRST_RETRY_MS;
  // The lock's text says who holds it, for a person who finds it; its age is the file's own.
  while (!(await runtime.createExclusive(lock, `mcpwire lock, taken ${new Date().toISOString()}\n`))) {
    const info = await runtime.linkInfo(lock);
    if (info === undefined) continue; // released between the two looks: try again at once
    if (info.mtimeMs !== null && Date.now() - info.mtimeMs > staleMs) {
      await runtime.removeFile(lock);
      continue;
    }
    if (Date.now() >= deadline) {
      throw new FileError(
        `another mcpwire process has held the lock ${lock} for over ${waitMs} ms; try again, or remove the file if no mcpwire is running`,
        "EBUSY",
        { path: lock },
      );
    }
    await sleep(retryMs * (0.5 + Math.random() / 2));
    retryMs = Math.min(retryMs * 2, MOST_RETRY_MS);
  }
  try {
    return await work();
  } finally {
    await runtime.removeFile(lock).catch(() => {});
  }
}
