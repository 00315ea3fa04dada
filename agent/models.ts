// The small model table: context windows, output limits, prices and reasoning support for the models
// pitwall knows. A model id the table does not know (a local server's model) is accepted as is: its
// tokens are counted and its cost shown as unknown.
import type { Cost, Usage } from "./messages.js";

export type ProviderName = "anthropic" | "openai";
export const PROVIDER_NAMES: readonly ProviderName[] = ["anthropic", "openai"];

/** Dollars per million tokens. */
export interface Pricing {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/**
 * How a model is told to think. "budget": a token budget (older Claude); "adaptive": the model
 * decides, an effort level steers it, and it can be switched off (Claude 4.6 and later);
 * "always": adaptive and cannot be switched off; "effort": OpenAI's reasoning_effort.
 */
export type ThinkingStyle = "budget" | "adaptive" | "always" | "effort";

/** The two OpenAI APIs: Chat Completions (every compatible server) and Responses (reasoning models). */
export type OpenAIApi = "chat" | "responses";
export const OPENAI_APIS: readonly OpenAIApi[] = ["chat", "responses"];

export interface ModelInfo {
  id: string;
  provider: ProviderName;
  /** False for a model id the table does not know. */
  known: boolean;
  contextWindow?: number;
  maxOutputTokens?: number;
  /** Whether the model takes a thinking budget / reasoning effort at all. */
  reasoning: boolean;
  thinkingStyle?: ThinkingStyle;
  pricing?: Pricing;
  /** True when the table knows the model reads no images; unknown models are assumed to. */
  textOnly?: boolean;
  /** The OpenAI API the model is best used through (GPT-5 family and o-series: Responses). */
  api?: OpenAIApi;
}

type Entry = Omit<ModelInfo, "id" | "known">;

const claude = (contextWindow: number, maxOutputTokens: number, thinkingStyle: ThinkingStyle, input: number, output: number): Entry => ({
  provider: "anthropic",
  contextWindow,
  maxOutputTokens,
  reasoning: true,
  thinkingStyle,
  // Cache reads cost a tenth of input, 5-minute cache writes a quarter more than input.
  pricing: { input, output, cacheRead: input / 10, cacheWrite: input * 1.25 },
});
// OpenAI caches prompts by itself and charges nothing for writing the cache.
const gpt = (contextWindow: number | undefined, maxOutputTokens: number | undefined, reasoning: boolean, input: number, output: number, cacheRead: number): Entry => ({
  provider: "openai",
  contextWindow,
  maxOutputTokens,
  reasoning,
  thinkingStyle: reasoning ? "effort" : undefined,
  pricing: { input, output, cacheRead, cacheWrite: 0 },
  api: reasoning ? "responses" : "chat",
});

// Published prices, USD per million tokens, as of November 2026.
const TABLE: Record<string, Entry> = {
  "claude-sonnet-5-5": claude(1_000_000, 128_000, "adaptive", 2, 10),
  "claude-opus-5-5": claude(1_000_000, 128_000, "always", 4, 20),
  "claude-fable-5-1": claude(1_000_000, 128_000, "always", 10, 50),
  "claude-sonnet-5": claude(1_000_000, 128_000, "adaptive", 2, 10),
  "claude-opus-5": claude(1_000_000, 128_000, "adaptive", 5, 25),
  "claude-sonnet-4-6": claude(1_000_000, 128_000, "adaptive", 3, 15),
  "claude-opus-4-6": claude(1_000_000, 128_000, "adaptive", 5, 25),
  "claude-opus-4-5": claude(200_000, 64_000, "budget", 5, 25),
  "claude-sonnet-4-5": claude(200_000, 64_000, "budget", 3, 15),
  "claude-haiku-4-5": claude(200_000, 64_000, "budget", 1, 5),
  "gpt-5.4": gpt(undefined, undefined, true, 2.5, 15, 0.25),
  "gpt-5.4-mini": gpt(undefined, undefined, true, 0.75, 4.5, 0.075),
  "gpt-5": gpt(400_000, 128_000, true, 1.25, 10, 0.125),
  "gpt-5-mini": gpt(400_000, 128_000, true, 0.25, 2, 0.025),
  "gpt-4.1": gpt(1_047_576, 32_768, false, 2, 8, 0.5),
  "gpt-4o": gpt(128_000, 16_384, false, 2.5, 10, 1.25),
  "o3": gpt(200_000, 100_000, true, 2, 8, 0.5),
  "o4-mini": gpt(200_000, 100_000, true, 1.1, 4.4, 0.275),
  "o3-mini": { ...gpt(200_000, 100_000, true, 1.1, 4.4, 0.55), textOnly: true },
};

/** Each provider's default model: also the example ids --help gives (test/cli/model-examples.test.ts checks the README). */
export const DEFAULT_MODELS: Record<ProviderName, string> = {
  anthropic: "claude-sonnet-5-5",
  openai: "gpt-5.4",
};

export function knownModelIds(): string[] {
  return Object.keys(TABLE);
}

export function lookupModel(id: string): ModelInfo | undefined {
  const entry = TABLE[id];
  return entry ? { id, known: true, ...entry } : undefined;
}

export class ModelSpecError extends Error {}

/**
 * Turns `--model` (and `--provider`) into a model: "provider/id", a known id, or an unknown id for
 * the given provider (a local server's model). `fallbackProvider` is used when nothing else says.
 */
export function resolveModel(spec: string | undefined, provider: ProviderName | undefined, fallbackProvider: ProviderName): ModelInfo {
  let id = spec?.trim();
  let chosen = provider;
  if (id && id.includes("/")) {
    const slash = id.indexOf("/");
    const prefix = id.slice(0, slash);
    if (isProviderName(prefix)) {
      if (provider && provider !== prefix) {
        throw new ModelSpecError(`--model ${id} names provider ${prefix} but --provider is ${provider}: drop one of them.`);
      }
      chosen = prefix;
      id = id.slice(slash + 1);
    }
  }
  if (!id) id = DEFAULT_MODELS[chosen ?? fallbackProvider];
  const known = lookupModel(id);
  if (known && (!chosen || chosen === known.provider)) return known;
  const finalProvider = chosen ?? known?.provider ?? fallbackProvider;
  // A known id served through the other API (a gateway) keeps its limits but not our price list.
  return {
    id,
    provider: finalProvider,
    known: false,
    reasoning: known?.reasoning ?? true,
    thinkingStyle: known?.thinkingStyle ?? (finalProvider === "anthropic" ? "adaptive" : "effort"),
    contextWindow: known?.contextWindow,
    maxOutputTokens: known?.maxOutputTokens,
    ...(known?.textOnly ? { textOnly: true } : {}),
    ...(finalProvider === "openai" ? { api: known?.api ?? guessOpenAIApi(id) } : {}),
  };
}

/** A newer OpenAI id the table does not list yet: its family decides (gpt-5…, o1/o3/o4…: Responses). */
function guessOpenAIApi(id: string): OpenAIApi {
  return /^(gpt-5|o\d)/.test(id) ? "responses" : "chat";
}

export function isProviderName(value: string): value is ProviderName {
  return (PROVIDER_NAMES as readonly string[]).includes(value);
}

/** Cost of one message's usage, or null when the model has no price. */
export function costOf(model: ModelInfo, usage: Omit<Usage, "cost" | "totalTokens">): Cost | null {
  if (!model.pricing) return null;
  const p = model.pricing;
  const input = (usage.input * p.input) / 1e6;
  const output = (usage.output * p.output) / 1e6;
  const cacheRead = (usage.cacheRead * p.cacheRead) / 1e6;
  const cacheWrite = (usage.cacheWrite * p.cacheWrite) / 1e6;
  return { input, output, cacheRead, cacheWrite, total: input + output + cacheRead + cacheWrite };
}
