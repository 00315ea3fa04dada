// Skills in the Agent Skills format that pi, Claude Code and Codex share: a folder holding a
// SKILL.md whose front matter gives `name` and `description`. Only each skill's name, description
// and path go into the system prompt; the model reads the body with `read` when a task matches, and
// the person can put a body into the conversation with /skill:name. A skill that cannot be used (bad
// front matter, no name or description, a name already taken) is one warning naming its file,
// never a failed start.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { FrontMatterError, parseFrontMatter } from "./front-matter.js";

export interface Skill {
  name: string;
  description: string;
  /** The SKILL.md file. */
  path: string;
  /** Where the skill's folder came from: the person's own (~/.pitwall/skills) or the project's. */
  scope: "user" | "project";
}

export interface SkillFolder {
  path: string;
  scope: "user" | "project";
}

export interface LoadedSkills {
  skills: Skill[];
  /** One line each, naming the file: what was wrong and that the skill was left out. */
  warnings: string[];
}

/** The Agent Skills format: lowercase letters, digits and single hyphens, at most 64 characters. */
const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_NAME = 64;
const MAX_DESCRIPTION = 1024;
/** How deep below a skills folder a SKILL.md is looked for (skills grouped in folders). */
const MAX_DEPTH = 3;

/** Every skill in `folders`, in their order: a name found again later is a warning, the first stays. */
export function loadSkills(folders: readonly SkillFolder[]): LoadedSkills {
  const skills: Skill[] = [];
  const warnings: string[] = [];
  for (const folder of folders) {
    for (const path of skillFiles(folder.path, 0)) {
      const read = readSkill(path, folder.scope);
      if ("problem" in read) {
        warnings.push(`Skill ${path} was not loaded: ${read.problem}.`);
        continue;
      }
      const taken = skills.find((s) => s.name === read.name);
      if (taken) {
        warnings.push(`Skill ${path} was not loaded: the name "${read.name}" is already taken by ${taken.path}; rename one of them.`);
        continue;
      }
      skills.push(read);
    }
  }
  return { skills, warnings };
}

/** SKILL.md files under `folder`: a folder holding one is a skill, and is not searched further. */
function skillFiles(folder: string, depth: number): string[] {
  let entries: string[];
  try {
    entries = readdirSync(folder).sort();
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const entry of entries) {
    if (entry.startsWith(".") || entry === "node_modules") continue;
    const path = join(folder, entry);
    if (!isFolder(path)) continue;
    const skillFile = join(path, "SKILL.md");
    if (isFile(skillFile)) files.push(skillFile);
    else if (depth + 1 < MAX_DEPTH) files.push(...skillFiles(path, depth + 1));
  }
  return files;
}

function readSkill(path: string, scope: Skill["scope"]): Skill | { problem: string } {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    return { problem: `cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
  }
  let fields: Record<string, string>;
  try {
    const parsed = parseFrontMatter(text);
    if (!parsed.present) return { problem: "it has no front matter (a first line ---, then name: and description:, then ---)" };
    fields = parsed.fields;
  } catch (error) {
    if (error instanceof FrontMatterError) return { problem: `its front matter cannot be read: ${error.message}` };
    throw error;
  }
  const name = fields.name?.trim() ?? "";
  const description = (fields.description ?? "").replace(/\s+/g, " ").trim();
  if (!name) return { problem: "its front matter has no name" };
  if (!NAME.test(name) || name.length > MAX_NAME) return { problem: `its name "${name}" is not lowercase letters, digits and hyphens (at most ${MAX_NAME} characters)` };
  if (!description) return { problem: "its front matter has no description (the model decides from it when to read the skill)" };
  if (description.length > MAX_DESCRIPTION) return { problem: `its description is ${description.length} characters long, more than the ${MAX_DESCRIPTION} allowed` };
  return { name, description, path, scope };
}

/** The system prompt's part about skills: names, descriptions and paths, never the bodies. */
export function skillsPromptSection(skills: readonly Skill[]): string {
  if (skills.length === 0) return "";
  const entries = skills.map((s) => `  <skill>\n    <name>${escapeXml(s.name)}</name>\n    <description>${escapeXml(s.description)}</description>\n    <location>${escapeXml(s.path)}</location>\n  </skill>`);
  return [
    "Skills: the following skills give instructions for specific tasks. When a task matches a skill's description, read its file with the read tool first and follow it; paths in a skill are relative to its folder.",
    "",
    "<available_skills>",
    ...entries,
    "</available_skills>",
  ].join("\n");
}

/** What /skill:name puts into the conversation: the skill's body, then what the person added. */
export function skillMessage(skill: Skill, args: string): string {
  let body: string;
  try {
    body = parseFrontMatter(readFileSync(skill.path, "utf8")).body.trim();
  } catch (error) {
    throw new Error(`the skill ${skill.name} cannot be read from ${skill.path} (${error instanceof Error ? error.message : String(error)})`);
  }
  const block = `<skill name="${escapeXml(skill.name)}" location="${escapeXml(skill.path)}">\nReferences are relative to ${dirname(skill.path)}.\n\n${body}\n</skill>`;
  return args.trim() ? `${block}\n\n${args.trim()}` : block;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
