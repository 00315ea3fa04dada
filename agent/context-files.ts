// Finds the project's context files: AGENTS.md (or CLAUDE.md where a folder has no AGENTS.md) in
// the user's pitwall folder and in every folder from the filesystem root down to the working
// directory, outermost first, so the nearest file has the last word.
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

export interface ContextFile {
  path: string;
  content: string;
}

const NAMES = ["AGENTS.md", "CLAUDE.md"] as const;

function contextFileIn(folder: string): ContextFile | undefined {
  for (const name of NAMES) {
    const path = join(folder, name);
    try {
      if (existsSync(path) && statSync(path).isFile()) return { path, content: readFileSync(path, "utf8") };
    } catch {
      // Unreadable: skip it rather than fail the start.
    }
  }
  return undefined;
}

export function findContextFiles(cwd: string, pitwallHome: string): ContextFile[] {
  const files: ContextFile[] = [];
  const seen = new Set<string>();
  const add = (file: ContextFile | undefined): void => {
    if (file && !seen.has(file.path)) {
      seen.add(file.path);
      files.push(file);
    }
  };
  add(contextFileIn(pitwallHome));
  const chain: string[] = [];
  for (let folder = resolve(cwd); ; folder = dirname(folder)) {
    chain.unshift(folder);
    if (dirname(folder) === folder) break;
  }
  for (const folder of chain) add(contextFileIn(folder));
  return files;
}
