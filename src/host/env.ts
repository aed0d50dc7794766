// The child-environment policy of the host: a stdio server from a config file gets a safe
// baseline of our environment plus its configured `env`, and nothing else — no tokens or keys
// we happen to hold leak into it. The baseline is defined once, in transport/child-env.ts
// (StdioTransport's default is the same policy); the host re-exports it under its own entry.

export { CHILD_ENV_BASELINE, CHILD_ENV_BASELINE_PREFIXES, CHILD_ENV_BASELINE_WINDOWS, childEnvironment, isBaselineVariable } from "../transport/child-env.ts";
export type { ChildEnvironmentOptions } from "../transport/child-env.ts";
