// Model strings: `provider/model` or `provider:model` (`openai/gpt-4o`, `ollama:qwen3:8b`,
// `anthropic/claude-sonnet-4-5`, `google/gemini-2.5-flash`), as the CLI's --model and the config take them.

import { McpwireError } from "../../common/mcpwire-error.ts";

/** The providers mcpwire speaks to, by the name a model string starts with. */
export const PROVIDER_NAMES = ["ollama", "openai", "anthropic", "google"] as const;
/** The name a model string starts with (`ollama/…`, `openai/…`, `anthropic/…`, `google/…`). */
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** Other names accepted before the separator, for the provider they mean. */
const ALIASES: Readonly<Record<string, ProviderName>> = { gemini: "google" };

export interface ModelString {
  provider: ProviderName;
  /** Everything after the first separator, kept whole (Ollama names have `:` tags, some have `/`). */
  model: string;
}

/**
 * Why a model string cannot be used:
 * - `no-provider`: no `/` or `:`, so no provider is named (`gpt-4o`);
 * - `unknown-provider`: the part before the separator is not a provider mcpwire speaks to;
 * - `no-model`: nothing after the separator (`openai/`).
 */
export type ModelStringErrorCode = "no-provider" | "unknown-provider" | "no-model";

/** A model string that names no known provider, or no model (`code` says which). */
export class ModelStringError extends McpwireError<ModelStringErrorCode> {
  override readonly name = "ModelStringError";
}

export function isProviderName(name: string): name is ProviderName {
  return (PROVIDER_NAMES as readonly string[]).includes(name);
}

/**
 * Splits at the first `/` or `:`. Only the part before it picks the provider, so the model
 * keeps every later separator: `ollama:qwen3:8b` is Ollama's `qwen3:8b`, `openai/org/model`
 * is `org/model`.
 */
export function parseModelString(text: string): ModelString {
  const value = text.trim();
  const known = [...PROVIDER_NAMES, ...Object.keys(ALIASES)].join(", ");
  const at = value.search(/[/:]/);
  if (at === -1) {
    throw new ModelStringError(
      `model "${value}" names no provider: write it as provider/model (e.g. ollama/${value || "qwen3:8b"} or openai/${
        value || "gpt-4o"
      }); known providers: ${known}`,
      "no-provider",
    );
  }
  const prefix = value.slice(0, at).toLowerCase();
  const model = value.slice(at + 1).trim();
  const provider = isProviderName(prefix) ? prefix : ALIASES[prefix];
  if (provider === undefined) {
    // `qwen3:8b` alone looks like an Ollama name with its tag
    const guess = value[at] === ":" ? `; did you mean ollama/${value}?` : "";
    throw new ModelStringError(`model "${value}": unknown provider "${value.slice(0, at)}"; known providers: ${known}${guess}`, "unknown-provider");
  }
  if (model === "") {
    throw new ModelStringError(`model "${value}" names no model after "${value.slice(0, at + 1)}" (e.g. ${provider}/${exampleModel(provider)})`, "no-model");
  }
  return { provider, model };
}

function exampleModel(provider: ProviderName): string {
  switch (provider) {
    case "ollama":
      return "qwen3:8b";
    case "openai":
      return "gpt-4o";
    case "anthropic":
      return "claude-sonnet-4-5";
    case "google":
      return "gemini-2.5-flash";
  }
}
