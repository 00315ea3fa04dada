// Terminal notifications while the person is not looking: a turn ended, the agent stopped on an
// error, a watch trigger fired. "Not looking" is what the terminal says through focus reporting
// (DECSET 1004: focus-out, until focus-in), or, from a terminal that never reported focus, no key
// for a while (notifyIdleMs). Never while the terminal has focus.
//
// How (notify in config.json): "osc" sends OSC 9 (iTerm2, WezTerm, Ghostty, kitty, Windows
// Terminal, ConEmu), or OSC 777 where the terminal prefers it (foot, rxvt-unicode), and a bell to a
// terminal not known to show either; inside tmux the OSC goes wrapped in tmux's passthrough, with a
// bell too (tmux marks the window; the outer terminal shows the OSC when allow-passthrough is on).
// "bell" sends only the bell; "off" nothing.
import type { PitwallEvent } from "../agent/events.js";
import type { AssistantMessage } from "../agent/messages.js";

export const NOTIFY_MODES = ["off", "bell", "osc"] as const;
export type NotifyMode = (typeof NOTIFY_MODES)[number];

export interface NotifySettings {
  mode: NotifyMode;
  /** Without focus reports: no key for this long counts as not looking. */
  idleMs: number;
}

export const DEFAULT_NOTIFY_IDLE_MS = 60_000;
const BELL = "\x07";
/** A notification says what happened in a few words. */
const MAX_TEXT = 80;

type OscKind = "osc9" | "osc777";

/** Which notification sequence the terminal is known to show, from what it puts in the environment. */
export function terminalNotifications(env: NodeJS.ProcessEnv): OscKind | undefined {
  const term = env.TERM ?? "";
  const program = env.TERM_PROGRAM ?? "";
  if (/^foot/.test(term) || /^rxvt-unicode/.test(term)) return "osc777";
  if (["iTerm.app", "WezTerm", "ghostty"].includes(program) || env.LC_TERMINAL === "iTerm2") return "osc9";
  if (term === "xterm-kitty" || env.KITTY_WINDOW_ID || env.WT_SESSION || env.ConEmuANSI === "ON") return "osc9";
  return undefined;
}

/** The bytes that notify `text`; empty for "off". */
export function notificationBytes(text: string, mode: NotifyMode, env: NodeJS.ProcessEnv): string {
  if (mode === "off") return "";
  if (mode === "bell") return BELL;
  const safe = text.replace(/[\u0000-\u001f\u007f-\u009f;]/g, " ");
  const tmux = Boolean(env.TMUX);
  const kind = terminalNotifications(env) ?? (tmux ? "osc9" : undefined);
  if (!kind) return BELL;
  const osc = kind === "osc777" ? `\x1b]777;notify;pitwall;${safe}\x07` : `\x1b]9;${safe}\x07`;
  // tmux passthrough: DCS tmux; <sequence with each ESC doubled> ST.
  return tmux ? `\x1bPtmux;${osc.replace(/\x1b/g, "\x1b\x1b")}\x1b\\${BELL}` : osc;
}

/**
 * Watches the bus and the person's attention, and writes a notification when something they would
 * want to know happens while they are not looking. Contract: write() must not throw.
 */
export class Notifier {
  /** Undefined until the terminal reports focus (one that does not support 1004 never does). */
  private focused: boolean | undefined;
  private lastKeyAt: number;
  /** The files each agent changed in its current run ("" for a dashboard's only agent). */
  private changedFiles = new Map<string, Set<string>>();

  constructor(
    private readonly settings: NotifySettings,
    private readonly output: { write(bytes: string): void; env: NodeJS.ProcessEnv; now?: () => number },
  ) {
    this.lastKeyAt = this.now();
  }

  private now(): number {
    return this.output.now?.() ?? performance.now();
  }

  /** The terminal reported focus in (true) or out (false). */
  focus(focused: boolean): void {
    this.focused = focused;
  }

  /** The person pressed a key (or pasted, or clicked). */
  keyPressed(): void {
    this.lastKeyAt = this.now();
  }

  /** Whether the person is away: focus-out, or no key for a while where focus is never reported. */
  get notLooking(): boolean {
    if (this.focused !== undefined) return !this.focused;
    return this.now() - this.lastKeyAt >= this.settings.idleMs;
  }

  /** `agent`: which of the dashboard's agents the event is of, named in the notification when there are several. */
  onEvent(event: PitwallEvent, agent?: string): void {
    const changedFiles = this.changedFilesOf(agent);
    const notify = (what: string): void => this.notify(agent === undefined ? what : `agent ${agent}: ${what}`);
    switch (event.type) {
      case "agent_start":
        changedFiles.clear();
        break;
      case "file_change":
        changedFiles.add(event.path);
        break;
      case "agent_end": {
        const last = [...event.messages].reverse().find((m): m is AssistantMessage => m.role === "assistant");
        // Esc: the person is there.
        if (last?.stopReason === "aborted") break;
        if (last?.stopReason === "error") notify(`stopped on an error: ${last.errorMessage ?? "the model request failed"}`);
        else {
          const files = changedFiles.size;
          notify(`turn done${files > 0 ? ` · ${files} file${files === 1 ? "" : "s"} changed` : ""}`);
        }
        break;
      }
      case "job_triggered": {
        const line = event.lines.find((l) => l.match)?.text.trim() ?? event.trigger.pattern;
        notify(`job ${event.jobId}: ${line}`);
        break;
      }
      default:
        break;
    }
  }

  private changedFilesOf(agent: string | undefined): Set<string> {
    const key = agent ?? "";
    let files = this.changedFiles.get(key);
    if (!files) this.changedFiles.set(key, (files = new Set()));
    return files;
  }

  private notify(what: string): void {
    if (this.settings.mode === "off" || !this.notLooking) return;
    const text = `pitwall: ${what}`;
    const bytes = notificationBytes(text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text, this.settings.mode, this.output.env);
    if (bytes) this.output.write(bytes);
  }
}
