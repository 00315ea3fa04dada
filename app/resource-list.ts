// /skills as a person reads it: each skill (as /skill:name, with its description and file), each
// prompt template (as /name, with its first line), what the list of skills costs in the system
// prompt, and what trust left out.
import type { Resources } from "../agent/resources/project-resources.js";
import { formatTokens } from "../panes/text/format.js";

const WIDTH = 64;

export function resourceListLines(resources: Resources, skillTokens: number, unloadedNote: string | undefined): string[] {
  const { skills, templates } = resources;
  const lines: string[] = [];
  if (skills.length === 0) lines.push("No skills loaded (a folder with a SKILL.md in ~/.pitwall/skills/, .pitwall/skills/ or .agents/skills/).");
  else {
    lines.push(`Skills (${skills.length}; their names, descriptions and paths take ${formatTokens(skillTokens)} tokens of the system prompt, the model reads a body when it needs it):`);
    for (const skill of skills) lines.push(`  /skill:${skill.name}  ${short(skill.description)}  (${skill.path})`);
  }
  if (templates.length === 0) lines.push("No prompt templates loaded (a Markdown file in ~/.pitwall/prompts/ or .pitwall/prompts/ becomes /name).");
  else {
    lines.push(`Prompt templates (${templates.length}; arguments fill $1, $2, … and $@):`);
    for (const template of templates) lines.push(`  /${template.name}  ${short(template.description)}  (${template.path})`);
  }
  if (unloadedNote) lines.push(unloadedNote);
  return lines;
}

function short(text: string): string {
  return text.length > WIDTH ? `${text.slice(0, WIDTH - 1)}…` : text;
}
