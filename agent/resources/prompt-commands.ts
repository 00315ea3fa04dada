// `/name args` typed as a prompt, where name is a prompt template or `skill:<name>`: the text that
// goes to the model instead. The dashboard, print and JSON modes all expand prompts here, so a
// template works the same everywhere (`pitwall -p "/review src/app.ts"`).
import type { Resources } from "./project-resources.js";
import { expandTemplate } from "./prompt-templates.js";
import { skillMessage } from "./skills.js";

export type PromptExpansion =
  /** The text to send. */
  | { prompt: string; from: string }
  /** A command that names no skill or cannot be read: what to tell the person. */
  | { problem: string };

const COMMAND = /^\/([A-Za-z][\w-]*(?::[\w-]+)?)(?:[ \t]+([\s\S]*)|\s*)$/;

/** The expansion of a template or /skill:name command; undefined when `text` is neither. */
export function expandPromptCommand(text: string, resources: Pick<Resources, "skills" | "templates">): PromptExpansion | undefined {
  const match = COMMAND.exec(text.trim());
  if (!match) return undefined;
  const name = match[1]!.toLowerCase();
  const args = match[2] ?? "";
  if (name.startsWith("skill:")) {
    const skillName = name.slice("skill:".length);
    const skill = resources.skills.find((s) => s.name === skillName);
    if (!skill) {
      const known = resources.skills.map((s) => s.name);
      return { problem: `No skill named "${skillName}"${known.length ? ` (skills: ${known.join(", ")})` : " (no skills are loaded)"}. /skills lists them.` };
    }
    try {
      return { prompt: skillMessage(skill, args), from: skill.path };
    } catch (error) {
      return { problem: error instanceof Error ? error.message : String(error) };
    }
  }
  const template = resources.templates.find((t) => t.name === name);
  if (!template) return undefined;
  return { prompt: expandTemplate(template, args), from: template.path };
}
