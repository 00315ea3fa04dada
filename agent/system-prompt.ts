// The system prompt: small on purpose. What the tools are, a few guidelines, the project's context
// files in labelled blocks, the skills (name, description and path only), then the date and working
// directory. `describeSystemPrompt` reports
// exactly what was loaded, for /context and --print-system-prompt.
import type { AgentTool } from "../tools/tool.js";
import { findContextFiles, type ContextFile } from "./context-files.js";
import { skillsPromptSection, type Skill } from "./resources/skills.js";

export interface SystemPromptOptions {
  cwd: string;
  tools: readonly AgentTool[];
  /** The user's pitwall folder (~/.pitwall), searched for a global AGENTS.md. */
  pitwallHome: string;
  /** Replaces the built-in instructions (context files, date and directory are still appended). */
  customPrompt?: string;
  /** Skills whose names, descriptions and paths are listed (the model reads a body with `read`). */
  skills?: readonly Skill[];
  now?: Date;
}

export interface SystemPromptReport {
  prompt: string;
  tokens: number;
  contextFiles: Array<{ path: string; tokens: number }>;
  /** The skills listed in the prompt and what that list costs. */
  skills: { count: number; tokens: number };
}

/** A rough count (4 characters a token) that is good enough to show sizes. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

const GUIDELINES = [
  "Use read, edit and write for files rather than cat, sed or echo through bash.",
  "Read a file before editing it; keep edits small and exact.",
  "Use bash_stream for servers, watchers and anything that may run longer than a minute; poll it, don't wait on it.",
  "Avoid destructive commands (rm -rf, git reset --hard, force pushes) unless the user asked for them.",
  "Messages starting with [pitwall notice] report what changed around you (a job exited, the person acted); take them into account.",
  "Be concise. Name files by their paths.",
];

function basePrompt(tools: readonly AgentTool[]): string {
  const toolLines = tools.map((t) => `- ${t.name}: ${firstSentence(t.description)}`).join("\n");
  return [
    "You are pitwall, a coding agent working in the user's project. You act only through your tools, with the permissions of the user who started you.",
    "",
    "Tools:",
    toolLines || "- (none: answer from the conversation)",
    "",
    "Guidelines:",
    ...GUIDELINES.map((g) => `- ${g}`),
  ].join("\n");
}

function contextBlock(file: ContextFile): string {
  return `<context file="${file.path}">\n${file.content.trim()}\n</context>`;
}

export function describeSystemPrompt(options: SystemPromptOptions): SystemPromptReport {
  const files = findContextFiles(options.cwd, options.pitwallHome);
  const now = options.now ?? new Date();
  const parts = [options.customPrompt?.trim() || basePrompt(options.tools)];
  if (files.length) {
    parts.push(
      "Project context (instructions from the project's files; direct requests from the user take precedence):\n\n" +
        files.map(contextBlock).join("\n\n"),
    );
  }
  // Without read the model could not open a skill: the list would only cost tokens.
  const skills = options.tools.some((t) => t.name === "read") ? (options.skills ?? []) : [];
  const skillsSection = skillsPromptSection(skills);
  if (skillsSection) parts.push(skillsSection);
  parts.push(`Current date: ${now.toISOString().slice(0, 10)}\nWorking directory: ${options.cwd}`);
  const prompt = parts.join("\n\n");
  return {
    prompt,
    tokens: estimateTokens(prompt),
    contextFiles: files.map((f) => ({ path: f.path, tokens: estimateTokens(contextBlock(f)) })),
    skills: { count: skills.length, tokens: skillsSection ? estimateTokens(skillsSection) : 0 },
  };
}

function firstSentence(text: string): string {
  const line = text.split("\n")[0] ?? "";
  const end = line.search(/\.(\s|$)/);
  return end === -1 ? line : line.slice(0, end + 1);
}
