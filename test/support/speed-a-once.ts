// Test helper: a command run once per test file. Tests of a file that run the same command
// (same arguments, nothing changed between them that the command reads) share one run and its
// outcome instead of starting the same processes again: each test still makes all of its
// assertions, on the output of a real run.

/** `run` memoized by its arguments (as JSON): the first call runs it, later ones get the same promise. */
export function once<A extends unknown[], R>(run: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  const runs = new Map<string, Promise<R>>();
  return (...args: A) => {
    const key = JSON.stringify(args);
    let found = runs.get(key);
    if (found === undefined) {
      found = run(...args);
      runs.set(key, found);
    }
    return found;
  };
}
