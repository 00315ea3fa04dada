// The model ids a person reads in --help and the README come from the model table: the defaults
// are the table's, and every id they name is one pitwall knows.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { HELP } from "../../app/cli-options.js";
import { DEFAULT_MODELS, knownModelIds } from "../../agent/models.js";

const README = readFileSync(fileURLToPath(new URL("../../README.md", import.meta.url)), "utf8");
const MODEL_ID = /\b(?:claude-[a-z]+-[\d-]+|gpt-[\d.]+(?:-[a-z]+)?|o\d(?:-mini)?)\b/g;

describe("model ids in the help and the README", () => {
  test("--help gives the table's default ids as examples", () => {
    expect(HELP).toContain(`A known id (${DEFAULT_MODELS.anthropic}, ${DEFAULT_MODELS.openai}, …)`);
    for (const id of HELP.match(MODEL_ID) ?? []) expect(knownModelIds()).toContain(id);
  });

  test("the README names the table's defaults and only ids the table knows", () => {
    expect(README).toContain(`(default model \`${DEFAULT_MODELS.anthropic}\`)`);
    expect(README).toContain(`(default model \`${DEFAULT_MODELS.openai}\`)`);
    const named = README.match(MODEL_ID) ?? [];
    expect(named.length).toBeGreaterThan(3);
    for (const id of named) expect(knownModelIds()).toContain(id);
  });
});
