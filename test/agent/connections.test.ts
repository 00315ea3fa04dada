// Which provider is used, with which key and base URL: flags beat the environment.
import { describe, expect, it } from "vitest";
import { defaultProvider, isConfigured, missingKeyMessage, resolveConnections } from "../../agent/providers/connections.js";
import { resolveModel } from "../../agent/models.js";
import { openaiApiFor } from "../../agent/providers/openai-api.js";

describe("provider connections", () => {
  it("read keys and base URLs from the environment", () => {
    const env = { ANTHROPIC_API_KEY: "a-key", OPENAI_API_KEY: "o-key", OPENAI_BASE_URL: "http://localhost:8000/v1", ANTHROPIC_BASE_URL: "https://gw.example/anthropic" };
    // The stall timeouts are the agent's settings (app/settings.ts), not the connections'.
    expect(resolveConnections({}, { ...env, PITWALL_HEADER_TIMEOUT_MS: "1500", PITWALL_IDLE_TIMEOUT_MS: "2500" })).toEqual({
      anthropic: { apiKey: "a-key", baseUrl: "https://gw.example/anthropic" },
      openai: { apiKey: "o-key", baseUrl: "http://localhost:8000/v1" },
    });
  });

  it("apply --api-key and --base-url to the chosen provider, over the environment", () => {
    const env = { OPENAI_API_KEY: "env-key", OPENAI_BASE_URL: "http://env/v1" };
    const c = resolveConnections({ provider: "openai", apiKey: "flag-key", baseUrl: "http://flag/v1" }, env);
    expect(c.openai).toMatchObject({ apiKey: "flag-key", baseUrl: "http://flag/v1" });
    expect(c.anthropic).toMatchObject({ apiKey: undefined, baseUrl: undefined });
  });

  it("pick the provider: flag, then a base URL, then whichever key is set", () => {
    const none = resolveConnections({}, {});
    expect(defaultProvider({}, none)).toBe("anthropic");
    expect(defaultProvider({ baseUrl: "http://x/v1" }, none)).toBe("openai");
    expect(defaultProvider({}, resolveConnections({}, { OPENAI_API_KEY: "k" }))).toBe("openai");
    expect(defaultProvider({}, resolveConnections({}, { OPENAI_BASE_URL: "http://ollama/v1" }))).toBe("openai");
    expect(defaultProvider({}, resolveConnections({}, { OPENAI_API_KEY: "k", ANTHROPIC_API_KEY: "k" }))).toBe("anthropic");
  });

  it("a local server needs no key; without key or URL the message says what to do", () => {
    expect(isConfigured({ baseUrl: "http://localhost:11434/v1" })).toBe(true);
    expect(isConfigured({})).toBe(false);
    expect(missingKeyMessage("openai")).toMatch(/set OPENAI_API_KEY.*--base-url http:\/\/localhost:11434\/v1/);
  });
});

describe("model ids", () => {
  it("accept provider/id, known ids, and unknown ids as they are", () => {
    expect(resolveModel("openai/gpt-5.4", undefined, "anthropic")).toMatchObject({ id: "gpt-5.4", provider: "openai", known: true });
    expect(resolveModel("claude-opus-5-5", undefined, "openai")).toMatchObject({ provider: "anthropic", known: true });
    const local = resolveModel("qwen2.5-coder:14b", "openai", "anthropic");
    expect(local).toMatchObject({ id: "qwen2.5-coder:14b", provider: "openai", known: false });
    expect(local.pricing).toBeUndefined();
    expect(resolveModel(undefined, "openai", "anthropic").id).toBe("gpt-5.4");
    expect(() => resolveModel("anthropic/claude-opus-5-5", "openai", "openai")).toThrow(/drop one of them/);
  });
});

describe("which OpenAI API", () => {
  const official = {};
  const local = { baseUrl: "http://localhost:11434/v1" };
  it("follows the model table on OpenAI itself: Responses for GPT-5 and o-series, Chat for the rest", () => {
    expect(openaiApiFor(resolveModel("gpt-5.4", "openai", "openai"), official)).toBe("responses");
    expect(openaiApiFor(resolveModel("o4-mini", "openai", "openai"), official)).toBe("responses");
    expect(openaiApiFor(resolveModel("gpt-4.1", "openai", "openai"), official)).toBe("chat");
    // A newer id the table does not list yet goes by its family.
    expect(openaiApiFor(resolveModel("gpt-5.9-pro", "openai", "openai"), official)).toBe("responses");
    expect(openaiApiFor(resolveModel("gpt-4o-mini", "openai", "openai"), official)).toBe("chat");
    expect(openaiApiFor(resolveModel("gpt-5.4", "openai", "openai"), { baseUrl: "https://api.openai.com/v1" })).toBe("responses");
  });

  it("uses Chat Completions for any other server, unless --api says otherwise", () => {
    expect(openaiApiFor(resolveModel("gpt-5.4", "openai", "openai"), local)).toBe("chat");
    expect(openaiApiFor(resolveModel("qwen3", "openai", "openai"), { ...local, api: "responses" })).toBe("responses");
    expect(openaiApiFor(resolveModel("gpt-5.4", "openai", "openai"), { api: "chat" })).toBe("chat");
  });

  it("takes --api from the flags into the OpenAI connection only, and --api alone means OpenAI", () => {
    const c = resolveConnections({ api: "responses" }, {});
    expect(c.openai.api).toBe("responses");
    expect(c.anthropic).not.toHaveProperty("api");
    expect(defaultProvider({ api: "responses" }, c)).toBe("openai");
  });
});
