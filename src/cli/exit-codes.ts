// The exit codes of the verbs that reach servers (docs/cli.md gives each verb's): one table, so that
// `call`, `task`, `watch` and the list verbs say the same thing by the same number.

/** 0 success, 1 the tool reported an error, 2 usage or config, 3 a server unreachable or failing, 4 timeout, 130 Ctrl-C. */
export const EXIT = { ok: 0, toolError: 1, usage: 2, server: 3, timeout: 4, interrupted: 130 } as const;
