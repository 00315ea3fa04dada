// What the terminal pitwall runs in draws beyond xterm-256color's basics, for the job terminal's
// 24-bit colours and underline styles (cell-extras.ts): read from the environment at start, and
// for 24-bit colour also asked of the terminal itself (truecolorQuery), since COLORTERM is not
// passed on over SSH and xterm never sets it. Terminals that know neither are sent the 256-colour
// form and a plain underline: never a sequence they could misread.
import type { ExtraCapabilities } from "./cell-extras.js";

/** Terminals by name, as quirks are kept: data, not scattered ifs. */
interface KnownTerminal {
  truecolor: boolean;
  styledUnderline: boolean;
}

/** By TERM. */
const BY_TERM: Record<string, KnownTerminal> = {
  "xterm-kitty": { truecolor: true, styledUnderline: true },
  "xterm-ghostty": { truecolor: true, styledUnderline: true },
  wezterm: { truecolor: true, styledUnderline: true },
  foot: { truecolor: true, styledUnderline: true },
  "foot-extra": { truecolor: true, styledUnderline: true },
  contour: { truecolor: true, styledUnderline: true },
  alacritty: { truecolor: true, styledUnderline: false },
};

/** By TERM_PROGRAM. tmux takes both from programs and draws them as well as its own terminal can. */
const BY_PROGRAM: Record<string, KnownTerminal> = {
  tmux: { truecolor: true, styledUnderline: true },
  WezTerm: { truecolor: true, styledUnderline: true },
  ghostty: { truecolor: true, styledUnderline: true },
  "iTerm.app": { truecolor: true, styledUnderline: true },
  vscode: { truecolor: true, styledUnderline: true },
  mintty: { truecolor: true, styledUnderline: true },
};

const NONE: KnownTerminal = { truecolor: false, styledUnderline: false };

/** What the environment says the terminal draws. */
export function extraCapabilities(env: NodeJS.ProcessEnv = process.env): ExtraCapabilities {
  const term = (env.TERM ?? "").toLowerCase();
  if (term === "linux" || term === "dumb") return { ...NONE };
  const known = BY_TERM[term] ?? BY_PROGRAM[env.TERM_PROGRAM ?? ""] ?? (env.TMUX ? BY_PROGRAM.tmux! : NONE);
  const colorterm = (env.COLORTERM ?? "").toLowerCase();
  // VTE (GNOME Terminal, Tilix, …) draws curly underlines from 0.51.2 on, and sets COLORTERM.
  const vte = Number.parseInt(env.VTE_VERSION ?? "", 10);
  return {
    truecolor: known.truecolor || colorterm === "truecolor" || colorterm === "24bit" || term.endsWith("-direct") || env.WT_SESSION !== undefined || vte >= 3600,
    styledUnderline: known.styledUnderline || vte >= 5102,
  };
}

/**
 * The question that finds 24-bit colour where the environment does not say (DECRQSS: set a 24-bit
 * background, ask what the SGR state is, reset): a terminal that keeps the colour answers with it,
 * one that rounds it answers with a palette index, one that knows no DECRQSS says nothing.
 * Undefined when asking is pointless or unsafe: the answer is known, or the terminal (the Linux
 * console) would print the question.
 */
export function truecolorQuery(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const term = (env.TERM ?? "").toLowerCase();
  if (term === "linux" || term === "dumb" || term === "") return undefined;
  if (extraCapabilities(env).truecolor) return undefined;
  return "\x1b[0;48;2;1;2;3m\x1bP$qm\x1b\\\x1b[0m";
}

/** Whether a DECRQSS answer (the DCS body, from "1$r") shows the 24-bit background of truecolorQuery. */
export function answersTruecolor(reply: string): boolean {
  return /^1\$r(?:.*[;:])?48[:;]2[:;]+1[:;]2[:;]3(?![0-9])/.test(reply);
}
