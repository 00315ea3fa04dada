// Runs the real pitwall CLI in a pseudo-terminal of a fixed size and feeds what it draws into a
// headless xterm, so tests (and the bench) read the screen a person would see and type the bytes
// a terminal would send. Everything waits on conditions, never on fixed sleeps.
import { reapJobHosts } from "./job-hosts.js";
import { existsSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import xtermHeadless from "@xterm/headless";
import unicode11 from "@xterm/addon-unicode11";
import * as pty from "node-pty";
import { tempDir } from "./temp-dir.js";

const here = dirname(fileURLToPath(import.meta.url));

/** The bundled CLI (what `pitwall` runs), whether this file runs from test/helpers or dist/test/helpers. */
export function cliPath(): string {
  const dist = here.includes(`${sep}dist${sep}`) ? resolve(here, "../..") : resolve(here, "../../dist");
  const path = join(dist, "bundle", "cli.cjs");
  if (!existsSync(path)) throw new Error(`The compiled CLI is missing (${path}): run \`npm run build\` first.`);
  return path;
}

/** Byte sequences a terminal sends for named keys. */
export const KEYS: Record<string, string> = {
  Enter: "\r",
  Escape: "\x1b",
  Tab: "\t",
  "Shift+Tab": "\x1b[Z",
  Backspace: "\x7f",
  Delete: "\x1b[3~",
  Up: "\x1b[A",
  Down: "\x1b[B",
  Right: "\x1b[C",
  Left: "\x1b[D",
  Home: "\x1b[H",
  End: "\x1b[F",
  PageUp: "\x1b[5~",
  PageDown: "\x1b[6~",
  F1: "\x1bOP",
  F2: "\x1bOQ",
  "Shift+Enter": "\x1b[13;2u",
  "Alt+Enter": "\x1b\r",
  "Alt+Up": "\x1b[1;3A",
  "Alt+Down": "\x1b[1;3B",
  "Alt+Z": "\x1bz",
  "Alt+0": "\x1b0",
  "Alt+1": "\x1b1",
  "Alt+2": "\x1b2",
  "Alt+3": "\x1b3",
  "Alt+4": "\x1b4",
  "Alt+T": "\x1bt",
  "Alt+A": "\x1ba",
  "Alt+.": "\x1b.",
  "Alt+,": "\x1b,",
  "Ctrl+C": "\x03",
  "Ctrl+D": "\x04",
  "Ctrl+J": "\n",
  "Ctrl+U": "\x15",
  "Ctrl+X": "\x18",
  "Ctrl+]": "\x1d",
  "Ctrl+L": "\x0c",
  "Ctrl+Z": "\x1a",
  "Ctrl+G": "\x07",
  /** What a terminal with focus reporting on (DECSET 1004) sends when it gains or loses focus. */
  "Focus in": "\x1b[I",
  "Focus out": "\x1b[O",
  F12: "\x1b[24~",
};

/**
 * A sentence as a pane shows it: wrapped at any of its spaces, where the rest goes on in the next
 * row after the pane's border and the continuation indent. For waitForText.
 */
export function wrapped(text: string): RegExp {
  const words = text.trim().split(/\s+/).map((w) => w.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"));
  return new RegExp(words.join("[\\s│]+"));
}

export interface TerminalOptions {
  cols?: number;
  rows?: number;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** Folder used as PITWALL_HOME (a fresh temporary one by default, removed on close). */
  home?: string;
  /**
   * Start pitwall from an interactive shell with job control (bash -i) instead of directly, as a
   * person does: Ctrl+Z and fg then work (a process nobody could continue is never stopped).
   */
  viaShell?: boolean;
  /** Shell commands run before pitwall is exec'ed in their place (same pid), e.g. `ulimit -S -c unlimited`. */
  beforeExec?: string;
  /** pitwall's stderr goes to this file instead of the terminal (where a closed terminal would lose it). */
  stderrFile?: string;
}

function shellQuote(word: string): string {
  return `'${word.replace(/'/g, "'\\''")}'`;
}

export class PitwallTerminal {
  readonly terminal: InstanceType<typeof xtermHeadless.Terminal>;
  readonly proc: pty.IPty;
  readonly home: string;
  private readonly ownHome: boolean;
  private parsed: Promise<void> = Promise.resolve();
  private exitCode: number | undefined;
  /** The signal that ended the process, if one did (node-pty reports 0 for none). */
  exitSignal: number | undefined;
  private readonly exited: Promise<number>;
  /** Time (performance.now) each chunk of output arrived, with the chunk. */
  readonly chunks: Array<{ at: number; data: string }> = [];
  rawOutput = "";
  private readonly listeners = new Set<() => void>();
  /** False while the emulator has parsed the start of a synchronized frame but not its end. */
  private frameComplete = true;
  private rawInFrame = false;
  private readonly viaShell: boolean;

  constructor(options: TerminalOptions = {}) {
    const cols = options.cols ?? 120;
    const rows = options.rows ?? 40;
    this.viaShell = options.viaShell ?? false;
    this.home = options.home ?? tempDir("home");
    this.ownHome = options.home === undefined;
    this.terminal = new xtermHeadless.Terminal({ cols, rows, allowProposedApi: true, scrollback: 0 });
    this.terminal.loadAddon(new unicode11.Unicode11Addon());
    this.terminal.unicode.activeVersion = "11";
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: this.home,
      // The test file's own temp folder (helpers/setup.ts): what the CLI leaves there is removed with it.
      ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
      TERM: "xterm-256color",
      LANG: "C.UTF-8",
      PITWALL_HOME: this.home,
      PITWALL_RETRY_BASE_MS: "5",
      ...options.env,
    };
    // node-pty sets TERM to `name`: a test's TERM (TERM=linux) must be the name.
    const spawnOptions = { name: env.TERM ?? "xterm-256color", cols, rows, cwd: options.cwd ?? this.home, env };
    const command = [process.execPath, cliPath(), ...(options.args ?? [])];
    if (options.viaShell) {
      this.proc = pty.spawn("/bin/bash", ["--norc", "--noprofile", "-i"], { ...spawnOptions, env: { ...env, PS1: "shell$ " } });
      this.proc.write(`${command.map(shellQuote).join(" ")}\r`);
    } else if (options.beforeExec !== undefined || options.stderrFile !== undefined) {
      const redirect = options.stderrFile === undefined ? "" : ` 2>>${shellQuote(options.stderrFile)}`;
      this.proc = pty.spawn("/bin/sh", ["-c", `${options.beforeExec ?? ":"}; exec ${command.map(shellQuote).join(" ")}${redirect}`], spawnOptions);
    } else {
      this.proc = pty.spawn(command[0]!, command.slice(1), spawnOptions);
    }
    this.proc.onData((data) => {
      const at = performance.now();
      this.chunks.push({ at, data });
      if (this.chunks.length > 5000) this.chunks.shift();
      this.rawOutput += data;
      if (this.rawOutput.length > 4_000_000) this.rawOutput = this.rawOutput.slice(-2_000_000);
      // pitwall wraps each frame in synchronized output; the screen is read only between frames,
      // as a terminal supporting DEC 2026 would show it.
      const start = data.lastIndexOf("\x1b[?2026h");
      const end = data.lastIndexOf("\x1b[?2026l");
      if (start > end) this.rawInFrame = true;
      else if (end > start) this.rawInFrame = false;
      const inFrame = this.rawInFrame;
      this.parsed = this.parsed.then(
        () =>
          new Promise<void>((resolve) =>
            this.terminal.write(data, () => {
              this.frameComplete = !inFrame;
              resolve();
              if (this.frameComplete) for (const l of this.listeners) l();
            }),
          ),
      );
    });
    this.exited = new Promise((resolve) => {
      this.proc.onExit(({ exitCode, signal }) => {
        this.exitCode = exitCode;
        this.exitSignal = signal;
        resolve(exitCode);
        for (const l of this.listeners) l();
      });
    });
  }

  get pid(): number {
    return this.proc.pid;
  }

  get hasExited(): boolean {
    return this.exitCode !== undefined;
  }

  /** The screen as text, one line per row (right-trimmed). */
  screenText(): string {
    const buffer = this.terminal.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < this.terminal.rows; y++) lines.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? "");
    return lines.join("\n");
  }

  /** Calls back after each parsed chunk (and on exit). */
  onUpdate(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves when the screen shows the text (or matches the pattern). */
  async waitForText(match: string | RegExp, timeoutMs = 15_000): Promise<string> {
    return this.waitFor(() => {
      const text = this.screenText();
      return (typeof match === "string" ? text.includes(match) : match.test(text)) ? text : undefined;
    }, timeoutMs, `the screen to show ${String(match)}`);
  }

  async waitForNoText(match: string | RegExp, timeoutMs = 15_000): Promise<string> {
    return this.waitFor(() => {
      const text = this.screenText();
      return (typeof match === "string" ? text.includes(match) : match.test(text)) ? undefined : text;
    }, timeoutMs, `the screen to stop showing ${String(match)}`);
  }

  /** Resolves with the first truthy value of `check`, evaluated after each screen update. */
  waitFor<T>(check: () => T | undefined | false, timeoutMs: number, what: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const attempt = (): boolean => {
        if (!this.frameComplete && !this.hasExited) return false;
        const value = check();
        if (value) {
          cleanup();
          resolve(value);
          return true;
        }
        return false;
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}. Screen:\n${this.screenText()}`));
      }, timeoutMs);
      const poll = setInterval(attempt, 50);
      const off = this.onUpdate(() => void attempt());
      const cleanup = (): void => {
        clearTimeout(timer);
        clearInterval(poll);
        off();
      };
      attempt();
    });
  }

  /** The first cell showing `text` (searched row by row): where it is and its colours. */
  findCell(text: string | RegExp): { x: number; y: number; fg: number; bg: number; bold: boolean; fgRgb: boolean } | undefined {
    const buffer = this.terminal.buffer.active;
    for (let y = 0; y < this.terminal.rows; y++) {
      const line = buffer.getLine(buffer.viewportY + y);
      if (!line) continue;
      const row = line.translateToString();
      const at = typeof text === "string" ? row.indexOf(text) : row.search(text);
      if (at < 0) continue;
      // translateToString drops the empty right halves of wide characters: map the string index to a column.
      let col = 0;
      for (let i = 0; col < this.terminal.cols; col++) {
        const cell = line.getCell(col)!;
        if (cell.getWidth() === 0) continue;
        if (i >= at) break;
        i += cell.getChars().length || 1;
      }
      const cell = line.getCell(col)!;
      return { x: col, y, fg: cell.getFgColor(), bg: cell.getBgColor(), bold: cell.isBold() !== 0, fgRgb: cell.isFgRGB() };
    }
    return undefined;
  }

  type(text: string): void {
    this.proc.write(text);
  }

  press(key: string): void {
    const seq = KEYS[key];
    if (seq === undefined) throw new Error(`unknown key ${key} (known: ${Object.keys(KEYS).join(", ")})`);
    this.proc.write(seq);
  }

  resize(cols: number, rows: number): void {
    this.proc.resize(cols, rows);
    this.terminal.resize(cols, rows);
  }

  /** Closes the terminal as a closed window or `tmux kill-session` does: the kernel hangs it up. */
  hangUp(): void {
    (this.proc as unknown as { destroy(): void }).destroy();
  }

  /** Resolves with the exit code once the process ends. */
  waitForExit(timeoutMs = 15_000): Promise<number> {
    return Promise.race([
      this.exited,
      new Promise<number>((_, reject) => setTimeout(() => reject(new Error(`pitwall did not exit within ${timeoutMs} ms. Screen:\n${this.screenText()}`)), timeoutMs).unref()),
    ]);
  }

  /** Ends the process group (TERM, then KILL) and waits for it. A temporary home goes with the temp-dir fixture. */
  async close(): Promise<void> {
    if (!this.hasExited) {
      try {
        // An interactive shell ignores TERM; on HUP it hangs up its jobs (pitwall) and exits.
        process.kill(-this.proc.pid, this.viaShell ? "SIGHUP" : "SIGTERM");
      } catch {
        // Already gone.
      }
      const done = await Promise.race([this.exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 5000).unref())]);
      if (!done) {
        try {
          process.kill(-this.proc.pid, "SIGKILL");
        } catch {
          // Already gone.
        }
        await Promise.race([this.exited, new Promise((r) => setTimeout(r, 5000).unref())]);
      }
    }
    // A closed terminal leaves the dashboard's jobs to the job host (as a person's closed window
    // does): a home of its own is nobody else's, so its hosts end with it.
    if (this.ownHome) reapJobHosts(this.home);
    this.terminal.dispose();
  }
}
