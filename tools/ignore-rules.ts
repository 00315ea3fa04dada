// Which paths a search leaves out, as git (and ripgrep/fd) would: .gitignore and .ignore files in
// every folder (deeper ones win, .ignore over .gitignore in one folder, the last matching line of a
// file wins, `!` re-includes), then .git/info/exclude, then the global excludes file (core.excludesFile,
// else $XDG_CONFIG_HOME/git/ignore or ~/.config/git/ignore). The gitignore syntax itself is the
// `ignore` package's. .gitignore and .ignore files count even outside a git repository; the
// repository-wide files only inside one. Each rules file is read once per search.
import { readFile, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import ignore, { type Ignore } from "ignore";

/** Per-folder rule files, the stronger first. */
const FOLDER_RULE_FILES = [".ignore", ".gitignore"] as const;

interface Layer {
  /** Folder the rules are relative to. */
  dir: string;
  rules: Ignore;
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch {
    return undefined;
  }
}

/** Rules of one folder (its .ignore and .gitignore), strongest first; empty when it has none. */
async function folderLayers(dir: string): Promise<Layer[]> {
  const layers: Layer[] = [];
  for (const name of FOLDER_RULE_FILES) {
    const text = await readText(join(dir, name));
    if (text !== undefined) layers.push({ dir, rules: ignore().add(text) });
  }
  return layers;
}

/** The repository `dir` is in: its top folder and its git directory, or undefined. */
async function findRepository(dir: string): Promise<{ top: string; gitDir: string } | undefined> {
  for (let current = dir; ; current = dirname(current)) {
    const dotGit = join(current, ".git");
    const text = await readText(dotGit);
    if (text !== undefined) {
      // A worktree or submodule: ".git" is a file saying "gitdir: <path>".
      const target = /^gitdir:\s*(.+)$/m.exec(text)?.[1]?.trim();
      if (target) return { top: current, gitDir: resolve(current, target) };
    } else if (await isDirectory(dotGit)) return { top: current, gitDir: dotGit };
    if (dirname(current) === current) return undefined;
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** A linked worktree keeps info/exclude in the main repository's git directory. */
async function commonGitDir(gitDir: string): Promise<string> {
  const common = (await readText(join(gitDir, "commondir")))?.trim();
  return common ? resolve(gitDir, common) : gitDir;
}

function expandHome(path: string): string {
  return path === "~" || path.startsWith("~/") ? join(homedir(), path.slice(1)) : path;
}

/** core.excludesFile from a git config file's [core] section; [include] directives are not followed. */
function excludesFileSetting(config: string): string | undefined {
  let inCore = false;
  let found: string | undefined;
  for (const raw of config.split("\n")) {
    const line = raw.trim();
    const section = /^\[([^\]\s]+)/.exec(line);
    if (section) {
      inCore = section[1]!.toLowerCase() === "core";
      continue;
    }
    const setting = /^excludesfile\s*=\s*(.*?)\s*$/i.exec(line);
    if (inCore && setting) found = setting[1]!.replace(/^"(.*)"$/, "$1");
  }
  return found;
}

/** The global excludes file: core.excludesFile (repository config over user config), else git's default. */
async function globalExcludesFile(gitDir: string, env: NodeJS.ProcessEnv): Promise<string> {
  const configHome = env.XDG_CONFIG_HOME || join(homedir(), ".config");
  const configs = [join(configHome, "git", "config"), join(homedir(), ".gitconfig"), join(gitDir, "config")];
  let setting: string | undefined;
  for (const path of configs) {
    const text = await readText(path);
    const value = text === undefined ? undefined : excludesFileSetting(text);
    if (value) setting = value;
  }
  return setting ? expandHome(setting) : join(configHome, "git", "ignore");
}

/** Paths in gitignore form: relative, with forward slashes, folders ending in "/". */
function ruleForm(dir: string, path: string, isDir: boolean): string | undefined {
  const rel = relative(dir, path);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return undefined;
  const slashed = sep === "/" ? rel : rel.split(sep).join("/");
  return isDir ? `${slashed}/` : slashed;
}

/** The rules in force in one folder during a walk; `enter` gives a child folder's. */
export class IgnoreRules {
  private constructor(
    /** Strongest first: the deepest folder's files first, repository-wide files last. */
    private readonly layers: readonly Layer[],
  ) {}

  /** Rules for a walk starting at `root`: every rules file from the repository top (or `root`) down to it. */
  static async forRoot(root: string, env: NodeJS.ProcessEnv = process.env): Promise<IgnoreRules> {
    const repo = await findRepository(root);
    const layers: Layer[] = [];
    if (repo) {
      const excludes = [await globalExcludesFile(repo.gitDir, env), join(await commonGitDir(repo.gitDir), "info", "exclude")];
      for (const path of excludes) {
        const text = await readText(path);
        if (text !== undefined) layers.unshift({ dir: repo.top, rules: ignore().add(text) });
      }
    }
    const folders: string[] = [];
    for (let dir = root; ; dir = dirname(dir)) {
      folders.push(dir);
      if (!repo || dir === repo.top || dirname(dir) === dir) break;
    }
    for (const dir of folders.reverse()) layers.unshift(...(await folderLayers(dir)));
    return new IgnoreRules(layers).within(root);
  }

  /**
   * The rules for searching inside `dir` although it is ignored (it was asked for by name): the
   * files whose rules ignore `dir` itself are set aside there, the others still apply.
   */
  within(dir: string): IgnoreRules {
    const kept = this.layers.filter((layer) => {
      const form = ruleForm(layer.dir, dir, true);
      return form === undefined || !layer.rules.test(form).ignored;
    });
    return kept.length === this.layers.length ? this : new IgnoreRules(kept);
  }

  /** The rules inside child folder `dir` (reads its rule files, once). */
  async enter(dir: string): Promise<IgnoreRules> {
    const own = await folderLayers(dir);
    return own.length === 0 ? this : new IgnoreRules([...own, ...this.layers]);
  }

  /** Whether `path` (a file, or a folder when `isDir`) is left out. */
  ignores(path: string, isDir: boolean): boolean {
    for (const layer of this.layers) {
      const form = ruleForm(layer.dir, path, isDir);
      if (form === undefined) continue;
      const verdict = layer.rules.test(form);
      if (verdict.ignored) return true;
      if (verdict.unignored) return false;
    }
    return false;
  }
}
