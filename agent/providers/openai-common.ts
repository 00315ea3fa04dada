// What the two OpenAI paths (Chat Completions and Responses) share: the SDK client, how failures are
// labelled (OpenAI, or the compatible server's host), and how thinking levels become reasoning efforts.
import OpenAI from "openai";
import type { ReasoningEffort } from "openai/resources/shared";
import type { ThinkingLevel } from "../messages.js";
import type { ModelInfo } from "../models.js";
import type { FailureContext } from "./errors.js";
import { hostOf, isOfficialOpenAI } from "./openai-api.js";
import type { ProviderConnection } from "./provider.js";
import { httpFetch } from "./http-fetch.js";
import { proxyName } from "./proxy.js";
import { DEFAULT_STREAM_TIMEOUTS, PATIENT_MS } from "./stall-guard.js";

/** `patient`: for requests that may stay silent for minutes (see PATIENT_MS). */
export function createOpenAIClient(connection: ProviderConnection, options: { patient?: boolean } = {}): OpenAI {
  const base = connection.timeouts ?? DEFAULT_STREAM_TIMEOUTS;
  const timeouts = options.patient ? { headerMs: Math.max(base.headerMs, PATIENT_MS), idleMs: Math.max(base.idleMs, PATIENT_MS) } : base;
  return new OpenAI({
    // A local server needs no key, but the SDK refuses an empty one.
    apiKey: connection.apiKey || "not-needed",
    baseURL: connection.baseUrl,
    maxRetries: 0, // the agent loop retries, so each attempt is visible as a retry event
    // Stalls are caught by our fetch; the SDK's own timer is only a backstop.
    timeout: Math.max(PATIENT_MS, timeouts.headerMs + 1_000),
    fetch: httpFetch(timeouts, connection.proxy),
  });
}

export function openaiFailureContext(connection: ProviderConnection, model: string): FailureContext {
  return {
    label: isOfficialOpenAI(connection.baseUrl) ? "OpenAI" : `The OpenAI-compatible server at ${hostOf(connection.baseUrl ?? "")}`,
    keyVariable: "OPENAI_API_KEY",
    model,
    baseUrl: connection.baseUrl,
    proxy: proxyName(connection.baseUrl ?? "https://api.openai.com/v1", connection.proxy),
  };
}

/**
 * The least reasoning each OpenAI family accepts, and what "minimal" becomes: gpt-5.1 and later
 * can switch reasoning off ("none"), gpt-5 goes down to "minimal", the o-series to "low".
 */
function effortFloor(model: ModelInfo): { off: ReasoningEffort; minimal: ReasoningEffort } {
  if (/^gpt-5\.\d/.test(model.id)) return { off: "none", minimal: "low" };
  if (model.id.startsWith("gpt-5")) return { off: "minimal", minimal: "minimal" };
  return { off: "low", minimal: "low" };
}

/** The effort to ask for, or undefined to send none. */
export function reasoningEffort(model: ModelInfo, level: ThinkingLevel, official: boolean): ReasoningEffort | undefined {
  if (official && !model.reasoning) return undefined;
  // A local server's model gets an effort only when one was asked for.
  if (!official || !model.known) return level === "off" ? undefined : level;
  const floor = effortFloor(model);
  if (level === "off") return floor.off;
  if (level === "minimal") return floor.minimal;
  return level;
}
