// What a run adds to the agent from files beside the code: skills and prompt templates, the
// person's own (~/.pitwall/skills, ~/.pitwall/prompts) and the project's (.pitwall/skills,
// .agents/skills, .pitwall/prompts in the working directory). The project's load only when the
// person trusts the project (app/project-trust.ts decides); until then they are counted, not read,
// so one line can say what was left unloaded and why. Nothing here reads settings: a project's
// files add instructions, never change pitwall's settings or its sandbox.
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { loadPromptTemplates, type PromptTemplate, type TemplateFolder } from "./prompt-templates.js";
import { loadSkills, type Skill, type SkillFolder } from "./skills.js";

export interface ResourceOptions {
  /** ~/.pitwall (PITWALL_HOME). */
  home: string;
  cwd: string;
  /** Whether the project's own skills and templates load. */
  trustProject: boolean;
  /** Command names a template may not take (the built-in slash commands). */
  reservedCommands?: ReadonlySet<string>;
}

/** A project's skills and templates that were left unloaded: how many, and where. */
export interface UnloadedProjectResources {
  skills: number;
  templates: number;
  /** The folders holding them, relative to the working directory. */
  folders: string[];
}

export interface Resources {
  skills: Skill[];
  templates: PromptTemplate[];
  /** Bad skills and templates, one line each naming the file; never fatal. */
  warnings: string[];
  /** Set when the project has skills or templates that did not load because it is not trusted. */
  unloaded?: UnloadedProjectResources;
}

export const NO_RESOURCES: Resources = { skills: [], templates: [], warnings: [] };

export function userResourceFolders(home: string): { skills: SkillFolder[]; templates: TemplateFolder[] } {
  return { skills: [{ path: join(home, "skills"), scope: "user" }], templates: [{ path: join(home, "prompts"), scope: "user" }] };
}

export function projectResourceFolders(cwd: string): { skills: SkillFolder[]; templates: TemplateFolder[] } {
  return {
    skills: [
      { path: join(cwd, ".pitwall", "skills"), scope: "project" },
      { path: join(cwd, ".agents", "skills"), scope: "project" },
    ],
    templates: [{ path: join(cwd, ".pitwall", "prompts"), scope: "project" }],
  };
}

export function loadResources(options: ResourceOptions): Resources {
  const user = userResourceFolders(options.home);
  const project = projectResourceFolders(options.cwd);
  const trusted = options.trustProject;
  const skills = loadSkills([...user.skills, ...(trusted ? project.skills : [])]);
  const templates = loadPromptTemplates([...user.templates, ...(trusted ? project.templates : [])], options.reservedCommands);
  const unloaded = trusted ? undefined : unloadedProjectResources(options.cwd);
  return { skills: skills.skills, templates: templates.templates, warnings: [...skills.warnings, ...templates.warnings], ...(unloaded ? { unloaded } : {}) };
}

/** What the project would add once trusted (counted from the folders, nothing read); undefined when nothing. */
export function unloadedProjectResources(cwd: string): UnloadedProjectResources | undefined {
  const project = projectResourceFolders(cwd);
  const folders: string[] = [];
  let skills = 0;
  for (const folder of project.skills) {
    const count = entries(folder.path).filter((entry) => isFolder(join(folder.path, entry))).length;
    if (count > 0) folders.push(relative(cwd, folder.path));
    skills += count;
  }
  let templates = 0;
  for (const folder of project.templates) {
    const count = entries(folder.path).filter((entry) => entry.endsWith(".md")).length;
    if (count > 0) folders.push(relative(cwd, folder.path));
    templates += count;
  }
  return skills + templates > 0 ? { skills, templates, folders } : undefined;
}

/** The one line that says what was left unloaded and why. */
export function describeUnloaded(unloaded: UnloadedProjectResources, why: string): string {
  const parts = [unloaded.skills > 0 && plural(unloaded.skills, "skill"), unloaded.templates > 0 && plural(unloaded.templates, "prompt template")].filter(Boolean);
  const verb = unloaded.skills + unloaded.templates === 1 ? "was" : "were";
  return `This project's ${parts.join(" and ")} (${unloaded.folders.join(", ")}) ${verb} not loaded: ${why}.`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function entries(folder: string): string[] {
  try {
    return readdirSync(folder).filter((entry) => !entry.startsWith("."));
  } catch {
    return [];
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
