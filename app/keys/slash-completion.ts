// Tab in the input: completes a slash command, a prompt template, /skill:name or a command's
// argument (a job id, a model id). One candidate completes at once, its description in the status
// line. Several open the completion menu (panes/input/completion-menu.ts) just above the input,
// the first one in the input: Tab or Down go to the next, Shift+Tab or Up to the previous (each
// fills the input), Enter keeps the current one (unsent), Esc puts back what was typed; any other
// key closes the menu and does what it does. The keys are the keymap's: next is input.complete or
// input.historyNext, previous global.focusPrev or input.historyPrev, accept input.submit, close
// global.abort.
import type { DashboardController } from "../dashboard-controller.js";
import { completeSlash, describeCandidate } from "../slash-commands.js";
import type { Key } from "./key.js";

type MenuAction = "next" | "previous" | "accept" | "close";

export class SlashCompletion {
  private candidates: string[] = [];
  private index = 0;
  /** The input's text when the menu opened (the shared prefix completed): Esc puts it back. */
  private base = "";

  constructor(private readonly c: DashboardController) {}

  get open(): boolean {
    return this.c.view.completion.open;
  }

  /** Tab in the input: true when it completed (or said nothing fits); false lets Tab move the focus. */
  complete(): boolean {
    const input = this.c.view.input;
    const text = input.buffer.text;
    const result = completeSlash(text, this.c.commands);
    if (!result) return false;
    if (result.candidates.length === 0) {
      this.c.flash("no completion");
      return true;
    }
    input.setText(result.text);
    if (result.candidates.length === 1) {
      this.flashCandidate(result.candidates[0]!);
      return true;
    }
    this.base = result.text;
    this.candidates = result.candidates;
    this.index = 0;
    this.c.view.completion.show(result.candidates.map((name) => ({ name, description: describeCandidate(name, this.c.commands) })));
    input.setText(this.withCandidate(this.candidates[0]!));
    return true;
  }

  /** A key while the menu is open: true when the menu took it; otherwise the menu closed and the key goes on. */
  key(name: Key): boolean {
    if (!this.open) return false;
    const action = this.actionOf(name);
    const input = this.c.view.input;
    switch (action) {
      case "next":
      case "previous":
        this.index = (this.index + (action === "next" ? 1 : -1) + this.candidates.length) % this.candidates.length;
        this.c.view.completion.select(this.index);
        input.setText(this.withCandidate(this.candidates[this.index]!));
        return true;
      case "accept":
        input.setText(this.withCandidate(this.candidates[this.index]!));
        this.close();
        return true;
      case "close":
        input.setText(this.base);
        this.close();
        return true;
      case undefined:
        this.close();
        return false;
    }
  }

  /** Closes the menu, leaving the input as it is (typed text, a paste, a click). */
  close(): void {
    if (this.open) this.c.view.completion.hide();
  }

  private actionOf(name: Key): MenuAction | undefined {
    const keymap = this.c.keymap;
    const input = keymap.lookup("input", name);
    const global = keymap.lookup("global", name);
    if (input === "complete" || input === "historyNext") return "next";
    if (global === "focusPrev" || input === "historyPrev") return "previous";
    if (input === "submit") return "accept";
    if (global === "abort") return "close";
    return undefined;
  }

  /** A command picked by completion: what it does (a prompt template's first line) in the status line. */
  private flashCandidate(candidate: string): void {
    const description = describeCandidate(candidate, this.c.commands);
    if (description) this.c.flash(`${candidate} · ${description}`, 6000);
  }

  /** The input with `candidate` in place of the word being completed (a command name gets its space). */
  private withCandidate(candidate: string): string {
    if (candidate.startsWith("/")) return `${candidate} `;
    return this.base.replace(/\S*$/, candidate);
  }
}
