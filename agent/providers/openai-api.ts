// Which OpenAI API a request goes through, decided without loading the SDK: `--api` when given;
// Chat Completions for any other server behind a base URL (Ollama, vLLM, OpenRouter speak it, few
// speak Responses); otherwise the model table's choice (Responses for the GPT-5 family and o-series).
import type { ModelInfo, OpenAIApi } from "../models.js";
import type { ProviderConnection } from "./provider.js";

export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** No base URL, or one on openai.com: the real OpenAI API. */
export function isOfficialOpenAI(baseUrl: string | undefined): boolean {
  return !baseUrl || /(^|\.)openai\.com$/.test(hostOf(baseUrl).replace(/:\d+$/, ""));
}

export function openaiApiFor(model: ModelInfo, connection: ProviderConnection): OpenAIApi {
  if (connection.api) return connection.api;
  if (!isOfficialOpenAI(connection.baseUrl)) return "chat";
  return model.api ?? "chat";
}
