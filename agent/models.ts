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

export interface ModelInfo {
  id: string;
  provider: ProviderName;
  /** False for a model id the table does not know. */
  known: boolean;
  contextWindow?: number;
  maxOutputTokens?: number;
  /** Whether the model takes a thinking budget / reasoning effort. */
  reasoning: boolean;
  pricing?: Pricing;
}

type Entry = Omit<ModelInfo, "id" | "known">;

// Prices as published by the providers (USD per million tokens).
const TABLE: Record<string, Entry> = {
  "claude-opus-4-5": { provider: "anthropic", contextWindow: 200_000, maxOutputTokens: 64_000, reasoning: true, pricing: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 } },
  "claude-opus-4-1": { provider: "anthropic", contextWindow: 200_000, maxOutputTokens: 32_000, reasoning: true, pricing: { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 } },
  "claude-sonnet-4-5": { provider: "anthropic", contextWindow: 200_000, maxOutputTokens: 64_000, reasoning: true, pricing: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } },
  "claude-sonnet-4-0": { provider: "anthropic", contextWindow: 200_000, maxOutputTokens: 64_000, reasoning: true, pricing: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } },
  "claude-haiku-4-5": { provider: "anthropic", contextWindow: 200_000, maxOutputTokens: 64_000, reasoning: true, pricing: { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 } },
  "claude-3-5-haiku-latest": { provider: "anthropic", contextWindow: 200_000, maxOutputTokens: 8_192, reasoning: false, pricing: { input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1 } },
  "gpt-5": { provider: "openai", contextWindow: 400_000, maxOutputTokens: 128_000, reasoning: true, pricing: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 } },
  "gpt-5-mini": { provider: "openai", contextWindow: 400_000, maxOutputTokens: 128_000, reasoning: true, pricing: { input: 0.25, output: 2, cacheRead: 0.025, cacheWrite: 0 } },
  "gpt-5-nano": { provider: "openai", contextWindow: 400_000, maxOutputTokens: 128_000, reasoning: true, pricing: { input: 0.05, output: 0.4, cacheRead: 0.005, cacheWrite: 0 } },
  "gpt-4.1": { provider: "openai", contextWindow: 1_047_576, maxOutputTokens: 32_768, reasoning: false, pricing: { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 } },
  "gpt-4.1-mini": { provider: "openai", contextWindow: 1_047_576, maxOutputTokens: 32_768, reasoning: false, pricing: { input: 0.4, output: 1.6, cacheRead: 0.1, cacheWrite: 0 } },
  "gpt-4o": { provider: "openai", contextWindow: 128_000, maxOutputTokens: 16_384, reasoning: false, pricing: { input: 2.5, output: 10, cacheRead: 1.25, cacheWrite: 0 } },
  "o3": { provider: "openai", contextWindow: 200_000, maxOutputTokens: 100_000, reasoning: true, pricing: { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 } },
  "o4-mini": { provider: "openai", contextWindow: 200_000, maxOutputTokens: 100_000, reasoning: true, pricing: { input: 1.1, output: 4.4, cacheRead: 0.275, cacheWrite: 0 } },
};

export const DEFAULT_MODELS: Record<ProviderName, string> = {
  anthropic: "claude-sonnet-4-5",
  openai: "gpt-5",
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
  return { id, provider: finalProvider, known: false, reasoning: known?.reasoning ?? true, contextWindow: known?.contextWindow, maxOutputTokens: known?.maxOutputTokens };
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
