// What ends a command from outside: SIGINT (Ctrl-C), SIGTERM, and a stdout whose reader went
// away (`mcpwire watch … | head`: the next write fails with EPIPE). Each reaches the handlers a
// command gave onInterrupt(), which close its servers and exit, instead of an uncaught error
// that ends the process with a stack trace and leaves its children to notice alone. A closed
// stdout is named "SIGPIPE", the signal a C program would have died of (exit 141 = 128 + 13).

/** The exit code of a command whose stdout was closed by its reader (128 + SIGPIPE's 13). */
export const STDOUT_CLOSED_EXIT = 141;

/** The handlers given to onInterrupt(), and the one-time report of a closed stdout. */
export class Interrupts {
  readonly #handlers: ((signal: string) => void)[] = [];
  #stdoutClosed = false;

  add(fn: (signal: string) => void): void {
    this.#handlers.push(fn);
  }

  /**
   * stdout's reader is gone: said once. With no handler (a command that does not clean up),
   * the process exits STDOUT_CLOSED_EXIT; a handler that throws is not allowed to stop the others.
   */
  stdoutClosed(exit: (code: number) => never): void {
    if (this.#stdoutClosed) return;
    this.#stdoutClosed = true;
    if (this.#handlers.length === 0) exit(STDOUT_CLOSED_EXIT);
    for (const fn of this.#handlers) {
      try {
        fn("SIGPIPE");
      } catch {
        // One handler's failure is not the others' business; the process still ends through them.
      }
    }
  }
}
