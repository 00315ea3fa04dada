// ~/.pitwall/config.json: valid fields load, bad ones are reported by name and ignored.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../app/config.js";
import { tempDir } from "../helpers/temp-dir.js";

const homeWith = (text: string | undefined): string => {
  const home = tempDir("config");
  if (text !== undefined) writeFileSync(join(home, "config.json"), text);
  return home;
};

describe("config.json", () => {
  it("is optional", () => {
    expect(loadConfig(homeWith(undefined))).toMatchObject({ config: {}, warnings: [] });
  });

  it("loads the known fields", () => {
    const { config, warnings } = loadConfig(homeWith(JSON.stringify({ provider: "openai", model: "qwen", thinking: "low", baseUrl: "http://localhost:8080/v1", keymap: "/k.json" })));
    expect(warnings).toEqual([]);
    expect(config).toEqual({ provider: "openai", model: "qwen", thinking: "low", baseUrl: "http://localhost:8080/v1", keymap: "/k.json" });
  });

  it("takes the context window and the compaction threshold, and rejects nonsense", () => {
    expect(loadConfig(homeWith(JSON.stringify({ contextWindow: 32_000, compactAt: 70 })))).toMatchObject({ config: { contextWindow: 32_000, compactAt: 70 }, warnings: [] });
    const { config, warnings } = loadConfig(homeWith(JSON.stringify({ contextWindow: "32k", compactAt: 5 })));
    expect(config).toEqual({});
    expect(warnings).toEqual([expect.stringContaining('"contextWindow" must be a number of tokens'), expect.stringContaining('"compactAt" must be a whole percent from 10 to 95')]);
  });

  it("names a bad field and ignores only it", () => {
    const { config, warnings } = loadConfig(homeWith(JSON.stringify({ provider: "gemini", model: "gpt-5.4", colour: "red" })));
    expect(config).toEqual({ model: "gpt-5.4" });
    expect(warnings).toEqual([expect.stringContaining('"provider" must be "anthropic" or "openai"'), expect.stringContaining('unknown field "colour"')]);
  });

  it("survives a file that is not JSON", () => {
    const { config, warnings } = loadConfig(homeWith("{ provider: anthropic"));
    expect(config).toEqual({});
    expect(warnings[0]).toMatch(/is not valid JSON/);
  });
});
