// The fence around one working directory as a list of mounts, in the order bubblewrap makes them:
// everything read-only, a private /tmp, the writable roots, what stays read-only inside them
// (.git/hooks, .git/config and the same of each submodule, pitwall's own files), then the hidden paths as empty mounts. The same
// list answers where a path stands (placement: the last mount that covers it decides, as in the
// kernel), which is how the in-process tools follow the profile and how a failure is attributed to
// the fence exactly. Every path is taken as the kernel sees it: real paths, symlinks resolved.
import { existsSync, lstatSync, readdirSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";
import type { SandboxPolicy } from "./profiles.js";

export type MountKind =
  /** Bound read-only at its own path. */
  | "read-only"
  /** Bound writable at its own path (a writable root, or .git pinned so it cannot be moved away). */
  | "writable"
  /** The sandbox's own /tmp: a folder of the launching process, bound at /tmp. */
  | "private-tmp"
  /** An empty read-only folder in place of the real one (a hidden folder; a missing .git/hooks). */
  | "empty-folder"
  /** An empty read-only file in place of the real one (a hidden file or socket). */
  | "empty-file";

export interface Mount {
  kind: MountKind;
  /** Where it is seen inside (a real path outside too, but for /tmp). */
  path: string;
  /** What is bound there, when it is not `path` itself. */
  source?: string;
  /** Why, in the words the messages use ("outside the writable roots"). */
  why: string;
}

/** Where a path stands inside the fence. */
export interface Placement {
  access: "writable" | "read-only" | "hidden" | "private";
  why: string;
  /** The mount that decides it. */
  mount: string;
}

export const WHY = {
  outside: "outside the writable roots",
  cwd: "the working directory",
  cache: "a build cache listed as writable",
  privateTmp: "the sandbox's /tmp is a private folder: the real /tmp is not visible",
  gitHooks: ".git/hooks stays read-only: a hook runs outside the sandbox the next time you use git",
  gitConfig: ".git/config stays read-only: it can name programs git runs outside the sandbox",
  gitFile: "the .git file stays read-only: it says where git finds its hooks and config",
  pitwall: "pitwall's own files (config, sessions, job hosts) stay read-only",
  hidden: "hidden: secrets and outside sockets are empty in the sandbox",
} as const;

/** How deep and how wide .git/modules is searched for submodules' git folders (a fence per command stays cheap). */
const MAX_SUBMODULE_DEPTH = 6;
const MAX_SUBMODULE_ENTRIES = 200;

export interface FencePlanInput {
  /** The command's working directory: the main writable root. */
  cwd: string;
  policy: SandboxPolicy;
  /** The folder bound at /tmp; without one the real /tmp stays, read-only. */
  privateTmp?: string;
  /** An empty file to bind over hidden files (bubblewrap needs one when `policy.hidden` names a file). */
  emptyFile?: string;
  /** Seen read-only even where the private /tmp covers them: the person's home, bash's full-output folder. */
  visible?: readonly string[];
}

/** The path with every symlink resolved, as far as it exists; the rest appended (a file not made yet). */
export function realPath(path: string): string {
  let existing = resolve(path);
  const rest: string[] = [];
  for (;;) {
    try {
      const real = realpathSync(existing);
      return rest.length === 0 ? real : join(real, ...rest.reverse());
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return resolve(path);
      rest.push(basename(existing));
      existing = parent;
    }
  }
}

/** `path` is `root` or lies under it. */
export function isWithin(path: string, root: string): boolean {
  return path === root || root === sep || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

function existing(path: string): string | undefined {
  try {
    lstatSync(path);
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export class FencePlan {
  readonly mounts: Mount[] = [];
  readonly cwd: string;

  constructor(input: FencePlanInput) {
    const cwd = realPath(input.cwd);
    this.cwd = cwd;
    const add = (kind: MountKind, path: string, why: string, source?: string): void => {
      this.mounts.push({ kind, path, why, ...(source !== undefined ? { source } : {}) });
    };
    add("read-only", "/", WHY.outside);
    if (input.privateTmp !== undefined) {
      const tmp = existing("/tmp") ?? "/tmp";
      add("private-tmp", tmp, WHY.privateTmp, realPath(input.privateTmp));
      // What the private /tmp would hide that commands need to see: the home folder (a test's, or
      // one under /tmp), the folder of bash's full-output files the model is told to grep.
      for (const path of input.visible ?? []) {
        const real = existing(path);
        if (real !== undefined && isWithin(real, tmp)) add("read-only", real, WHY.outside);
      }
    }
    add("writable", cwd, WHY.cwd);
    for (const path of input.policy.writable) {
      const real = existing(path);
      if (real !== undefined) add("writable", real, WHY.cache);
    }
    this.addGit(cwd);
    for (const path of input.policy.protected) {
      const real = existing(path);
      if (real !== undefined) add("read-only", real, WHY.pitwall);
    }
    for (const path of input.policy.hidden) {
      const real = existing(path);
      if (real === undefined) continue;
      if (isFolder(real)) add("empty-folder", real, WHY.hidden);
      else add("empty-file", real, WHY.hidden, input.emptyFile);
    }
  }

  /**
   * The working directory's .git: pinned (a mount point cannot be renamed or removed, so .git cannot
   * be swapped for another), its hooks and config read-only; a .git file (a worktree, a submodule)
   * read-only, so it cannot point git elsewhere. A missing hooks folder is an empty read-only one
   * (bubblewrap makes the folder, as `git init` would): nobody can put a hook there either.
   */
  private addGit(cwd: string): void {
    const git = join(cwd, ".git");
    let info;
    try {
      info = lstatSync(git);
    } catch {
      return;
    }
    if (info.isDirectory()) {
      this.mounts.push({ kind: "writable", path: git, why: WHY.cwd });
      this.pinGitDir(git);
      this.pinSubmodules(join(git, "modules"), 0);
    } else if (info.isFile()) {
      this.mounts.push({ kind: "read-only", path: git, why: WHY.gitFile });
    }
  }

  /** A git folder's hooks and config, read-only (a missing hooks folder an empty read-only one). */
  private pinGitDir(gitDir: string): void {
    const hooks = join(gitDir, "hooks");
    if (isFolder(hooks)) this.mounts.push({ kind: "read-only", path: hooks, why: WHY.gitHooks });
    else if (!existsSync(hooks)) this.mounts.push({ kind: "empty-folder", path: hooks, why: WHY.gitHooks });
    if (existsSync(join(gitDir, "config"))) this.mounts.push({ kind: "read-only", path: join(gitDir, "config"), why: WHY.gitConfig });
  }

  /**
   * The submodules' git folders (.git/modules/<name>, names may have slashes, their own modules/
   * nested): git runs their hooks and reads their config when it works in a submodule, the
   * superproject's `git status` included. Those that exist now; one a command registers later is
   * the README's limit.
   */
  private pinSubmodules(folder: string, depth: number): void {
    if (depth > MAX_SUBMODULE_DEPTH || !isFolder(folder)) return;
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      return;
    }
    for (const name of names.slice(0, MAX_SUBMODULE_ENTRIES)) {
      const path = join(folder, name);
      let stat;
      try {
        stat = lstatSync(path);
      } catch {
        continue;
      }
      if (!stat.isDirectory()) continue;
      if (existsSync(join(path, "HEAD"))) {
        this.pinGitDir(path);
        this.pinSubmodules(join(path, "modules"), depth + 1);
      } else {
        this.pinSubmodules(path, depth + 1);
      }
    }
  }

  /** Where `path` (absolute; resolved here) stands: the last mount that covers it decides. */
  placement(path: string): Placement {
    return this.placeReal(realPath(path));
  }

  /** As placement, for a path already resolved. */
  placeReal(real: string): Placement {
    for (let i = this.mounts.length - 1; i >= 0; i--) {
      const mount = this.mounts[i]!;
      if (!isWithin(real, mount.path)) continue;
      switch (mount.kind) {
        case "writable":
          return { access: "writable", why: mount.why, mount: mount.path };
        case "private-tmp":
          return { access: "private", why: mount.why, mount: mount.path };
        case "empty-folder":
        case "empty-file":
          return { access: mount.why === WHY.hidden ? "hidden" : "read-only", why: mount.why, mount: mount.path };
        default:
          return { access: "read-only", why: mount.why, mount: mount.path };
      }
    }
    return { access: "read-only", why: WHY.outside, mount: "/" };
  }

  /** The writable roots, for messages: the working directory, then the build caches that exist. */
  writableRoots(): string[] {
    return [this.cwd, ...this.mounts.filter((mount) => mount.kind === "writable" && mount.why === WHY.cache).map((mount) => mount.path)];
  }
}
