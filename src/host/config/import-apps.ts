// The apps whose MCP servers mcpwire can import, by name (where each keeps them: import-sources.ts).

/** The apps, as `imports:` and `--import` name them. */
export const IMPORT_APPS = ["claude-desktop", "claude-code", "cursor", "vscode", "windsurf", "gemini-cli", "codex", "mcphost"] as const;
/** An app whose MCP servers can be imported: `claude-desktop`, `claude-code`, `cursor`, `vscode`, `windsurf`, `gemini-cli`, `codex` or `mcphost`. */
export type ImportApp = (typeof IMPORT_APPS)[number];
