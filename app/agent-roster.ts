// The agents of one dashboard: the first (made at start, named "main") and those `/agent new` adds.
// Each is a Setup of its own: its conversation, model, queue, wake cap, session file and client of
// the job host (so the jobs it starts are its own), sharing the run's process guard. One agent is in
// the chat at a time; every one is watched (agent-activity.ts) for the overview and the status bar.
// The roster's names and session files are saved beside the folder's sessions (roster-file.ts), so
// `pitwall -c` brings every agent back.
import type { Setup } from "./session-setup.js";
import { AgentActivity } from "./agent-activity.js";
import type { AgentWorktree } from "./agent-worktree.js";
import type { SandboxProfile } from "../tools/sandbox/index.js";

export const FIRST_AGENT = "main";
const NAME = /^[A-Za-z0-9][\w.-]{0,23}$/;

export interface RosterAgent {
  readonly name: string;
  readonly setup: Setup;
  readonly activity: AgentActivity;
  /** The git worktree pitwall made for it (`/agent new --worktree`). */
  readonly worktree?: AgentWorktree;
  /** The sandbox profile the person chose for it (`/agent new --sandbox`); absent: the dashboard's. */
  readonly sandbox?: SandboxProfile;
}

/** What a new agent is made from: its name, the session it continues (if any), its worktree. */
export interface AgentSpec {
  name: string;
  sessionPath?: string;
  worktree?: AgentWorktree;
  /** The sandbox profile its commands run under, when the person chose one for it (else the dashboard's). */
  sandbox?: SandboxProfile;
}

export type MakeAgent = (spec: AgentSpec) => Promise<Setup>;

/** Why a name cannot be used for a new agent; undefined when it can. */
export function badAgentName(name: string, taken: readonly string[]): string | undefined {
  if (!NAME.test(name)) return `"${name}" cannot name an agent: use up to 24 letters, digits, ".", "_" or "-", starting with a letter or digit.`;
  if (taken.includes(name)) return `There is already an agent named ${name}: /agents lists them.`;
  return undefined;
}

export class AgentRoster {
  private readonly members: RosterAgent[] = [];
  private currentIndex = 0;
  private readonly changeListeners = new Set<() => void>();

  constructor(
    first: Setup,
    private readonly make: MakeAgent,
  ) {
    this.adopt({ name: FIRST_AGENT }, first);
  }

  get current(): RosterAgent {
    return this.members[this.currentIndex]!;
  }

  list(): readonly RosterAgent[] {
    return this.members;
  }

  names(): string[] {
    return this.members.map((agent) => agent.name);
  }

  byName(name: string): RosterAgent | undefined {
    return this.members.find((agent) => agent.name === name);
  }

  /** The agent that owns a job, from its owner (the host's client id); undefined for a job nobody in this dashboard owns. */
  ownerOf(owner: string | undefined): RosterAgent | undefined {
    if (owner === undefined) return undefined;
    return this.members.find((agent) => agent.setup.coding.jobs.ownerId?.() === owner);
  }

  /** A name no agent has: agent2, agent3, … */
  freeName(): string {
    for (let n = this.members.length + 1; ; n++) if (!this.byName(`agent${n}`)) return `agent${n}`;
  }

  /** Agents whose run ended while the person looked elsewhere. */
  waiting(): RosterAgent[] {
    return this.members.filter((agent) => agent.activity.state === "waiting");
  }

  /** Makes and adds an agent; throws on a bad name (with the message for the person). */
  async create(spec: AgentSpec): Promise<RosterAgent> {
    const problem = badAgentName(spec.name, this.names());
    if (problem) throw new Error(problem);
    const setup = await this.make(spec);
    // Made while another was being made under the same name.
    if (this.byName(spec.name)) {
      await setup.dispose();
      throw new Error(`There is already an agent named ${spec.name}.`);
    }
    const agent = this.adopt(spec, setup);
    // Agents of one folder share its job host: each client connects now, so every job shows.
    for (const member of this.members) void member.setup.coding.jobs.prepare();
    return agent;
  }

  /** Puts `name` in the chat; returns it, or undefined when there is none by that name. */
  setCurrent(name: string): RosterAgent | undefined {
    const index = this.members.findIndex((agent) => agent.name === name);
    if (index < 0) return undefined;
    this.currentIndex = index;
    this.members[index]!.activity.seen();
    this.changed();
    return this.members[index];
  }

  /** The agent after (or before) the current one, in the order they were made. */
  neighbour(step: number): RosterAgent {
    const count = this.members.length;
    return this.members[(((this.currentIndex + step) % count) + count) % count]!;
  }

  /** Takes an agent out (it must not be the first); the caller disposes of its setup. */
  remove(name: string): RosterAgent | undefined {
    const index = this.members.findIndex((agent) => agent.name === name);
    if (index <= 0) return undefined;
    const [agent] = this.members.splice(index, 1);
    if (this.currentIndex >= index) this.currentIndex = Math.max(0, this.currentIndex - 1);
    agent!.activity.dispose();
    this.changed();
    return agent;
  }

  /** Called when an agent is added, removed or switched to, or any agent's activity changed. */
  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** Every agent but the first (whose setup the dashboard ends itself). */
  others(): RosterAgent[] {
    return this.members.slice(1);
  }

  private adopt(spec: AgentSpec, setup: Setup): RosterAgent {
    const coding = setup.coding;
    const stats = setup.resumed?.stats;
    const activity = new AgentActivity(
      { subscribe: (listener) => coding.bus.subscribe(listener), contextPercent: () => coding.agent.contextUsage().percent },
      () => this.current.setup === setup,
      { cost: stats?.cost ?? 0, tokens: stats?.tokens ?? 0, messages: coding.agent.state.messages },
    );
    activity.onChange(() => this.changed());
    const agent: RosterAgent = { name: spec.name, setup, activity, ...(spec.worktree ? { worktree: spec.worktree } : {}), ...(spec.sandbox ? { sandbox: spec.sandbox } : {}) };
    this.members.push(agent);
    this.changed();
    return agent;
  }

  private changed(): void {
    for (const listener of this.changeListeners) listener();
  }
}
