// `pitwall -c` and a dashboard's several agents: which session the first agent continues (the one
// the last dashboard's first agent wrote), bringing the others back with their sessions and
// worktrees, and keeping the saved roster (roster-file.ts) in step with the dashboard's agents.
import { existsSync } from "node:fs";
import type { AgentRoster } from "./agent-roster.js";
import { FIRST_AGENT } from "./agent-roster.js";
import { loadRoster, saveRoster, type SavedRoster } from "./roster-file.js";
import type { Settings } from "./settings.js";
import type { SandboxProfile } from "../tools/sandbox/index.js";

/** The roster `-c` brings back: the last dashboard's, when it had more than one agent. */
export function rosterToContinue(path: string): SavedRoster | undefined {
  const saved = loadRoster(path);
  return saved && saved.agents.length > 1 ? saved : undefined;
}

/** The session the first agent continues, when the saved roster names one that is still there. */
export function firstAgentSession(saved: SavedRoster | undefined): string | undefined {
  const session = saved?.agents.find((agent) => agent.name === FIRST_AGENT)?.session;
  return session !== undefined && existsSync(session) ? session : undefined;
}

/** Starts the saved roster's other agents again, each continuing its session (a new one if its file is gone). */
export async function bringBackAgents(roster: AgentRoster, saved: SavedRoster, notice: (level: "info" | "warning", text: string) => void): Promise<void> {
  for (const agent of saved.agents) {
    if (agent.name === FIRST_AGENT || roster.byName(agent.name)) continue;
    if (agent.worktree && !existsSync(agent.worktree.path)) {
      notice("warning", `Agent ${agent.name} was not brought back: its worktree ${agent.worktree.path} is gone.`);
      continue;
    }
    const session = agent.session !== undefined && existsSync(agent.session) ? agent.session : undefined;
    try {
      await roster.create({ name: agent.name, ...(session ? { sessionPath: session } : {}), ...(agent.worktree ? { worktree: agent.worktree } : {}), ...(agent.sandbox ? { sandbox: agent.sandbox } : {}) });
      notice("info", `Brought back agent ${agent.name}${session ? ` (${session})` : " with a new session: its file was never written"}${agent.worktree ? ` in its worktree ${agent.worktree.path}` : ""}.`);
    } catch (error) {
      notice("warning", `Agent ${agent.name} was not brought back: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** Saves the roster whenever an agent comes or goes (or a session file changes); returns the save for the quit. */
export function keepRosterSaved(roster: AgentRoster, path: string, warn: (text: string) => void): () => void {
  let savedKey = "";
  let failed = false;
  const save = (): void => {
    const agents = roster.list().map((agent) => ({
      name: agent.name,
      ...(agent.setup.session ? { session: agent.setup.session.path } : {}),
      ...(agent.worktree ? { worktree: agent.worktree } : {}),
      ...(agent.sandbox ? { sandbox: agent.sandbox } : {}),
    }));
    const key = JSON.stringify(agents);
    if (key === savedKey) return;
    try {
      saveRoster(path, { version: 1, agents });
      savedKey = key;
    } catch (error) {
      if (!failed) warn(`The dashboard's agents could not be saved to ${path} (${error instanceof Error ? error.message : String(error)}): pitwall -c will continue the newest session only.`);
      failed = true;
    }
  };
  roster.onChange(save);
  save();
  return save;
}

/**
 * The settings an agent starts with: the dashboard's, its commands under `profile` when the person
 * chose one for it (the person may set any profile; the model may still only tighten it per call).
 */
export function settingsForAgent(settings: Settings, profile: SandboxProfile | undefined): Settings {
  const sandbox = settings.agent.sandbox;
  if (profile === undefined || sandbox === false || sandbox === undefined) return settings;
  return { ...settings, agent: { ...settings.agent, sandbox: { ...sandbox, policy: { ...sandbox.policy, profile } } } };
}
