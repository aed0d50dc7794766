// createProvider: a model string (`openai/gpt-4o`, `ollama:qwen3:8b`, …) and the settings
// (keys, base URLs, the environment they may come from, fetch, timeout) → one Provider.

import { ANTHROPIC_BASE_URL, AnthropicProvider } from "./anthropic.ts";
import { GEMINI_BASE_URL, GoogleProvider } from "./google.ts";
import { DEFAULT_PROVIDER_TIMEOUT_MS, type FetchFunction, type ProviderConnection } from "./http.ts";
import { parseModelString, type ProviderName } from "./model-string.ts";
import { ollamaBaseUrl, OllamaProvider } from "./ollama.ts";
import { OPENAI_BASE_URL, OpenAiProvider } from "./openai.ts";
import { type Provider, ProviderError } from "./types.ts";

export { ModelStringError, parseModelString, PROVIDER_NAMES, type ProviderName } from "./model-string.ts";
export { DEFAULT_PROVIDER_TIMEOUT_MS, type FetchFunction, parseRetryAfter } from "./http.ts";
export { AnthropicProvider } from "./anthropic.ts";
export { GoogleProvider } from "./google.ts";
export { ollamaBaseUrl, OllamaProvider } from "./ollama.ts";
export { OpenAiProvider } from "./openai.ts";
export { toGeminiParameters, toGeminiSchema } from "./gemini-schema.ts";

/** Settings for one provider: override what the environment says. */
export interface ProviderSettings {
  apiKey?: string;
  /** The API's base URL (for openai: up to `/v1`, e.g. `http://127.0.0.1:1234/v1`). */
  baseUrl?: string;
  headers?: Record<string, string>;
}

/** Options of createProvider: the provider settings, and the environment and fetch to use. */
export interface CreateProviderOptions extends ProviderSettings {
  /**
   * Where keys and hosts come from when not given: OPENAI_API_KEY, OPENAI_BASE_URL,
   * ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, GEMINI_API_KEY (or GOOGLE_API_KEY), OLLAMA_HOST.
   * Pass runtime.env() (or a config's view of it); nothing is read from the process here.
   */
  env?: Readonly<Record<string, string | undefined>>;
  /** Per-provider settings (from a config file); the top-level apiKey/baseUrl/headers win over them. */
  providers?: Partial<Record<ProviderName, ProviderSettings>>;
  /** Replaces the global fetch (a proxy-aware one, or a test's). */
  fetch?: FetchFunction;
  /** The longest wait for the API's next bytes, in ms. Default 300 s. */
  timeoutMs?: number;
  /** Anthropic's required `max_tokens` when a request has none. Default 4096. */
  defaultMaxTokens?: number;
}

interface Defaults {
  keyVariables: string[];
  baseUrlVariable?: string;
  baseUrl: string;
}

const DEFAULTS: Readonly<Record<ProviderName, Defaults>> = {
  openai: { keyVariables: ["OPENAI_API_KEY"], baseUrlVariable: "OPENAI_BASE_URL", baseUrl: OPENAI_BASE_URL },
  anthropic: { keyVariables: ["ANTHROPIC_API_KEY"], baseUrlVariable: "ANTHROPIC_BASE_URL", baseUrl: ANTHROPIC_BASE_URL },
  google: { keyVariables: ["GEMINI_API_KEY", "GOOGLE_API_KEY"], baseUrl: GEMINI_BASE_URL },
  ollama: { keyVariables: [], baseUrl: ollamaBaseUrl(undefined) },
};

/**
 * The provider for a model string. Throws ModelStringError for an unknown provider and a
 * ProviderError when a hosted API has no key (a custom base URL needs none: local servers
 * such as LM Studio, vLLM or llama.cpp usually take any).
 */
export function createProvider(modelString: string, options: CreateProviderOptions = {}): Provider {
  const { provider, model } = parseModelString(modelString);
  const env = options.env ?? {};
  const defaults = DEFAULTS[provider];
  const configured = options.providers?.[provider] ?? {};
  const fromEnv = (name: string | undefined) => {
    const value = name === undefined ? undefined : env[name];
    return value === undefined || value.trim() === "" ? undefined : value.trim();
  };

  const apiKey = options.apiKey ?? configured.apiKey ?? defaults.keyVariables.map(fromEnv).find((value) => value !== undefined);
  let baseUrl = options.baseUrl ?? configured.baseUrl ?? fromEnv(defaults.baseUrlVariable);
  if (provider === "ollama") baseUrl = baseUrl === undefined ? ollamaBaseUrl(fromEnv("OLLAMA_HOST")) : ollamaBaseUrl(baseUrl);
  const custom = baseUrl !== undefined && provider !== "ollama";
  baseUrl ??= defaults.baseUrl;
  let protocol = "";
  try {
    protocol = new URL(baseUrl).protocol;
  } catch {
    // reported below
  }
  // "localhost:1234" parses as a URL of scheme "localhost:"; only http and https are APIs
  if (protocol !== "http:" && protocol !== "https:") {
    throw new ProviderError(`${provider}: base URL "${baseUrl}" is not an http(s) URL (e.g. http://127.0.0.1:1234/v1)`, "invalid-options", { provider });
  }
  if (apiKey === undefined && !custom && provider !== "ollama") {
    throw new ProviderError(
      `${provider}: no API key for model "${modelString}": set ${defaults.keyVariables.join(" or ")}, or api_key in the config` +
        (provider === "openai" ? "; for a local OpenAI-compatible server set base_url instead" : ""),
      "missing-api-key",
      { provider },
    );
  }

  const timeoutMs = options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
  if (!(timeoutMs > 0)) throw new ProviderError(`${provider}: timeout must be a positive number of ms, got ${timeoutMs}`, "invalid-options", { provider });
  const headers = { ...configured.headers, ...options.headers };
  const connection: ProviderConnection = {
    model,
    baseUrl,
    apiKey,
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    timeoutMs,
    headers,
  };
  switch (provider) {
    case "openai":
      return new OpenAiProvider(connection);
    case "anthropic":
      return new AnthropicProvider(connection, { defaultMaxTokens: options.defaultMaxTokens });
    case "google":
      return new GoogleProvider(connection);
    case "ollama":
      return new OllamaProvider(connection);
  }
}
