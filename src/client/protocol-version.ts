// Protocol versions of both eras and what differs between them — spec 2025-11-25
// basic/lifecycle ("Version Negotiation"); spec 2026-07-28 basic/versioning (modern, legacy
// and dual-era).

/** The version we offer in `initialize` (the legacy, handshake era). */
export const LATEST_PROTOCOL_VERSION = "2025-11-25";

/** Handshake-era versions we accept in the server's answer, newest first. */
export const SUPPORTED_PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;

/** The stateless (modern) versions we speak, newest first: version on every request, no handshake. */
export const MODERN_PROTOCOL_VERSIONS = ["2026-07-28"] as const;

/** The modern version we ask for first. */
export const LATEST_MODERN_PROTOCOL_VERSION = MODERN_PROTOCOL_VERSIONS[0];

export type LegacyProtocolVersion = (typeof SUPPORTED_PROTOCOL_VERSIONS)[number];
export type ModernProtocolVersion = (typeof MODERN_PROTOCOL_VERSIONS)[number];
/** A protocol version mcpwire speaks: a handshake-era one or a 2026-07-28 (stateless) one. */
export type ProtocolVersion = LegacyProtocolVersion | ModernProtocolVersion;

/**
 * Which era to speak with a server — spec 2026-07-28 basic/versioning. `auto` probes with
 * server/discover and falls back to the initialize handshake; `modern` and `legacy` pin one.
 */
export type ProtocolChoice = "auto" | "modern" | "legacy";

/** The era a connection speaks, once known. */
export type ProtocolEra = "modern" | "legacy";

export function isSupportedProtocolVersion(version: unknown): version is LegacyProtocolVersion {
  return (SUPPORTED_PROTOCOL_VERSIONS as readonly unknown[]).includes(version);
}

export function isModernProtocolVersion(version: unknown): version is ModernProtocolVersion {
  return (MODERN_PROTOCOL_VERSIONS as readonly unknown[]).includes(version);
}

/** What the negotiated version changes in the client's behaviour. */
export interface ProtocolFeatures {
  /** 2025-06-18 added `outputSchema` / `structuredContent` to tools. */
  structuredToolOutput: boolean;
  /** 2025-03-26 added the `completions` capability; before it completion was not advertised. */
  completionsCapability: boolean;
  /** 2026-07-28: `structuredContent` may be any JSON value; from 2025-06-18 to 2025-11-25 it is an object. */
  anyJsonStructuredContent: boolean;
}

/** Version strings are dates (YYYY-MM-DD), so they order as strings. */
export function featuresOf(version: ProtocolVersion): ProtocolFeatures {
  return {
    structuredToolOutput: version >= "2025-06-18",
    completionsCapability: version >= "2025-03-26",
    anyJsonStructuredContent: version >= "2026-07-28",
  };
}
