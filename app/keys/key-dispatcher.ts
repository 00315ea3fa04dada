// Keys to actions: the overlay (when open) or the focused pane's context first, then the global
// one. Every action of every context has its handler in one table, typed from key-actions.ts, so
// an action without a handler does not compile. A handler that returns false lets the key fall
// through. Typed text goes to the input; typed in another pane, an unbound character moves the
// focus to the input and is typed there. Three states take keys before all that: the quit question
// (y/n), a job attached (everything goes to the job but the attached context's keys) and the
// one-line prompt (a new job's command, a watch trigger's pattern); before them, the completion
// menu above the input takes its own keys (slash-completion.ts).
import type { InputEvent } from "./key-decoder.js";
import type { FocusTarget } from "../../panes/dashboard-view.js";
import type { DashboardController } from "../dashboard-controller.js";
import type { ActionOf, KeyContext } from "./key-actions.js";
import { keyOfChar, knownKey, withoutAlt, type Key } from "./key.js";
import { SlashCompletion } from "./slash-completion.js";
import type { JobControl } from "../job-control.js";
import { fullView } from "../../panes/files/files-preview.js";
import type { TextBuffer } from "../../panes/input/text-buffer.js";

type Handler = () => boolean | void;

export type KeyHandlers = { [C in KeyContext]: Record<ActionOf<C>, Handler> };

/** The input's editing actions the one-line prompt shares. */
type TextEditAction = "left" | "right" | "lineStart" | "lineEnd" | "wordLeft" | "wordRight" | "backspace" | "deleteForward" | "deleteWordBack" | "deleteToLineStart" | "deleteToLineEnd";

const CONTEXT_OF: Record<FocusTarget, KeyContext> = {
  input: "input",
  chat: "chat",
  toolOutput: "tool-output",
  jobs: "jobs",
  files: "files",
};

export class KeyDispatcher {
  private readonly handlers: KeyHandlers;
  private readonly jobs: JobControl;
  /** Tab's completion and its menu above the input. */
  private readonly completion: SlashCompletion;

  constructor(
    private readonly c: DashboardController,
    private readonly requestFrame: () => void,
  ) {
    this.jobs = c.jobControl;
    this.completion = new SlashCompletion(c);
    this.handlers = this.buildHandlers();
  }

  /** Whether `action` of `context` has a handler (the keymap test asks it of every action). */
  handles(context: KeyContext, action: string): boolean {
    return typeof (this.handlers[context] as Record<string, Handler | undefined>)[action] === "function";
  }

  private buildHandlers(): KeyHandlers {
    const c = this.c;
    const v = c.view;
    const input = v.input;
    const b = input.buffer;
    const edit = (fn: () => void): Handler => () => {
      fn();
      input.history.reset();
    };
    return {
      global: {
        quit: () => c.quit(),
        clearOrQuit: () => c.interrupts.clearOrQuit(),
        abort: () => c.interrupts.escape(),
        help: () => c.commands.showHelp(),
        focusNext: () => v.cycleFocus(1),
        focusPrev: () => v.cycleFocus(-1),
        focusChat: () => v.setFocus("chat"),
        focusToolOutput: () => v.setFocus("toolOutput"),
        focusJobs: () => v.setFocus("jobs"),
        focusFiles: () => v.setFocus("files"),
        focusInput: () => v.setFocus("input"),
        zoom: () => v.toggleZoom(),
        toggleThinking: () => v.chat.toggleThinking(),
        selectPrevTool: () => v.chat.selectTool(-1),
        selectNextTool: () => v.chat.selectTool(1),
        chatPageUp: () => v.chat.page(-1),
        chatPageDown: () => v.chat.page(1),
        chatFollow: () => {
          v.followLiveTool();
          v.chat.toBottom();
        },
        dismissError: () => c.interrupts.dismissError(),
        redraw: () => c.redraw(),
        suspend: () => c.suspend(),
        editor: () => c.editInEditor(),
        agents: () => c.agents.openOverview(),
        nextAgent: () => c.agents.cycle(1),
        prevAgent: () => c.agents.cycle(-1),
      },
      input: {
        submit: () => c.sending.submitInput("enter"),
        followUp: () => c.sending.submitInput("followUp"),
        newline: edit(() => b.newline()),
        complete: () => this.completion.complete(),
        historyPrev: () => {
          if (!b.onFirstLine) return void b.up();
          if (b.isEmpty && !input.history.browsing && c.queue.takeBack()) return;
          const previous = input.history.previous(b.text);
          if (previous !== undefined) input.setText(previous);
        },
        historyNext: () => {
          if (!b.onLastLine) return void b.down();
          const next = input.history.next();
          if (next !== undefined) input.setText(next);
        },
        ...textEditing(b, edit),
        // A chip goes in one press.
        backspace: edit(() => input.backspace()),
      },
      chat: {
        scrollUp: () => v.chat.scrollBy(-1),
        scrollDown: () => v.chat.scrollBy(1),
        pageUp: () => v.chat.page(-1),
        pageDown: () => v.chat.page(1),
        top: () => v.chat.toTop(),
        bottom: () => {
          v.followLiveTool();
          v.chat.toBottom();
        },
        selectPrevTool: () => v.chat.selectTool(-1),
        selectNextTool: () => v.chat.selectTool(1),
        showTool: () => {
          if (v.chat.selectedToolId === undefined) return false;
          v.setFocus("toolOutput");
        },
        toggleThinking: () => v.chat.toggleThinking(),
        zoom: () => v.toggleZoom(),
      },
      "tool-output": {
        scrollUp: () => v.toolOutput.scrollBy(-1),
        scrollDown: () => v.toolOutput.scrollBy(1),
        pageUp: () => v.toolOutput.page(-1),
        pageDown: () => v.toolOutput.page(1),
        top: () => v.toolOutput.toTop(),
        // Held on an older call while a newer one runs: End goes to the live one.
        bottom: () => (v.toolOutput.newerCall ? v.followLiveTool() : v.toolOutput.toBottom()),
        zoom: () => v.toggleZoom(),
      },
      jobs: {
        up: () => v.jobs.move(-1),
        down: () => v.jobs.move(1),
        newJob: () => this.jobs.newJob(),
        kill: () => this.jobs.stop(v.jobs.selectedId, false),
        killHard: () => this.jobs.stop(v.jobs.selectedId, true),
        restart: () => this.jobs.restart(v.jobs.selectedId),
        restartProfile: () => this.jobs.restartProfilePicker(v.jobs.selectedId),
        start: () => this.jobs.start(v.jobs.selectedId),
        remove: () => this.jobs.remove(v.jobs.selectedId),
        attach: () => this.jobs.attach(v.jobs.selectedId),
        zoom: () => v.toggleZoom(),
        scrollUp: () => v.jobTerminal.scrollBy(-1),
        scrollDown: () => v.jobTerminal.scrollBy(1),
        pageUp: () => v.jobTerminal.page(-1),
        pageDown: () => v.jobTerminal.page(1),
        top: () => v.jobTerminal.toTop(),
        bottom: () => v.jobTerminal.toBottom(),
        copyScreen: () => this.jobs.copy(v.jobs.selectedId, "screen"),
        copyLog: () => this.jobs.copy(v.jobs.selectedId, "log"),
        watch: () => this.jobs.watchPrompt(v.jobs.selectedId),
        unwatch: () => this.jobs.unwatch(v.jobs.selectedId),
      },
      // While attached, only the keys of this context are pitwall's: every other key goes to the job.
      attached: {
        detach: () => this.jobs.detach(),
      },
      files: {
        up: () => v.files.move(-1),
        down: () => v.files.move(1),
        open: () => this.openFile(),
        toggleDiff: () => v.files.toggleDiff(),
        pageUp: () => v.files.pagePreview(-1),
        pageDown: () => v.files.pagePreview(1),
        zoom: () => v.toggleZoom(),
      },
      overlay: {
        close: () => (v.picker.open ? v.picker.cancel() : v.help.hide()),
        up: () => (v.picker.open ? v.picker.move(-1) : v.help.scrollBy(-1)),
        down: () => (v.picker.open ? v.picker.move(1) : v.help.scrollBy(1)),
        pageUp: () => (v.picker.open ? v.picker.move(-10) : v.help.page(-1)),
        pageDown: () => (v.picker.open ? v.picker.move(10) : v.help.page(1)),
        top: () => (v.picker.open ? v.picker.move(-1e9) : v.help.toTop()),
        bottom: () => (v.picker.open ? v.picker.move(1e9) : v.help.toBottom()),
        pick: () => (v.picker.open ? v.picker.pick() : false),
        agentSteer: () => (c.agents.overviewOpen ? c.agents.askMessage("steer") : false),
        agentFollowUp: () => (c.agents.overviewOpen ? c.agents.askMessage("followUp") : false),
        agentStop: () => (c.agents.overviewOpen ? c.agents.stopSelected() : false),
        agentNew: () => {
          if (!c.agents.overviewOpen) return false;
          v.picker.cancel();
          c.agents.newAgent(c.agents.agents?.freeName() ?? "agent2");
        },
      },
    };
  }

  /** Runs the action bound to `key` in `context`; false when nothing handled it. */
  private run<C extends KeyContext>(context: C, key: Key): boolean {
    const action = this.c.keymap.lookup(context, key);
    if (!action) return false;
    const handlers: Record<ActionOf<C>, Handler> = this.handlers[context];
    return handlers[action]() !== false;
  }

  /** Handles a key in the overlay, focused-pane and global contexts; true when handled. */
  key(name: Key): boolean {
    const v = this.c.view;
    if (v.overlayOpen) {
      // An overlay takes every key, except the ones that quit.
      if (!this.run("overlay", name)) {
        const global = this.c.keymap.lookup("global", name);
        if (global === "quit" || global === "clearOrQuit") this.run("global", name);
      }
      return true;
    }
    const context = CONTEXT_OF[v.focus];
    return this.run(context, name) || this.run("global", name);
  }

  handle(event: InputEvent): void {
    if (this.completion.open && this.menuTook(event)) {
      this.requestFrame();
      return;
    }
    if (this.takenBefore(event)) {
      this.requestFrame();
      return;
    }
    const v = this.c.view;
    switch (event.type) {
      case "key":
        if (!this.key(event.name) && event.name.length === 1 && !v.overlayOpen) this.typeText(event.name);
        break;
      case "text":
        if (v.overlayOpen) {
          for (const ch of event.text) this.key(keyOfChar(ch));
        } else if (v.focus === "input") {
          v.input.type(event.text);
          v.input.history.reset();
        } else {
          const chars = [...event.text];
          for (let i = 0; i < chars.length; i++) {
            const ch = chars[i]!;
            // A character typed before this one may have moved the focus to the input.
            if ((v.focus as FocusTarget) === "input") {
              v.input.type(chars.slice(i).join(""));
              break;
            }
            if (!this.key(keyOfChar(ch))) this.typeText(ch);
          }
        }
        break;
      case "paste":
        if (v.overlayOpen) break;
        v.setFocus("input");
        v.input.paste(event.text);
        break;
      case "mouse": {
        // A job in front that asked for the mouse takes it over its terminal.
        if (this.jobs.mouse.forward(event)) break;
        const target = v.paneAt(event.x, event.y);
        if (event.action === "wheelup" || event.action === "wheeldown") {
          const rows = event.action === "wheelup" ? -3 : 3;
          if (v.help.open) v.help.scrollBy(rows);
          else if (v.jobTerminal.contains(event.x, event.y)) v.jobTerminal.scrollBy(rows);
          else if (target === "chat") v.chat.scrollBy(rows);
          else if (target === "toolOutput") v.toolOutput.scrollBy(rows);
          else if (target === "jobs") v.jobs.move(Math.sign(rows));
          else if (target === "files") v.files.move(Math.sign(rows));
        } else if (event.action === "press" && target && !v.overlayOpen) v.setFocus(target);
        break;
      }
    }
    this.requestFrame();
  }

  /** The quit question, an attached job and the one-line prompt take input first; true when one did. */
  private takenBefore(event: InputEvent): boolean {
    const c = this.c;
    if (c.quitQuestion && (event.type === "key" || event.type === "text")) {
      const answer = event.type === "text" ? event.text.trim().toLowerCase() : event.name;
      const quitKey = event.type === "key" && ["quit", "clearOrQuit"].includes(c.keymap.lookup("global", event.name) ?? "");
      if (answer === "y" || quitKey) c.answerQuit("yes");
      else if (answer === "k") c.answerQuit("keep");
      else {
        c.answerQuit("no");
        // "n" and Esc only answer; any other key also does what it does.
        if (!(answer === "n" || answer === "escape")) return false;
      }
      return true;
    }
    if (this.jobs.attachMode.attachedId !== undefined) {
      if (event.type !== "mouse") this.attachedInput(event);
      // The mouse: the job's if it asked for it; otherwise only the wheel does something (it scrolls).
      else if (!this.jobs.mouse.forward(event) && event.action.startsWith("wheel")) return false;
      return true;
    }
    const prompt = c.view.prompt;
    if (prompt.open) {
      if (event.type === "text" || event.type === "paste") prompt.insert(event.text);
      else if (event.type === "key") this.promptKey(event.name);
      return true;
    }
    return false;
  }

  /** Input while attached: the attached context's keys (detach) are pitwall's, the rest go to the job. */
  private attachedInput(event: InputEvent): void {
    const attach = this.jobs.attachMode;
    if (event.type === "key") {
      if (this.run("attached", event.name)) return;
      // Esc and the detach key in one read (fast typing, SSH) decode as Alt+key: Esc is the job's, then detach.
      const plain = withoutAlt(event.name);
      if (plain !== undefined && this.c.keymap.lookup("attached", plain) !== undefined) {
        attach.forward({ type: "key", name: knownKey("escape") });
        this.run("attached", plain);
        return;
      }
    }
    if (event.type === "text") {
      // A key of the context bound to a character: what was typed before it still goes to the job.
      const chars = [...event.text];
      const at = chars.findIndex((ch) => this.c.keymap.lookup("attached", keyOfChar(ch)) !== undefined);
      if (at >= 0) {
        if (at > 0) attach.forward({ type: "text", text: chars.slice(0, at).join("") });
        this.run("attached", keyOfChar(chars[at]!));
        return;
      }
    }
    attach.forward(event);
  }

  /** A key in the one-line prompt: Enter answers it, Esc (or Ctrl+C) cancels, editing keys edit. */
  private promptKey(name: Key): void {
    const b = this.c.view.prompt.buffer;
    const global = this.c.keymap.lookup("global", name);
    const agents = this.c.agents.prompting ? this.c.agents : undefined;
    if (global === "abort" || global === "clearOrQuit") return agents ? agents.cancelPrompt() : this.jobs.cancelPrompt();
    const editing: Partial<Record<ActionOf<"input">, Handler>> = { submit: () => (agents ? agents.submitPrompt() : this.jobs.submitPrompt()), ...textEditing(b) };
    const action = this.c.keymap.lookup("input", name);
    const handler = action && editing[action];
    if (handler) handler();
    else if (name === "space") b.insert(" ");
    else if ([...name].length === 1) b.insert(name);
  }

  /** Enter in the files pane: the whole file, or its last diff, in the tool-output pane. */
  private openFile(): void {
    const v = this.c.view;
    const file = v.files.selected;
    if (!file) return;
    const mode = v.files.modeFor(file);
    const path = v.files.displayPath(file.path);
    void fullView(file, mode, v.files.preview.source).then((lines) => {
      const record = v.tools.addPersonal(mode === "diff" ? `last edit of ${path}` : `file ${path}`, { lines });
      v.toolOutput.select(record.id);
      this.requestFrame();
    });
  }

  private typeText(text: string): void {
    const v = this.c.view;
    v.setFocus("input");
    v.input.type(text);
  }

  /**
   * The completion menu's keys (next, previous, accept, close) while it is open; true when it took
   * the event. Anything else closes it (a wheel turn leaves it) and goes on as usual.
   */
  private menuTook(event: InputEvent): boolean {
    const v = this.c.view;
    if (v.overlayOpen || v.focus !== "input") {
      this.completion.close();
      return false;
    }
    if (event.type === "key") return this.completion.key(event.name);
    if (event.type !== "mouse" || event.action === "press") this.completion.close();
    return false;
  }
}

/** Cursor moves and deletions in a text buffer: the input's and the one-line prompt's. `edited` wraps the deletions. */
function textEditing(b: TextBuffer, edited: (fn: () => void) => Handler = (fn) => fn): Record<TextEditAction, Handler> {
  return {
    left: () => b.left(),
    right: () => b.right(),
    lineStart: () => b.home(),
    lineEnd: () => b.end(),
    wordLeft: () => b.wordLeft(),
    wordRight: () => b.wordRight(),
    backspace: edited(() => b.backspace()),
    deleteForward: edited(() => b.deleteForward()),
    deleteWordBack: edited(() => b.deleteWordBack()),
    deleteToLineStart: edited(() => b.deleteToLineStart()),
    deleteToLineEnd: edited(() => b.deleteToLineEnd()),
  };
}
