// What the dashboard's flows share (lazygit's ControllerCommon): the panes, the key bindings, the
// agent once it has loaded, and the ways of telling the person something. Each flow is handed
// this, or a part of it, never the controller: no flow imports the controller or another flow.
import type { DashboardView } from "../panes/dashboard-view.js";
import type { Keymap } from "./keys/keymap.js";
import type { Setup } from "./session-setup.js";

export type NoticeLevel = "info" | "warning" | "error";

/** How a flow tells the person something. */
export interface Telling {
  /** A short message in the status line that clears itself (after `ms`, or the default while). */
  flash(text: string, ms?: number): void;
  /** A status-line message for as long as `outcome` is pending, then what it resolved to (a flash), or nothing. */
  flashWhile(text: string, outcome: Promise<string | undefined>): void;
  /** A line in the chat. */
  notice(level: NoticeLevel, text: string): void;
  /** What changed is drawn with the next frame. */
  requestFrame(): void;
  /** What changed is what the person waits for (the end of an answer): drawn as soon as a key's frame would be. */
  requestFrameSoon(): void;
}

export interface DashboardCommon extends Telling {
  readonly view: DashboardView;
  readonly keymap: Keymap;
  /** The agent, its session and its jobs, once loaded. */
  setup(): Setup | undefined;
  /** The agent is running a turn. */
  working(): boolean;
  /** The message saying how to configure a provider, when the current model's has none. */
  missingKey(): string | undefined;
}
