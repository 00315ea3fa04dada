// What the read-only search tools (grep, find, ls) share: resolving the path to search, and walking
// the files under it. The walk leaves out what git would ignore (ignore-rules.ts) without descending
// into ignored folders, always skips .git, and skips node_modules even without a .gitignore; a pattern
// that names a folder or file literally ("node_modules/**/*.ts", "dist/*.js", ".env") reaches it
// anyway, and `includeIgnored` turns the rules off. Symlinked folders are not followed (no loops).
import type { Dirent } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import picomatch from "picomatch";
import { IgnoreRules } from "./ignore-rules.js";
import { displayPath, resolvePath } from "./resolve-path.js";

/** Folders left out even where no ignore file mentions them (unless named, or ignored files are included). */
const SKIPPED_DIRS: readonly string[] = ["node_modules"];

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

export interface ListOptions {
  signal?: AbortSignal;
  /** Include what .gitignore, .ignore and the git excludes leave out (and node_modules). */
  includeIgnored?: boolean;
}

export interface Listing {
  /** Paths relative to the root, sorted. */
  files: string[];
  /** Folders and files left out by ignore rules (folders count once, not their contents). */
  ignored: number;
}

/** Directories walked at once: enough to hide disk latency, few enough to stay far from the fd limit. */
const WALK_CONCURRENCY = 8;

interface Folder {
  path: string;
  rel: string;
  rules: IgnoreRules | undefined;
}

/** Files under `root` matching `pattern`, dot files included; see the top of this file for what is left out. */
export async function listFiles(root: string, pattern: string, options: ListOptions = {}): Promise<Listing> {
  const matches = picomatch(pattern, { dot: true });
  const named = new Set(pattern.split("/").filter((segment) => segment !== "" && !picomatch.scan(segment).isGlob));
  const files: string[] = [];
  let ignored = 0;
  const rootRules = options.includeIgnored ? undefined : await IgnoreRules.forRoot(root);

  const visit = async (folder: Folder): Promise<Folder[]> => {
    if (options.signal?.aborted) return [];
    let entries: Dirent[];
    try {
      entries = await readdir(folder.path, { withFileTypes: true });
    } catch {
      // Unreadable or gone since it was listed: nothing to search there.
      return [];
    }
    const children: Folder[] = [];
    for (const entry of entries) {
      const path = join(folder.path, entry.name);
      const rel = folder.rel === "" ? entry.name : `${folder.rel}/${entry.name}`;
      const isDir = entry.isDirectory();
      const isFile = entry.isFile() || (entry.isSymbolicLink() && (await isFileTarget(path)));
      if (!isDir && !isFile) continue;
      if (entry.name === ".git" && !named.has(".git")) continue;
      const out = leftOut(folder.rules, entry.name, path, isDir);
      if (out && !named.has(entry.name)) {
        ignored++;
        continue;
      }
      if (isDir) {
        const inner = await folder.rules?.enter(path);
        children.push({ path, rel, rules: out ? inner?.within(path) : inner });
      }
      else if (matches(rel)) files.push(rel);
    }
    return children;
  };

  let pending: Folder[] = [{ path: root, rel: "", rules: rootRules }];
  while (pending.length > 0 && !options.signal?.aborted) {
    const batch = pending.slice(0, WALK_CONCURRENCY);
    pending = [...(await Promise.all(batch.map(visit))).flat(), ...pending.slice(WALK_CONCURRENCY)];
  }
  if (options.signal?.aborted) throw options.signal.reason ?? new Error("aborted");
  return { files: files.sort(), ignored };
}

/** For an empty result: what was not searched and how to search it; nothing when nothing was left out. */
export function ignoredNote(ignored: number): string {
  if (ignored === 0) return "";
  const what = ignored === 1 ? "1 ignored folder or file was" : `${ignored} ignored folders or files were`;
  return ` ${what} not searched (.gitignore, .ignore, git excludes, node_modules); include_ignored: true searches them too.`;
}

/** Whether ignore rules (or the always-skipped folders) leave this entry out; never without rules. */
function leftOut(rules: IgnoreRules | undefined, name: string, path: string, isDir: boolean): boolean {
  if (rules === undefined) return false;
  if (isDir && SKIPPED_DIRS.includes(name)) return true;
  return rules.ignores(path, isDir);
}

/** A symlink is listed as a file when it leads to one; links to folders are not followed. */
async function isFileTarget(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
