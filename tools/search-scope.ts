// What the read-only search tools (grep, find, ls) share: resolving the path to search, listing the
// files under it with a glob, and skipping .git and node_modules unless asked for them by name.
import { stat } from "node:fs/promises";
import { glob } from "tinyglobby";
import { displayPath, resolvePath } from "./resolve-path.js";

/** Folders no search descends into unless the pattern or path names them. */
export const SKIPPED_DIRS = [".git", "node_modules"] as const;

export interface SearchRoot {
  absolutePath: string;
  /** As the tool shows it: relative to the working directory when inside it. */
  shownPath: string;
  /** For sentences: "the working directory" or the shown path. */
  spokenPath: string;
  isDirectory: boolean;
}

export async function resolveSearchRoot(cwd: string, path: string | undefined): Promise<SearchRoot> {
  const absolutePath = resolvePath(cwd, path ?? ".");
  const shownPath = displayPath(cwd, absolutePath);
  try {
    const info = await stat(absolutePath);
    const spokenPath = shownPath === "." ? "the working directory" : shownPath;
    return { absolutePath, shownPath, spokenPath, isDirectory: info.isDirectory() };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new Error(`Path not found: ${path ?? "."} (resolved to ${absolutePath}). Check it with ls.`);
    }
    throw new Error(`Cannot access ${shownPath}: ${(error as Error).message}`);
  }
}

/** A pattern without a slash matches file names at any depth, as `find -name` does. */
export function anyDepth(pattern: string): string {
  return pattern.includes("/") ? pattern : `**/${pattern}`;
}

/**
 * Files under `root` matching `pattern` (relative paths, sorted), skipping SKIPPED_DIRS unless the
 * pattern names one of them. Dot files are included. Symlinked folders are not followed (no loops).
 */
export async function listFiles(root: string, pattern: string, signal?: AbortSignal): Promise<string[]> {
  const ignore = SKIPPED_DIRS.filter((dir) => !pattern.includes(dir)).map((dir) => `**/${dir}/**`);
  const files = await glob(pattern, {
    cwd: root,
    ignore,
    dot: true,
    onlyFiles: true,
    followSymbolicLinks: false,
    expandDirectories: false,
    ...(signal ? { signal } : {}),
  });
  return files.sort();
}
