// The dashboard's side of the slash commands (the SlashContext of slash-commands.ts): help, the
// model and thinking level, /context, /skills, and the commands that belong to a flow (/session and /clear
// to the session, /compact to sending, /rewind, /tree, /fork and /export to the branches, the job
// commands to job control, /quit). Each says in the chat what it did, or why not now.
import { knownModelIds, resolveModel } from "../agent/models.js";
import type { ThinkingLevel } from "../agent/messages.js";
import type { AgentsFlow } from "./agents-flow.js";
import type { BranchFlow } from "./branch-flow.js";
import type { InterruptFlow } from "./interrupt-flow.js";
import { contextReportLines } from "./context-report.js";
import type { DashboardCommon, NoticeLevel } from "./dashboard-common.js";
import { keymapHelp } from "./keys/keymap-help.js";
import type { SendFlow } from "./send-flow.js";
import type { SessionFlow } from "./session-flow.js";
import { SLASH_COMMANDS, type PromptCommandInfo, type SlashContext, type SlashJobControl } from "./slash-commands.js";
import { resourceListLines } from "./resource-list.js";

export interface CommandFlows {
  readonly session: Pick<SessionFlow, "showSession" | "newSession">;
  readonly sending: Pick<SendFlow, "compact">;
  readonly branches: Pick<BranchFlow, "openRewind" | "openTree" | "fork" | "export">;
  readonly jobControl: SlashJobControl;
  readonly interrupts: Pick<InterruptFlow, "stopTurn">;
  readonly agents: Pick<AgentsFlow, "command" | "openOverview" | "agents">;
  quit(): void;
}

export class DashboardCommands implements SlashContext {
  readonly jobControl: SlashJobControl;

  constructor(
    private readonly common: DashboardCommon,
    private readonly flows: CommandFlows,
  ) {
    this.jobControl = flows.jobControl;
  }

  notice(level: NoticeLevel, text: string): void {
    this.common.notice(level, text);
  }

  showHelp(): void {
    const { keymap, view } = this.common;
    const keys = keymapHelp(keymap);
    const altNote =
      "Alt keys need a terminal that sends Alt as Esc: pitwall turns that on in xterm while it runs; elsewhere turn on \"Alt/Option sends Esc\" (or \"Option as Meta\"). If Alt+1 types a character such as ±, Tab and Shift+Tab still move the focus.";
    if (keys[0]) keys[0] = { ...keys[0], note: `Key bindings from ${keymap.sources.join(" + ") || "(none)"}. ${altNote}` };
    const commands = { title: "Commands (type in the input)", rows: SLASH_COMMANDS.map((c) => ({ keys: `/${c.name}${c.args ? ` ${c.args}` : ""}`, description: c.description })) };
    view.help.show("help: keys and commands", [...keys, commands]);
  }

  setModel(spec: string): void {
    const setup = this.common.setup();
    if (!setup) return this.notice("warning", "The agent is still loading; try again in a moment.");
    try {
      const current = setup.coding.agent.state.model;
      const model = resolveModel(spec, spec.includes("/") ? undefined : current.provider, current.provider);
      setup.coding.agent.setModel(model);
      const note = model.known ? "" : " (not in pitwall's table: tokens are counted, cost is unknown)";
      this.notice("info", `Model: ${model.provider}/${model.id}${note}. It applies from the next request.`);
      const missing = this.common.missingKey();
      if (missing) this.notice("warning", missing);
    } catch (error) {
      this.notice("error", error instanceof Error ? error.message : String(error));
    }
  }

  setThinking(level: ThinkingLevel): void {
    const agent = this.common.setup()?.coding.agent;
    if (!agent) return this.notice("warning", "The agent is still loading; try again in a moment.");
    agent.setThinkingLevel(level);
    this.notice("info", `Thinking: ${level}.${agent.state.model.reasoning ? "" : ` ${agent.state.model.id} does not think; the level is kept for models that do.`}`);
  }

  showSession(): void {
    this.flows.session.showSession();
  }

  newSession(): void {
    this.flows.session.newSession();
  }

  showContext(): void {
    const setup = this.common.setup();
    if (!setup) return this.notice("warning", "The agent is still loading.");
    this.notice("info", contextReportLines(setup.coding.contextReport()).join("\n"));
  }

  showSkills(): void {
    const setup = this.common.setup();
    if (!setup) return this.notice("warning", "The agent is still loading; try again in a moment.");
    this.notice("info", resourceListLines(setup.resources, setup.coding.systemPrompt.skills.tokens, setup.unloadedNote).join("\n"));
  }

  promptCommands(): PromptCommandInfo[] {
    const resources = this.common.setup()?.resources;
    if (!resources) return [];
    return [...resources.templates.map((t) => ({ name: t.name, description: t.description })), ...resources.skills.map((s) => ({ name: `skill:${s.name}`, description: s.description }))];
  }

  compact(instructions: string): void {
    this.flows.sending.compact(instructions);
  }

  rewind(): void {
    this.flows.branches.openRewind();
  }

  showTree(): void {
    this.flows.branches.openTree();
  }

  fork(): void {
    this.flows.branches.fork();
  }

  exportBranch(file: string): void {
    this.flows.branches.export(file);
  }

  stopTurn(): void {
    this.flows.interrupts.stopTurn();
  }

  agentCommand(args: string): void {
    this.flows.agents.command(args);
  }

  showAgents(): void {
    this.flows.agents.openOverview();
  }

  agentNames(): string[] {
    return this.flows.agents.agents?.names() ?? [];
  }

  quit(): void {
    this.flows.quit();
  }

  modelIds(): string[] {
    return knownModelIds();
  }

  currentModel(): string {
    const model = this.common.setup()?.coding.agent.state.model;
    return model ? `${model.provider}/${model.id}` : "(loading)";
  }

  currentThinking(): ThinkingLevel {
    return this.common.setup()?.coding.agent.state.thinkingLevel ?? "off";
  }
}
