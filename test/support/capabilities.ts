// Test helper: capabilities without their `extensions` map, for tests about what the handlers
// declare (the extensions mcpwire turns on by default are tested in test/client/extensions.test.ts).

/** A copy of `capabilities` without `extensions`; undefined stays undefined. */
export function coreCapabilities(capabilities: unknown): unknown {
  if (typeof capabilities !== "object" || capabilities === null) return capabilities;
  const { extensions: _extensions, ...rest } = capabilities as Record<string, unknown>;
  return rest;
}
