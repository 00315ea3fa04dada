// The git worktree of an agent started with `/agent new <name> --worktree`.
export interface AgentWorktree {
  /** The worktree's folder: the agent's working directory. */
  path: string;
  /** The branch made for it. */
  branch: string;
  /** The repository's top folder it was made from. */
  repo: string;
}
