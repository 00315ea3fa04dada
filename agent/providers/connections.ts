// Where each provider is reached and with which key: flags beat the environment. Providers are
// created lazily on first use, so importing the agent does not load either SDK.
import type { ModelInfo, OpenAIApi, ProviderName } from "../models.js";
import { prepareHttp } from "./http-fetch.js";
import { openaiApiFor } from "./openai-api.js";
import { ProviderError, type Provider, type ProviderConnection } from "./provider.js";
import type { StreamTimeouts } from "./stall-guard.js";
import { proxyFromEnv } from "./proxy.js";

export type Connections = Record<ProviderName, ProviderConnection>;

export interface ConnectionFlags {
  provider?: ProviderName;
  apiKey?: string;
  baseUrl?: string;
  /** `--api`: the OpenAI API to use whatever the model (OpenAI only). */
  api?: OpenAIApi;
}

/**
 * `--api-key` / `--base-url` apply to the chosen provider; otherwise the environment's variables.
 * HTTPS_PROXY, HTTP_PROXY and NO_PROXY (either case) apply to both (proxy.ts).
 * How long a silent server is waited for is the agent's setting (createProviderResolver).
 */
export function resolveConnections(flags: ConnectionFlags, env: NodeJS.ProcessEnv = process.env): Connections {
  const flagTarget = flags.provider ?? (flags.baseUrl ? "openai" : undefined);
  const proxy = proxyFromEnv(env);
  const pick = (name: ProviderName, keyVar: string, urlVar: string): ProviderConnection => ({
    apiKey: (flagTarget === name || (!flagTarget && flags.apiKey) ? flags.apiKey : undefined) || env[keyVar] || undefined,
    baseUrl: (flagTarget === name ? flags.baseUrl : undefined) || env[urlVar] || undefined,
    ...(proxy ? { proxy } : {}),
  });
  return {
    anthropic: pick("anthropic", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"),
    openai: { ...pick("openai", "OPENAI_API_KEY", "OPENAI_BASE_URL"), ...(flags.api ? { api: flags.api } : {}) },
  };
}

/** The provider to use when neither --provider nor --model says: the first one that is configured. */
export function defaultProvider(flags: ConnectionFlags, connections: Connections): ProviderName {
  if (flags.provider) return flags.provider;
  if (flags.baseUrl || flags.api) return "openai";
  if (connections.anthropic.apiKey) return "anthropic";
  if (connections.openai.apiKey || connections.openai.baseUrl) return "openai";
  if (connections.anthropic.baseUrl) return "anthropic";
  return "anthropic";
}

/** A provider is usable with a key, or with a base URL (a local server needs none). */
export function isConfigured(connection: ProviderConnection): boolean {
  return Boolean(connection.apiKey || connection.baseUrl);
}

export function missingKeyMessage(provider: ProviderName): string {
  const variable = provider === "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY";
  return (
    `No API key for ${provider === "anthropic" ? "Anthropic" : "OpenAI"}: set ${variable} (or pass --api-key), ` +
    `or use a local OpenAI-compatible server: --provider openai --base-url http://localhost:11434/v1 --model <name>.`
  );
}

export type ProviderResolver = (model: ModelInfo) => Promise<Provider>;

/**
 * One provider per API in use: Anthropic, OpenAI Chat Completions, OpenAI Responses. A connection
 * without stall timeouts of its own gets `timeouts` (the agent's settings), else the defaults.
 */
export function createProviderResolver(connections: Connections, timeouts?: StreamTimeouts): ProviderResolver {
  const cache = new Map<string, Promise<Provider>>();
  return (model) => {
    const connection = connections[model.provider];
    const api = model.provider === "openai" ? openaiApiFor(model, connection) : undefined;
    const key = api ? `${model.provider}:${api}` : model.provider;
    let provider = cache.get(key);
    if (!provider) {
      provider = load(model.provider, { ...connection, timeouts: connection.timeouts ?? timeouts }, api);
      cache.set(key, provider);
    }
    return provider;
  };
}

async function load(name: ProviderName, connection: ProviderConnection, api: OpenAIApi | undefined): Promise<Provider> {
  if (!isConfigured(connection)) {
    return {
      name,
      stream() {
        throw new ProviderError(missingKeyMessage(name), "config", { retryable: false });
      },
    };
  }
  // Without a base URL, the SDK talks to the provider's own https:// API.
  await prepareHttp(connection.baseUrl, connection.proxy);
  if (name === "anthropic") {
    const { createAnthropicProvider } = await import("./anthropic.js");
    return createAnthropicProvider(connection);
  }
  if (api === "responses") {
    const { createOpenAIResponsesProvider } = await import("./openai-responses.js");
    return createOpenAIResponsesProvider(connection);
  }
  const { createOpenAIProvider } = await import("./openai.js");
  return createOpenAIProvider(connection);
}
