// AGENTS.md discovery from ~/.pitwall and every folder from the root down to the working directory.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findContextFiles } from "../../agent/context-files.js";
import { describeSystemPrompt } from "../../agent/system-prompt.js";
import { tempDir } from "../helpers/temp-dir.js";

describe("context files", () => {
  const base = tempDir("context");
  const home = join(base, "home");
  const repo = join(base, "repo");
  const pkg = join(repo, "packages", "api");
  mkdirSync(home, { recursive: true });
  mkdirSync(pkg, { recursive: true });
  writeFileSync(join(home, "AGENTS.md"), "Global: prefer pnpm.");
  writeFileSync(join(repo, "AGENTS.md"), "Repo: run npm test before committing.");
  writeFileSync(join(repo, "CLAUDE.md"), "Repo CLAUDE.md: should not load, AGENTS.md wins.");
  writeFileSync(join(pkg, "CLAUDE.md"), "Package: the API uses Fastify.");

  it("loads the global file, then outermost to innermost, AGENTS.md before CLAUDE.md", () => {
    const files = findContextFiles(pkg, home).map((f) => f.path);
    expect(files).toEqual([join(home, "AGENTS.md"), join(repo, "AGENTS.md"), join(pkg, "CLAUDE.md")]);
  });

  it("appends them to a small prompt in labelled blocks, then date and directory, and reports sizes", () => {
    const report = describeSystemPrompt({ cwd: pkg, tools: [], pitwallHome: home, now: new Date("2026-11-22T10:00:00Z") });
    expect(report.prompt).toContain(`<context file="${join(repo, "AGENTS.md")}">\nRepo: run npm test before committing.\n</context>`);
    expect(report.prompt).not.toContain("should not load");
    expect(report.prompt.trimEnd().endsWith(`Current date: 2026-11-22\nWorking directory: ${pkg}`)).toBe(true);
    expect(report.contextFiles.map((f) => f.path)).toHaveLength(3);
    expect(report.contextFiles.every((f) => f.tokens > 0)).toBe(true);
    expect(report.tokens).toBeLessThan(1500);
  });

  it("keeps context files when the instructions are replaced", () => {
    const report = describeSystemPrompt({ cwd: pkg, tools: [], pitwallHome: home, customPrompt: "You are terse." });
    expect(report.prompt.startsWith("You are terse.")).toBe(true);
    expect(report.prompt).toContain("Package: the API uses Fastify.");
  });
});
