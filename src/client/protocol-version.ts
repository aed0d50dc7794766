// Protocol versions of the handshake era and what differs between them —
// spec 2025-11-25 basic/lifecycle ("Version Negotiation").

/** The version we offer in `initialize`. */
export const LATEST_PROTOCOL_VERSION = "2025-11-25";

/** Versions we accept in the server's answer, newest first. */
export const SUPPORTED_PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;

export type ProtocolVersion = (typeof SUPPORTED_PROTOCOL_VERSIONS)[number];

export function isSupportedProtocolVersion(version: unknown): version is ProtocolVersion {
  return (SUPPORTED_PROTOCOL_VERSIONS as readonly unknown[]).includes(version);
}

/** What the negotiated version changes in the client's behaviour. */
export interface ProtocolFeatures {
  /** 2025-06-18 added `outputSchema` / `structuredContent` to tools. */
  structuredToolOutput: boolean;
  /** 2025-03-26 added the `completions` capability; before it completion was not advertised. */
  completionsCapability: boolean;
}

/** Version strings are dates (YYYY-MM-DD), so they order as strings. */
export function featuresOf(version: ProtocolVersion): ProtocolFeatures {
  return {
    structuredToolOutput: version >= "2025-06-18",
    completionsCapability: version >= "2025-03-26",
  };
}
