// Several agents in one dashboard: `/agent new [name] [--worktree]` starts one, `/agent <name>` and
// the next/previous-agent keys put one in the chat, and the overview (`/agents`, its key) lists every
// agent with its state, last line, cost, context and changed files. From the overview the person
// steers an agent, gives it a follow-up or stops it without switching. The status bar counts the
// agents waiting for the person; a terminal notification names one when its run ends unseen.
import { badAgentName, type AgentRoster, type RosterAgent } from "./agent-roster.js";
import { createWorktree, removeWorktree, uncommittedChanges, type AgentWorktree } from "./agent-worktree.js";
import { attr } from "../panes/text/styled-text.js";
import { isSandboxProfile, SANDBOX_PROFILES, type SandboxProfile } from "../tools/sandbox/index.js";
import type { DashboardCommon } from "./dashboard-common.js";
import { overviewRows } from "./agents-overview.js";
import { displayKeyName } from "./keys/key-names.js";

export interface AgentsHost {
  /** Puts the agent in the chat: the panes show its conversation from now on. */
  show(agent: RosterAgent): void;
  /** Whether the agent may be switched away from now (no rewind or /compact in the middle). */
  canSwitch(): string | undefined;
}

type PromptPurpose = { kind: "steer" | "followUp"; agent: string };

export class AgentsFlow {
  private roster: AgentRoster | undefined;
  private promptFor: PromptPurpose | undefined;
  private overviewShown = false;
  private offRoster: (() => void) | undefined;
  /** Who was waiting at the last refresh: a name new to it is flashed. */
  private waitingBefore = new Set<string>();

  constructor(
    private readonly common: DashboardCommon,
    private readonly host: AgentsHost,
  ) {}

  /** The dashboard's agents, once the first has loaded. */
  attach(roster: AgentRoster): void {
    this.roster = roster;
    this.offRoster = roster.onChange(() => this.refresh());
    this.refresh();
  }

  detach(): void {
    this.offRoster?.();
  }

  get agents(): AgentRoster | undefined {
    return this.roster;
  }

  /** The overview is the open picker. */
  get overviewOpen(): boolean {
    return this.overviewShown && this.common.view.picker.open;
  }

  /** The one-line prompt is asking for a message to an agent. */
  get prompting(): boolean {
    return this.promptFor !== undefined && this.common.view.prompt.open;
  }

  /** `/agent …`: new [name] [--worktree], or a name to switch to; alone, the overview. */
  command(args: string): void {
    const roster = this.ready();
    if (!roster) return;
    const words = args.split(/\s+/).filter((word) => word !== "");
    if (words.length === 0) return this.openOverview();
    if (words[0] === "new") {
      const usage = `Usage: /agent new [name] [--worktree] [--sandbox ${SANDBOX_PROFILES.join("|")}], e.g. /agent new tests --sandbox strict.`;
      const rest = words.slice(1);
      const at = rest.indexOf("--sandbox");
      const profile = at >= 0 ? rest[at + 1] : undefined;
      if (at >= 0 && (profile === undefined || !isSandboxProfile(profile))) return this.common.notice("error", `${usage} "${profile ?? ""}" is not a sandbox profile.`);
      const flags = rest.filter((word, i) => word !== "--worktree" && !(at >= 0 && (i === at || i === at + 1)));
      if (flags.length > 1 || flags.some((word) => word.startsWith("-"))) return this.common.notice("error", usage);
      return this.newAgent(flags[0] ?? roster.freeName(), rest.includes("--worktree"), profile !== undefined && isSandboxProfile(profile) ? profile : undefined);
    }
    if (words[0] === "close" && words.length === 2) return void this.close(words[1]!);
    if (words.length > 1) return this.common.notice("error", "Usage: /agent <name> puts that agent in the chat; /agent new [name] [--worktree] starts one; /agent close <name> ends one; /agents lists them.");
    this.switchTo(words[0]!);
  }

  /** Starts another agent in this folder (or in a new git worktree) and puts it in the chat. */
  newAgent(name: string, worktree = false, sandbox?: SandboxProfile): void {
    const roster = this.ready();
    if (!roster) return;
    const problem = badAgentName(name, roster.names());
    if (problem) return this.common.notice("error", `No new agent: ${problem}`);
    const made = this.makeAgent(roster, name, worktree, sandbox).then(
      (agent) => {
        this.show(agent);
        const where = agent.worktree
          ? `It works in a new git worktree, ${agent.worktree.path}, on the branch ${agent.worktree.branch} (its jobs run there; /agent close ${agent.name} offers to remove the worktree).`
          : "It shares this folder's jobs.";
        const fence = agent.sandbox ? ` Its commands run under the ${agent.sandbox} sandbox profile.` : "";
        this.common.notice("info", `Agent ${agent.name} started: its own conversation, queue and session file (${agent.setup.session?.path ?? "not saved: --no-session"}). ${where}${fence}`);
        return undefined;
      },
      (error: unknown) => {
        this.common.notice("error", `No new agent: ${error instanceof Error ? error.message : String(error)}`);
        return undefined;
      },
    );
    this.common.flashWhile(`starting agent ${name}…`, made);
  }

  /** Ends an agent (not the first): its turn, its jobs; its session file stays. A worktree of its own is offered for removal. */
  async close(name: string): Promise<void> {
    const roster = this.ready();
    if (!roster) return;
    const agent = roster.byName(name);
    if (!agent) return this.common.notice("error", `No agent named ${name}. Agents: ${roster.names().join(", ")}.`);
    if (agent === roster.list()[0]) return this.common.notice("error", `${name} is the first agent: it ends when pitwall quits.`);
    if (agent.setup.coding.agent.state.isStreaming) return this.common.notice("warning", `Agent ${name} is working: stop it first (x in the overview), then close it.`);
    if (roster.current === agent) this.show(roster.list()[0]!);
    roster.remove(name);
    const closed = agent.setup.dispose().then(() => {
      agent.setup.session?.close();
      this.common.notice("info", `Closed agent ${name}; its jobs were stopped${agent.setup.session ? ` and its conversation stays in ${agent.setup.session.path}` : ""}.`);
      return undefined;
    });
    this.common.flashWhile(`closing agent ${name}…`, closed);
    await closed;
    if (agent.worktree) await this.offerRemoval(agent.worktree);
  }

  /** Puts the named agent in the chat. */
  switchTo(name: string): void {
    const roster = this.ready();
    if (!roster) return;
    const agent = roster.byName(name);
    if (!agent) return this.common.notice("error", `No agent named ${name}. Agents: ${roster.names().join(", ")}. /agent new ${name} starts one.`);
    this.show(agent);
  }

  /** The next (1) or previous (-1) agent into the chat. */
  cycle(step: number): void {
    const roster = this.ready();
    if (!roster) return;
    if (roster.list().length < 2) return this.common.flash("only one agent: /agent new [name] starts another");
    this.show(roster.neighbour(step));
  }

  openOverview(): void {
    const roster = this.ready();
    if (!roster) return;
    const { view } = this.common;
    const selected = roster.list().indexOf(roster.current);
    this.overviewShown = true;
    view.picker.show(
      `agents (${roster.list().length})`,
      overviewRows(roster),
      "Enter chat with it · s steer · f follow-up · x stop · n new agent · Esc close",
      { pick: (index) => this.pickFromOverview(index), cancel: () => this.closedOverview() },
      [],
      selected,
    );
    this.common.requestFrame();
  }

  /** s or f in the overview: asks for the message for the selected agent. */
  askMessage(kind: PromptPurpose["kind"]): void {
    const agent = this.selected();
    if (!agent) return;
    this.promptFor = { kind, agent: agent.name };
    this.common.view.picker.hide();
    const what = kind === "steer" ? "steer" : "follow-up";
    const when = agent.setup.coding.agent.state.isStreaming
      ? kind === "steer"
        ? "delivered after its tool calls in flight"
        : "delivered when it would stop"
      : "it is idle: the message starts its turn";
    this.common.view.prompt.show(`${what} agent ${agent.name}`, `Enter sends (${when}) · Esc cancels`);
    this.common.requestFrame();
  }

  /** x in the overview: stops the selected agent's turn (its jobs keep running). */
  stopSelected(): void {
    const agent = this.selected();
    if (!agent) return;
    const coding = agent.setup.coding.agent;
    if (!coding.state.isStreaming) return this.common.flash(`agent ${agent.name} is not working`);
    coding.abort();
    this.common.flash(`stopped agent ${agent.name}'s turn (its jobs keep running)`);
  }

  /** Enter in the one-line prompt. */
  submitPrompt(): void {
    const purpose = this.promptFor;
    const text = this.common.view.prompt.value.trim();
    this.cancelPrompt();
    const agent = purpose ? this.roster?.byName(purpose.agent) : undefined;
    if (!agent || !purpose || !text) return this.openOverview();
    this.sendTo(agent, text, purpose.kind);
    this.openOverview();
  }

  cancelPrompt(): void {
    this.promptFor = undefined;
    this.common.view.prompt.hide();
    this.common.requestFrame();
  }

  /** A message to an agent that may not be in the chat: a steer or follow-up while it works, else a prompt. */
  sendTo(agent: RosterAgent, text: string, kind: PromptPurpose["kind"]): void {
    const coding = agent.setup.coding.agent;
    agent.activity.seen();
    if (coding.state.isStreaming) {
      if (kind === "steer") coding.steer(text);
      else coding.followUp(text);
      this.common.flash(`${kind === "steer" ? "steer" : "follow-up"} queued for agent ${agent.name}`);
      return;
    }
    coding.prompt(text).catch((error: unknown) => this.common.notice("error", `Agent ${agent.name}: ${error instanceof Error ? error.message : String(error)}`));
    this.common.flash(`sent to agent ${agent.name}`);
  }

  /** Makes the agent, in a new worktree when asked; a worktree made for an agent that then failed to start goes again. */
  private async makeAgent(roster: AgentRoster, name: string, inWorktree: boolean, sandbox: SandboxProfile | undefined): Promise<RosterAgent> {
    const fence = sandbox ? { sandbox } : {};
    if (!inWorktree) return roster.create({ name, ...fence });
    const cwd = roster.list()[0]!.setup.options.cwd;
    const worktree = await createWorktree(cwd, name);
    try {
      return await roster.create({ name, worktree, ...fence });
    } catch (error) {
      await removeWorktree(worktree, true).catch(() => undefined);
      throw error;
    }
  }

  /** Asks whether the closed agent's worktree goes; one with uncommitted changes is kept unless the person says otherwise. */
  private async offerRemoval(worktree: AgentWorktree): Promise<void> {
    const changes = await uncommittedChanges(worktree).catch(() => undefined);
    if (changes === undefined) return this.common.notice("warning", `Could not read the state of the worktree ${worktree.path}; it is kept (git worktree remove ${worktree.path} removes it).`);
    const row = (text: string): ReturnType<typeof overviewRows>[number] => [{ text, attr: attr() }];
    const dirty = changes.length > 0;
    const rows = dirty
      ? [row("Keep the worktree"), row(`Remove it anyway: its ${changes.length} uncommitted change${changes.length === 1 ? " is" : "s are"} lost`)]
      : [row(`Remove the worktree ${worktree.path} (the branch ${worktree.branch} stays)`), row("Keep the worktree")];
    const intro = dirty
      ? [`The worktree ${worktree.path} has uncommitted changes:`, ...changes.slice(0, 6).map((line) => `  ${line}`), ...(changes.length > 6 ? [`  … and ${changes.length - 6} more`] : [])]
      : [`The worktree ${worktree.path} is clean: everything in it is on the branch ${worktree.branch}.`];
    const removeIndex = dirty ? 1 : 0;
    const picked = await new Promise<number | undefined>((resolve) => {
      this.common.view.picker.show("remove the agent's worktree?", rows, "Enter choose · Esc keep it", { pick: resolve, cancel: () => resolve(undefined) }, intro);
      this.common.requestFrame();
    });
    this.common.requestFrame();
    if (picked !== removeIndex) return this.common.notice("info", `Kept the worktree ${worktree.path} (branch ${worktree.branch}); git worktree remove ${worktree.path} removes it later.`);
    try {
      await removeWorktree(worktree, dirty);
      this.common.notice("info", `Removed the worktree ${worktree.path}; the branch ${worktree.branch} stays.`);
    } catch (error) {
      this.common.notice("error", `Could not remove the worktree ${worktree.path}: ${error instanceof Error ? error.message : String(error)}`);
    }
    this.common.requestFrame();
  }

  private pickFromOverview(index: number): void {
    this.overviewShown = false;
    const agent = this.roster?.list()[index];
    if (agent) this.show(agent);
  }

  private closedOverview(): void {
    this.overviewShown = false;
  }

  private selected(): RosterAgent | undefined {
    if (!this.overviewOpen) return undefined;
    return this.roster?.list()[this.common.view.picker.selected];
  }

  private show(agent: RosterAgent): void {
    const roster = this.roster;
    if (!roster) return;
    if (roster.current === agent) return this.common.flash(`agent ${agent.name} is in the chat`);
    const why = this.host.canSwitch();
    if (why) return this.common.notice("warning", why);
    roster.setCurrent(agent.name);
    this.host.show(agent);
  }

  /** The status bar and an open overview follow every agent's activity. */
  private refresh(): void {
    const roster = this.roster;
    if (!roster) return;
    const status = this.common.view.status.state;
    const many = roster.list().length > 1;
    status.agent = many ? roster.current.name : undefined;
    // The jobs pane says who started each job once there is more than one agent to tell apart.
    this.common.view.jobs.starterLabel = many ? (job) => (job.startedBy === "person" ? "you" : (roster.ownerOf(job.owner)?.name ?? "earlier")) : undefined;
    status.agentsWaiting = roster.waiting().map((agent) => agent.name);
    const newly = status.agentsWaiting.filter((name) => !this.waitingBefore.has(name));
    this.waitingBefore = new Set(status.agentsWaiting);
    if (newly.length > 0) this.common.flash(`agent ${newly.join(", ")} finished and is waiting for you (${this.overviewKey()} lists the agents)`, 6_000);
    if (this.overviewOpen) this.common.view.picker.setItems(overviewRows(roster));
    this.common.requestFrame();
  }

  private overviewKey(): string {
    const key = this.common.keymap.keysFor("global", "agents")[0];
    return key === undefined ? "/agents" : displayKeyName(key);
  }

  private ready(): AgentRoster | undefined {
    if (!this.roster) this.common.notice("warning", "The agent is still loading; try again in a moment.");
    return this.roster;
  }
}
