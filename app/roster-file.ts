// The agents of the last dashboard in a folder, saved so that `pitwall -c` brings every one back:
// each agent's name, its session file and its worktree, in <PITWALL_HOME>/dashboards/ (one file per
// folder, named as its sessions' folder is; nothing is added to the sessions' folders). Written
// whole and atomically (a temporary file renamed over it) whenever an agent is added or removed,
// and at quit; a dashboard with one agent removes it, so -c continues that agent's session alone.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { sessionFolderName } from "../agent/sessions/session-file.js";
import type { AgentWorktree } from "./agent-worktree.js";
import { isSandboxProfile, type SandboxProfile } from "../tools/sandbox/index.js";

export interface SavedAgent {
  name: string;
  /** Its session file; absent with --no-session. */
  session?: string;
  worktree?: AgentWorktree;
  /** The sandbox profile the person chose for it. */
  sandbox?: SandboxProfile;
}

export interface SavedRoster {
  version: 1;
  agents: SavedAgent[];
}

export function rosterFilePath(home: string, cwd: string): string {
  return join(home, "dashboards", `${sessionFolderName(cwd)}.json`);
}

export function saveRoster(path: string, roster: SavedRoster): void {
  if (roster.agents.length < 2) return rmSync(path, { force: true });
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(roster, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}

/** The saved roster, or undefined when there is none or it cannot be read (then -c continues the newest session only). */
export function loadRoster(path: string): SavedRoster | undefined {
  if (!existsSync(path)) return undefined;
  try {
    const value = JSON.parse(readFileSync(path, "utf8")) as { version?: unknown; agents?: unknown };
    if (value.version !== 1 || !Array.isArray(value.agents)) return undefined;
    const agents = value.agents.filter(isSavedAgent);
    return agents.length === value.agents.length ? { version: 1, agents } : undefined;
  } catch {
    return undefined;
  }
}

function isSavedAgent(value: unknown): value is SavedAgent {
  if (typeof value !== "object" || value === null) return false;
  const { name, session, worktree, sandbox } = value as { name?: unknown; session?: unknown; worktree?: unknown; sandbox?: unknown };
  if (typeof name !== "string" || (session !== undefined && typeof session !== "string")) return false;
  if (sandbox !== undefined && (typeof sandbox !== "string" || !isSandboxProfile(sandbox))) return false;
  if (worktree === undefined) return true;
  const w = worktree as { path?: unknown; branch?: unknown; repo?: unknown };
  return typeof w === "object" && w !== null && typeof w.path === "string" && typeof w.branch === "string" && typeof w.repo === "string";
}
