// Skills and prompt templates through the real CLI: a skill's name, description and path reach the
// system prompt and its body does not; a template runs in print and JSON modes with its arguments
// filled; a project's own skills and templates load only once the project is trusted; a bad skill
// is one warning naming its file, never a failed start.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";
import { cliEnv, runCli } from "../helpers/cli-process.js";
import { tempDir } from "../helpers/temp-dir.js";

const llm = useFakeLlm();

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function skill(folder: string, name: string, description: string, body: string): string {
  const path = join(folder, name, "SKILL.md");
  write(path, `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`);
  return path;
}

/** The system prompt of the index-th request (Anthropic's Messages API keeps it beside the messages). */
function systemOf(index = 0): string {
  const system = llm.requests[index]!.json.system as string | Array<{ text: string }>;
  return typeof system === "string" ? system : system.map((block) => block.text).join("\n");
}

function lastUserText(index = 0): string {
  const messages = llm.requests[index]!.json.messages as Array<{ role: string; content: string | Array<{ type: string; text?: string }> }>;
  const last = messages.filter((m) => m.role === "user").at(-1)!;
  return typeof last.content === "string" ? last.content : last.content.map((part) => part.text ?? "").join("");
}

function setup(): { home: string; pitwallHome: string; project: string; env: NodeJS.ProcessEnv } {
  const home = tempDir("home");
  const project = tempDir("project");
  const env = cliEnv({ home, apiKey: "sk-test-0123456789", anthropicBaseUrl: llm.anthropicBaseUrl });
  return { home, pitwallHome: env.PITWALL_HOME!, project, env };
}

describe("skills", () => {
  it("puts a skill's name, description and path into the system prompt, never its body", async () => {
    const { pitwallHome, project, env } = setup();
    const path = skill(join(pitwallHome, "skills"), "release-notes", "Write release notes from the git log", "SECRET-BODY-STEP: run git log --oneline first.");
    llm.enqueue({ kind: "reply", text: "ok" });
    const result = await runCli(["-p", "hello", "--no-session", "--cwd", project], env);
    expect(result.code).toBe(0);
    const system = systemOf();
    expect(system).toContain("<name>release-notes</name>");
    expect(system).toContain("Write release notes from the git log");
    expect(system).toContain(path);
    expect(llm.requests[0]!.transcript).not.toContain("SECRET-BODY-STEP");
  });

  it("/skill:name puts the skill's body into the conversation, with what follows it", async () => {
    const { pitwallHome, project, env } = setup();
    skill(join(pitwallHome, "skills"), "release-notes", "Write release notes", "SECRET-BODY-STEP: run git log --oneline first.");
    llm.enqueue({ kind: "reply", text: "ok" });
    const result = await runCli(["-p", "/skill:release-notes for v2.1", "--no-session", "--cwd", project], env);
    expect(result.code).toBe(0);
    const text = lastUserText();
    expect(text).toContain("SECRET-BODY-STEP");
    expect(text).toMatch(/for v2\.1$/);
    expect(text).not.toContain("description:");
  });

  it("a bad front matter or a taken name is one warning naming the file, and the run goes on", async () => {
    const { pitwallHome, project, env } = setup();
    const skills = join(pitwallHome, "skills");
    skill(skills, "alpha", "The first alpha", "body");
    const broken = join(skills, "broken", "SKILL.md");
    write(broken, "---\nname: broken\ndescription: never closed\n\nbody\n");
    const unnamed = join(skills, "unnamed", "SKILL.md");
    write(unnamed, "---\ndescription: no name here\n---\nbody\n");
    const again = join(skills, "zz-group", "alpha", "SKILL.md");
    write(again, "---\nname: alpha\ndescription: The second alpha\n---\nbody\n");
    llm.enqueue({ kind: "reply", text: "ok" });
    const result = await runCli(["-p", "hello", "--no-session", "--cwd", project], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("ok\n");
    const lines = result.stderr.split("\n");
    expect(lines.filter((l) => l.includes(broken))).toEqual([expect.stringMatching(/Skill .* was not loaded: its front matter cannot be read: .*never closed/)]);
    expect(lines.filter((l) => l.includes(unnamed))).toEqual([expect.stringMatching(/was not loaded: its front matter has no name/)]);
    expect(lines.filter((l) => l.startsWith(`pitwall: Skill ${again}`))).toEqual([expect.stringContaining(`already taken by ${join(skills, "alpha", "SKILL.md")}`)]);
    expect(systemOf()).toContain("The first alpha");
    expect(systemOf()).not.toContain("The second alpha");
  });
});

describe("prompt templates", () => {
  it("pitwall -p \"/review src/app.ts\" sends the template with its arguments filled", async () => {
    const { pitwallHome, project, env } = setup();
    write(join(pitwallHome, "prompts", "review.md"), "Review $1 for bugs, then check $2.\nAll arguments: $@\n");
    llm.enqueue({ kind: "reply", text: "reviewed" });
    const result = await runCli(["-p", '/review src/app.ts "the tests"', "--no-session", "--cwd", project], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("reviewed\n");
    expect(lastUserText()).toBe("Review src/app.ts for bugs, then check the tests.\nAll arguments: src/app.ts the tests");
  });

  it("works in JSON mode, and a /skill: naming no skill is an error event that sends nothing", async () => {
    const { pitwallHome, project, env } = setup();
    write(join(pitwallHome, "prompts", "explain.md"), "---\ndescription: Explain a file\n---\nExplain $1 in two sentences.\n");
    llm.enqueue({ kind: "reply", text: "explained" });
    const input = `${JSON.stringify({ type: "message", content: "/skill:nothing-here" })}\n${JSON.stringify({ type: "message", content: "/explain README.md" })}\n`;
    const result = await runCli(["--json", "--no-session", "--cwd", project], env, { input });
    expect(result.code).toBe(0);
    const events = result.stdout.trim().split("\n").map((line) => JSON.parse(line) as { type: string; message?: string });
    expect(events.find((e) => e.type === "error")?.message).toMatch(/Input line 1: No skill named "nothing-here" \(no skills are loaded\)/);
    expect(llm.requests).toHaveLength(1);
    expect(lastUserText()).toBe("Explain README.md in two sentences.");
  });
});

describe("project trust", () => {
  function projectResources(project: string): void {
    skill(join(project, ".agents", "skills"), "project-deploy", "Deploy this project", "DEPLOY-BODY");
    write(join(project, ".pitwall", "prompts", "ship.md"), "Ship it: $@\n");
  }

  it("leaves an untrusted project's skills and templates unloaded, and says so in one line", async () => {
    const { project, env } = setup();
    projectResources(project);
    write(join(project, "AGENTS.md"), "PROJECT-AGENTS-RULE\n");
    llm.enqueue({ kind: "reply", text: "ok" });
    const result = await runCli(["-p", "hello", "--no-session", "--cwd", project], env);
    expect(result.code).toBe(0);
    expect(systemOf()).not.toContain("project-deploy");
    // AGENTS.md loads as before.
    expect(systemOf()).toContain("PROJECT-AGENTS-RULE");
    const notes = result.stderr.split("\n").filter((l) => l.includes("not loaded"));
    expect(notes).toEqual([
      "pitwall: This project's 1 skill and 1 prompt template (.agents/skills, .pitwall/prompts) were not loaded: this project is not trusted yet: the dashboard asks once, or pass --trust-project.",
    ]);
    // Its template is not a command either: the text goes as typed.
    llm.enqueue({ kind: "reply", text: "ok" });
    await runCli(["-p", "/ship now", "--no-session", "--cwd", project], env);
    expect(lastUserText(1)).toBe("/ship now");
  });

  it("loads them with --trust-project, or when trust.json remembers the project as trusted", async () => {
    const { pitwallHome, project, env } = setup();
    projectResources(project);
    llm.enqueue({ kind: "reply", text: "ok" }, { kind: "reply", text: "ok" });
    const flagged = await runCli(["-p", "/ship today", "--trust-project", "--no-session", "--cwd", project], env);
    expect(flagged.code).toBe(0);
    expect(flagged.stderr).not.toContain("not loaded");
    expect(systemOf(0)).toContain("<name>project-deploy</name>");
    expect(lastUserText(0)).toBe("Ship it: today");
    // --trust-project is for one run: nothing was remembered.
    expect(() => readFileSync(join(pitwallHome, "trust.json"), "utf8")).toThrow();

    write(join(pitwallHome, "trust.json"), JSON.stringify({ projects: { [project]: { trusted: true } } }));
    const remembered = await runCli(["-p", "hello", "--no-session", "--cwd", project], env);
    expect(remembered.code).toBe(0);
    expect(systemOf(1)).toContain("<name>project-deploy</name>");
  });

  it("a project remembered as untrusted stays unloaded, and the line says where that is remembered", async () => {
    const { pitwallHome, project, env } = setup();
    projectResources(project);
    write(join(pitwallHome, "trust.json"), JSON.stringify({ projects: { [project]: { trusted: false } } }));
    llm.enqueue({ kind: "reply", text: "ok" });
    const result = await runCli(["-p", "hello", "--no-session", "--cwd", project], env);
    expect(systemOf()).not.toContain("project-deploy");
    expect(result.stderr).toContain(`were not loaded: you chose not to trust this project (remembered in ${join(pitwallHome, "trust.json")}; --trust-project loads them for one run)`);
  });
});
