// The version mcpwire reports (CLI and clientInfo); kept equal to package.json's.
export const VERSION = "0.2.0";
