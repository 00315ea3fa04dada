// The conversation's session as the dashboard shows it: connecting the loaded agent (the welcome
// line, a resumed conversation, the warnings), "ready" once the provider has loaded, the earlier
// run's jobs, whether the session file is being saved, /session, and /clear (a new conversation).
import { RemoteJobService } from "../tools/jobs/index.js";
import type { EarlierJob } from "../agent/earlier-jobs.js";
import type { LoadedSession } from "../agent/sessions/session-load.js";
import type { SessionStore } from "../agent/sessions/session-store.js";
import { otherBranchCount } from "../agent/sessions/session-tree.js";
import { shortCommand } from "../tools/jobs/index.js";
import { formatCost, formatTokens } from "../panes/text/format.js";
import type { DashboardCommon } from "./dashboard-common.js";
import type { EventFlow } from "./dashboard-events.js";
import type { Setup } from "./session-setup.js";
import { localServerOffer, probeLocalServers } from "../agent/providers/local-servers.js";

export class SessionFlow {
  private unwatchSession: (() => void) | undefined;

  constructor(
    private readonly common: DashboardCommon,
    private readonly events: Pick<EventFlow, "setUsage" | "refreshModel" | "refreshContext">,
  ) {}

  /** A loaded agent: the welcome line, its resumed conversation, its warnings, the status line. */
  agentLoaded(setup: Setup): void {
    const { view } = this.common;
    const { agent } = setup.coding;
    const where = setup.remote ? `${setup.remote.label} (tools and jobs run there, over ssh)` : setup.options.cwd;
    view.chat.notice("info", `pitwall in ${where} · ${agent.state.model.provider}/${agent.state.model.id} · ${view.status.state.helpKey} shows the keys, /help the commands`);
    view.status.state.remote = setup.remote?.label;
    view.jobs.setRemote(setup.remote?.label);
    // A remote session's files are previewed from the remote, through its job host.
    const jobs = setup.coding.jobs;
    view.files.preview.source = jobs instanceof RemoteJobService ? (path, maxBytes) => jobs.readFile(path, maxBytes) : undefined;
    setup.onRemoteStatus((text) => {
      view.status.state.remoteDown = /reconnecting…/.test(text) ? true : /^Reconnected/.test(text) ? false : view.status.state.remoteDown;
      view.chat.notice(/dropped|could not|older than/i.test(text) ? "warning" : "info", text);
      this.common.requestFrame();
    });
    if (setup.resumed) this.loadConversation(setup.resumed);
    for (const warning of [...setup.warnings, ...setup.sessionWarnings]) view.chat.notice("warning", warning);
    for (const warning of this.common.keymap.warnings) view.chat.notice("warning", warning);
    const missing = this.common.missingKey();
    if (missing) {
      view.chat.notice("warning", `${missing} Until then, prompts are not sent.`);
      // The agent has loaded, long after the first frame: a local server that answers is offered.
      void probeLocalServers().then((servers) => {
        const offer = localServerOffer(servers);
        if (!offer || !this.common.missingKey()) return;
        view.chat.notice("info", offer);
        this.common.requestFrame();
      });
    }
    const status = view.status.state;
    // "ready" once the provider is loaded too (providerReady): a prompt typed then goes out at once.
    status.phase = agent.state.isStreaming ? "working" : "starting";
    this.events.refreshModel();
    this.events.refreshContext();
    status.session = setup.session ? undefined : "no session file";
    this.watchSession(setup.session);
  }

  /** The model's SDK and HTTP client are loaded (Agent.prepareProvider): the status says ready. */
  providerReady(): void {
    const status = this.common.view.status.state;
    if (status.phase === "starting") status.phase = "idle";
    this.common.requestFrame();
  }

  /** The resumed conversation's jobs that ended with the earlier run (once the job host was asked). */
  earlierJobsEnded(ended: readonly EarlierJob[]): void {
    if (ended.length === 0) return;
    const jobs = ended.map((j) => `job ${j.id}${j.command ? ` (${shortCommand(j.command, 60)})` : ""}`).join(", ");
    this.common.view.chat.notice("info", `The earlier run's jobs ended when it quit: ${jobs}. The agent is told with its next request.`);
    this.common.requestFrame();
  }

  /**
   * Keeps the status bar saying when the session file is not being saved; the failure itself arrives
   * as an `error` event (a chat notice); getting saved again is a notice too.
   */
  watchSession(session: SessionStore | undefined): void {
    this.unwatchSession?.();
    const { view } = this.common;
    const status = view.status.state;
    status.sessionProblem = undefined;
    this.unwatchSession = session?.onSaveState((state) => {
      const failing = status.sessionProblem !== undefined;
      const records = state.unsavedRecords === 1 ? "1 record" : `${state.unsavedRecords} records`;
      status.sessionProblem = state.problem ? `session not saved: ${records} only in memory` : undefined;
      if (failing && !state.problem) view.chat.notice("info", `The session is saved again: everything is in ${session.path}.`);
      this.common.requestFrame();
    });
  }

  /** /session: the file and its statistics. */
  showSession(): void {
    const setup = this.common.setup();
    const session = setup?.session;
    if (!setup) return this.common.notice("warning", "The agent is still loading.");
    if (!session) return this.common.notice("info", "No session file: pitwall was started with --no-session.");
    const s = session.stats();
    const saved = session.persisted ? "" : " (created with the first message)";
    this.common.notice(
      "info",
      `Session ${s.id}\nFile: ${s.path}${saved}\n${s.messages} messages (${s.userMessages} from you), ${s.toolCalls} tool calls, ${formatTokens(s.tokens)} tokens, ${formatCost(s.cost)}`,
    );
  }

  /** /clear and /new: a new conversation, the chat, tool output and files empty; jobs keep running. */
  newSession(): void {
    const setup = this.common.setup();
    if (!setup) return this.common.notice("warning", "The agent is still loading.");
    if (this.common.working()) return this.common.notice("warning", "The agent is working: wait for it to finish or press Esc, then /clear.");
    const session = setup.newSession();
    this.watchSession(session);
    const { view } = this.common;
    view.chat.clear();
    view.toolOutput.clear();
    view.tools.clear();
    view.files.clear();
    this.events.setUsage({ tokens: 0, cachedTokens: 0, cost: null });
    this.common.notice("info", session ? `New conversation. Session file: ${session.path} (written with the first message).` : "New conversation (not saved: --no-session).");
  }

  detach(): void {
    this.unwatchSession?.();
  }

  /** A resumed session: what the model will be sent is shown; tokens and cost count the whole file. */
  private loadConversation(session: LoadedSession): void {
    const { view } = this.common;
    const { messages, stats } = session;
    view.chat.loadMessages(messages);
    view.files.loadMessages(messages);
    this.events.setUsage({ tokens: stats.tokens, cachedTokens: stats.cachedTokens, cost: stats.cost });
    const shown = messages.filter((m) => !(m.role === "user" && m.origin === "summary")).length;
    // A session with branches: what counts is the current one.
    const others = otherBranchCount(session.tree);
    const onBranch = others > 0 ? session.tree.pathTo().filter((node) => node.kind === "message").length : stats.messages;
    const notes = [others > 0 ? `${onBranch} messages on this branch, ${stats.messages} in the file over ${others + 1} branches (/tree shows them)` : `${stats.messages} messages`];
    if (shown < onBranch) notes.push(`the ${shown} newest shown${session.compaction ? ", the older ones as the summary above" : ""}`);
    if (session.older) notes.push(`${session.older.count} older ones did not fit the context window and are summarised before the next request`);
    if (session.older?.omitted) notes.push(`the ${session.older.omitted.count} oldest are left out of that summary to bound its cost`);
    view.chat.notice("info", `Resumed ${session.path} (${notes.join("; ")}).`);
    for (const m of messages) if (m.role === "user" && (m.origin ?? "prompt") === "prompt") view.input.history.add(m.content);
  }
}
