// The dashboard's side of the session tree: Esc Esc (or /rewind) lists the person's messages on the
// current branch, newest first; picking one asks whether the files go back too (saying that bash's
// changes are not tracked), then rewinds and puts the message back into the input. /tree shows the
// branches and switches to one; /fork continues in a copy of the branch; /export writes it as
// Markdown. The work is the coding agent's (agent/session-control.ts); this file asks and tells.
import { relative, isAbsolute } from "node:path";
import type { CodingAgent } from "../agent/coding-agent.js";
import { SessionControl } from "../agent/session-control.js";
import { planFileRestore, type FileRestoreReport } from "../agent/sessions/file-restore.js";
import { promptTree } from "../agent/sessions/prompt-tree.js";
import { fileChangesAfter, personMessagesOnPath, type TreeNode } from "../agent/sessions/session-tree.js";
import type { DashboardView } from "../panes/dashboard-view.js";
import { branchTreeRows, rewindRows, shortTime } from "../panes/overlays/branch-rows.js";
import { attr, type StyledLine } from "../panes/text/styled-text.js";
import { describeExport, exportCurrentBranch, exportTarget, exportTargetExists } from "./export-command.js";

export interface BranchFlowHost {
  readonly view: DashboardView;
  /** The coding agent, once loaded. */
  coding(): CodingAgent | undefined;
  /** The working directory: paths are shown relative to it, /export writes into it. */
  cwd(): string;
  notice(level: "info" | "warning" | "error", text: string): void;
  requestFrame(): void;
  /** A rewind, switch or fork has ended (what was sent meanwhile can go now). */
  settled(): void;
}

const FILE_CHOICES: StyledLine[] = [
  [{ text: "Conversation only (the files stay as they are)", attr: attr() }],
  [{ text: "Conversation and files (undo the agent's writes and edits since)", attr: attr() }],
];

const REPLACE_CHOICES: StyledLine[] = [[{ text: "Replace it", attr: attr() }], [{ text: "Keep it (nothing is exported)", attr: attr() }]];

/** At most this many file names in one line of text. */
const LISTED_FILES = 6;

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** One line of the message, cut for a notice. */
function quoted(text: string, max = 60): string {
  const line = text.replace(/\s+/g, " ").trim();
  return `"${line.length > max ? `${line.slice(0, max - 1)}…` : line}"`;
}

export class BranchFlow {
  /** A rewind, switch or fork under way: the conversation is about to change, so nothing is sent. */
  private move: Promise<void> | undefined;

  constructor(private readonly host: BranchFlowHost) {}

  get moving(): boolean {
    return this.move !== undefined;
  }

  /** Esc Esc or /rewind: the person's messages on the current branch, newest first. */
  openRewind(): void {
    const coding = this.ready("rewind");
    if (!coding) return;
    const tree = coding.sessionTree()!;
    const messages = personMessagesOnPath(tree);
    if (messages.length === 0) return this.host.notice("info", "Nothing to rewind to yet: rewinding goes back to before one of your messages.");
    this.host.view.picker.show(
      `rewind: back to before which message? (${messages.length})`,
      rewindRows(messages),
      "Enter go back to before it · Esc cancel",
      { pick: (index) => this.askFiles(messages[index]!), cancel: () => this.host.requestFrame() },
      ["The conversation goes back to just before the message you pick, and its text comes back into the input to edit and send again. The branch you leave stays in the session: /tree shows it."],
    );
  }

  /** /tree: the branches, the current one marked; Enter continues from the end of that message's turn. */
  openTree(): void {
    const coding = this.ready("show the branches");
    if (!coding) return;
    const tree = coding.sessionTree()!;
    const { rows, targets, current, atStart } = branchTreeRows(promptTree(tree));
    if (rows.length === 0) return this.host.notice("info", "No branches yet: the tree shows your messages once there are some.");
    const intro = ["● the current branch, ○ the others; where you went back and tried again, the messages branch. Enter continues the conversation from the end of that message's turn (its files are not changed). Nothing is lost."];
    if (atStart) intro.push("The conversation is at its start now, before your first message (you went back to before it).");
    this.host.view.picker.show(
      `tree: your messages and the branches of this session (${rows.length})`,
      rows,
      "Enter continue from there · Esc close",
      { pick: (index) => this.switchTo(targets[index]!), cancel: () => this.host.requestFrame() },
      intro,
      current,
    );
  }

  /** /fork: the current branch goes on in a new session file. */
  fork(): void {
    const coding = this.ready("fork");
    if (!coding) return;
    this.track(
      coding.fork(),
      (forked) => this.done("info", `Forked: this branch goes on in ${forked.path}. The original keeps every branch: ${forked.forkedFrom}.`),
      (error) => this.done("error", `Not forked: ${errorText(error)}`),
    );
  }

  /** /export [file]: the current branch as Markdown; a file that is there is replaced only if the person says so. */
  export(file: string): void {
    const coding = this.host.coding();
    if (!coding) return this.host.notice("warning", "The agent is still loading; try again in a moment.");
    const target = exportTarget(coding, this.host.cwd(), file || undefined);
    const write = (replace: boolean): void => {
      exportCurrentBranch(coding, this.host.cwd(), file || undefined, { replace }).then(
        (result) => this.done("info", describeExport(result)),
        (error: unknown) => this.done("error", `Not exported: ${errorText(error)}`),
      );
    };
    exportTargetExists(target).then(
      (exists) => {
        if (!exists) return write(false);
        this.host.view.picker.show(
          `export: ${target} exists`,
          REPLACE_CHOICES,
          "Enter choose · Esc keep the file",
          {
            pick: (index) => (index === 0 ? write(true) : this.done("info", `Not exported: ${target} is kept as it was.`)),
            cancel: () => this.done("info", `Not exported: ${target} is kept as it was.`),
          },
          ["A file of that name is already there. Replace it with this export, or keep it and export again under another name (/export <file>)."],
          1,
        );
        this.host.requestFrame();
      },
      (error: unknown) => this.done("error", `Not exported: ${errorText(error)}`),
    );
  }

  /** The coding agent when it can move around its session now; otherwise says why not. */
  private ready(what: string): CodingAgent | undefined {
    const coding = this.host.coding();
    if (!coding) {
      this.host.notice("warning", "The agent is still loading; try again in a moment.");
      return undefined;
    }
    if (!coding.session) {
      this.host.notice("info", `There is no session file (pitwall was started with --no-session), so there is nothing to ${what}.`);
      return undefined;
    }
    if (this.moving) {
      this.host.notice("warning", `The session is still moving (a rewind, branch switch or fork): ${what} once it is done.`);
      return undefined;
    }
    if (coding.agent.state.isStreaming) {
      this.host.notice("warning", `The agent is working: press Esc to stop it first, then ${what}.`);
      return undefined;
    }
    return coding;
  }

  /** Marks a move as under way until it ends and its result is told, then lets the host send what waited. */
  private track<T>(move: Promise<T>, done: (value: T) => void, failed: (error: unknown) => void): void {
    this.move = move.then(done, failed).finally(() => {
      this.move = undefined;
      this.host.settled();
    });
  }

  /** Conversation only, or files too: says which files the agent changed after that point. */
  private askFiles(node: TreeNode): void {
    const coding = this.host.coding();
    if (!coding?.session) return;
    const plans = planFileRestore(fileChangesAfter(coding.session.tree, SessionControl.pointOf(node)));
    const names = plans.map((plan) => this.shown(plan.path));
    const changed =
      plans.length === 0
        ? "The agent wrote or edited no files after that point."
        : `The agent wrote or edited ${plans.length} file${plans.length === 1 ? "" : "s"} after that point: ${this.list(names)}.`;
    this.host.view.picker.show(
      "rewind: the files too?",
      FILE_CHOICES,
      "Enter choose · Esc cancel the rewind",
      { pick: (index) => this.rewind(node, index === 1), cancel: () => this.host.requestFrame() },
      [
        `Back to before ${quoted(node.person!.preview)} (${shortTime(node.person!.timestamp).trim()}).`,
        changed,
        "Changes made by bash commands (and by you) are not tracked and are not undone; a file changed since the agent last wrote it is left alone.",
      ],
    );
  }

  private rewind(node: TreeNode, files: boolean): void {
    const coding = this.host.coding();
    if (!coding) return;
    this.track(
      coding.rewind({ to: node.id }, { files }),
      (change) => {
        const input = this.host.view.input;
        if (change.prompt) input.restore(change.prompt.text, change.prompt.images);
        const lines = [`Rewound to before ${quoted(node.person!.preview)}. Your message is back in the input: edit it and press Enter to go on from there as a new branch. The branch you left stays in the session (/tree).`];
        if (change.files) lines.push(...this.describeFiles(change.files));
        this.done(change.files && (change.files.refused.length > 0 || change.files.failed.length > 0) ? "warning" : "info", lines.join("\n"));
      },
      (error) => this.done("error", `Not rewound: ${errorText(error)}`),
    );
  }

  private switchTo(target: string): void {
    const coding = this.host.coding();
    if (!coding) return;
    if (coding.sessionTree()?.leafId === target) return this.host.notice("info", "That is where the conversation is now.");
    this.track(
      coding.switchBranch(target),
      (change) => {
        const last = personMessagesOnPath(coding.sessionTree()!, change.leafId)[0];
        this.done("info", `Switched to the branch of ${last ? quoted(last.person!.preview) : "the start"}: the conversation goes on from there (${change.messages.length} messages in context). The branch you left stays in the session.`);
      },
      (error) => this.done("error", `Not switched: ${errorText(error)}`),
    );
  }

  private describeFiles(report: FileRestoreReport): string[] {
    const lines: string[] = [];
    const names = (paths: string[]): string => this.list(paths.map((path) => this.shown(path)));
    if (report.restored.length) lines.push(`Put back ${report.restored.length} file${report.restored.length === 1 ? "" : "s"}: ${names(report.restored)}.`);
    if (report.removed.length) lines.push(`Removed ${report.removed.length} file${report.removed.length === 1 ? "" : "s"} the agent had created: ${names(report.removed)}.`);
    if (report.unchanged.length) lines.push(`Already as they were: ${names(report.unchanged)}.`);
    if (report.refused.length) lines.push(`Left alone: ${report.refused.map((r) => `${this.shown(r.path)} (${r.reason})`).join(", ")}.`);
    if (report.failed.length) lines.push(`Could not put back: ${report.failed.map((r) => `${this.shown(r.path)} (${r.reason})`).join(", ")}.`);
    if (lines.length === 0) lines.push("The agent had changed no files after that point.");
    return lines;
  }

  private list(names: string[]): string {
    return names.length > LISTED_FILES ? `${names.slice(0, LISTED_FILES).join(", ")} and ${names.length - LISTED_FILES} more` : names.join(", ");
  }

  /** A path as short as it can be said: relative to the working directory when inside it. */
  private shown(path: string): string {
    const rel = relative(this.host.cwd(), path);
    return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
  }

  private done(level: "info" | "warning" | "error", text: string): void {
    this.host.notice(level, text);
    this.host.view.chat.toBottom();
    this.host.requestFrame();
  }
}
