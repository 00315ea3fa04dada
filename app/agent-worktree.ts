// The git worktree of an agent started with `/agent new <name> --worktree`: a new branch
// `pitwall/<name>` checked out next to the repository, in `<repo>.pitwall-<name>` (beside the
// project rather than under PITWALL_HOME: the person finds it where their projects are, opens it in
// their editor, and it sits on the same disk as the repository, so the checkout is cheap). pitwall
// offers to remove it when the agent is closed, and never removes one with uncommitted changes
// without asking; the branch stays (its commits are the agent's work).
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { basename, dirname, join } from "node:path";

export interface AgentWorktree {
  /** The worktree's folder: the agent's working directory. */
  path: string;
  /** The branch made for it. */
  branch: string;
  /** The repository's top folder it was made from. */
  repo: string;
}

/** Runs git in `cwd`; rejects with git's own message (its stderr) when it fails. */
function git(cwd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile("git", args, { cwd, encoding: "utf8", maxBuffer: 4 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error((stderr || error.message).trim().split("\n").slice(-3).join(" ")));
      else resolve(stdout);
    });
  });
}

/** Makes the worktree and its branch from the current commit of the repository `cwd` is in. */
export async function createWorktree(cwd: string, name: string): Promise<AgentWorktree> {
  let repo: string;
  try {
    repo = (await git(cwd, ["rev-parse", "--show-toplevel"])).trim();
  } catch {
    throw new Error(`${cwd} is not in a git repository, so there is no worktree to make: start the agent without --worktree, or run pitwall in a repository.`);
  }
  const path = join(dirname(repo), `${basename(repo)}.pitwall-${name}`);
  const branch = `pitwall/${name}`;
  if (existsSync(path)) throw new Error(`${path} already exists: remove it (git worktree remove ${path}) or choose another name.`);
  try {
    await git(repo, ["worktree", "add", "-b", branch, path, "HEAD"]);
  } catch (error) {
    throw new Error(`git could not make the worktree ${path} on a new branch ${branch}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { path, branch, repo };
}

/** What is not committed in the worktree (git status --short), empty when it is clean. */
export async function uncommittedChanges(worktree: AgentWorktree): Promise<string[]> {
  const status = await git(worktree.path, ["status", "--porcelain"]);
  return status.split("\n").filter((line) => line.trim() !== "");
}

/** Removes the worktree's folder (`force`: with its uncommitted changes); its branch stays. */
export async function removeWorktree(worktree: AgentWorktree, force: boolean): Promise<void> {
  await git(worktree.repo, ["worktree", "remove", ...(force ? ["--force"] : []), worktree.path]);
}
