// Prompt templates: a Markdown file in ~/.pitwall/prompts/ or the project's .pitwall/prompts/ is
// the command /<file name>. Its arguments fill $1, $2, … and $@ (all of them; $ARGUMENTS too, as
// Claude Code writes it). The description shown beside it is the front matter's `description`, or
// the body's first line. The same expansion serves the dashboard, print and JSON modes.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { FrontMatterError, parseFrontMatter } from "./front-matter.js";

export interface PromptTemplate {
  /** The command's name: the file's name without .md. */
  name: string;
  description: string;
  /** The text arguments are put into. */
  body: string;
  path: string;
  scope: "user" | "project";
}

export interface TemplateFolder {
  path: string;
  scope: "user" | "project";
}

export interface LoadedTemplates {
  templates: PromptTemplate[];
  warnings: string[];
}

/** A command name: what parseSlash reads after the slash. */
const NAME = /^[A-Za-z][\w-]*$/;
const MAX_DESCRIPTION = 80;

/**
 * The templates of `folders`, in order. A name taken by a built-in command (`reserved`) or by an
 * earlier template is a warning naming the file; the first one stays.
 */
export function loadPromptTemplates(folders: readonly TemplateFolder[], reserved: ReadonlySet<string> = new Set()): LoadedTemplates {
  const templates: PromptTemplate[] = [];
  const warnings: string[] = [];
  for (const folder of folders) {
    let entries: string[];
    try {
      entries = readdirSync(folder.path).filter((e) => e.endsWith(".md")).sort();
    } catch {
      continue;
    }
    for (const entry of entries) {
      const path = join(folder.path, entry);
      const name = basename(entry, ".md");
      if (!isFile(path)) continue;
      if (!NAME.test(name)) {
        warnings.push(`Prompt template ${path} was not loaded: /${name} is not a command name (a letter, then letters, digits, - or _).`);
        continue;
      }
      const key = name.toLowerCase();
      if (reserved.has(key)) {
        warnings.push(`Prompt template ${path} was not loaded: /${key} is one of pitwall's own commands; rename the file.`);
        continue;
      }
      const taken = templates.find((t) => t.name === key);
      if (taken) {
        warnings.push(`Prompt template ${path} was not loaded: /${key} is already ${taken.path}; rename one of them.`);
        continue;
      }
      const read = readTemplate(path, key, folder.scope);
      if ("problem" in read) warnings.push(`Prompt template ${path} was not loaded: ${read.problem}.`);
      else templates.push(read);
    }
  }
  return { templates, warnings };
}

function readTemplate(path: string, name: string, scope: PromptTemplate["scope"]): PromptTemplate | { problem: string } {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    return { problem: `cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
  }
  try {
    const { fields, body } = parseFrontMatter(text);
    const firstLine = body.split("\n").find((line) => line.trim())?.trim() ?? "";
    const description = (fields.description?.replace(/\s+/g, " ").trim() || firstLine.replace(/^#+\s*/, "")) || "(empty template)";
    return { name, description: shorten(description), body: body.trim(), path, scope };
  } catch (error) {
    if (error instanceof FrontMatterError) return { problem: `its front matter cannot be read: ${error.message}` };
    throw error;
  }
}

function shorten(text: string): string {
  return text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text;
}

/** Arguments as a shell splits them: spaces separate, "double" or 'single' quotes keep spaces. */
export function splitArguments(text: string): string[] {
  const args: string[] = [];
  const pattern = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (const match of text.matchAll(pattern)) {
    if (match[1] !== undefined) args.push(match[1].replace(/\\(.)/g, "$1"));
    else if (match[2] !== undefined) args.push(match[2]);
    else args.push(match[3]!);
  }
  return args;
}

/** The template's text with $1 … $9 (and beyond), $@ and $ARGUMENTS filled; a missing argument is empty. */
export function expandTemplate(template: Pick<PromptTemplate, "body">, argsText: string): string {
  const args = splitArguments(argsText);
  const all = args.join(" ");
  return template.body.replace(/\$(\d+)|\$@|\$ARGUMENTS\b|\$\{@\}/g, (match, index: string | undefined) => {
    if (index === undefined) return all;
    const n = Number(index);
    return n >= 1 ? (args[n - 1] ?? "") : match;
  });
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
