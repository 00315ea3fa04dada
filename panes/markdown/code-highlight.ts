// Syntax highlighting of fenced code with cli-highlight, loaded on first use (it pulls in
// highlight.js, a tenth of a second and several MB) so it never delays the first frame. Until it
// has loaded, code is shown plain; the render generation then changes and the panes redraw. Long
// code is highlighted in a worker thread (background-highlight.ts), shown plain until it is done.
import { BackgroundHighlighter, SYNC_MAX_CHARS } from "./background-highlight.js";
import { TerminalTextLog } from "../text/terminal-text.js";
import { asUiColors, type StyledLine } from "../text/styled-text.js";
import { bumpRenderGeneration } from "./render-generation.js";
import { CODE_SGR } from "./theme.js";

type HighlightFn = (code: string, options: { language: string; ignoreIllegals: boolean; theme: Record<string, (s: string) => string> }) => string;

interface Loaded {
  highlight: HighlightFn;
  supportsLanguage(name: string): boolean;
}

let loaded: Loaded | undefined;
let loading: Promise<void> | undefined;

const THEME: Record<string, (s: string) => string> = Object.fromEntries(
  Object.entries(CODE_SGR).map(([k, code]) => [k, (s: string) => `\x1b[${code}m${s}\x1b[0m`]),
);

const background = new BackgroundHighlighter(CODE_SGR);

/** Resolves once the long code sent to the worker so far has been highlighted (tests wait on it). */
export function backgroundHighlightsDone(): Promise<void> {
  return background.settled();
}

/** Starts loading the highlighter (idempotent). */
export function loadHighlighter(): Promise<void> {
  loading ??= import("cli-highlight").then(
    (mod) => {
      const m = mod as unknown as Loaded & { default?: Loaded };
      loaded = typeof m.highlight === "function" ? m : m.default;
      bumpRenderGeneration();
    },
    () => {
      // Without the highlighter code stays plain; nothing else depends on it.
    },
  );
  return loading;
}

/** Lines of highlighted code, or undefined when the language is unknown or the highlighter not loaded yet. */
export function highlightCode(code: string, language: string | undefined): StyledLine[] | undefined {
  const lang = language?.trim().split(/\s+/)[0]?.toLowerCase();
  if (!lang) return undefined;
  if (!loaded) {
    void loadHighlighter();
    return undefined;
  }
  if (!loaded.supportsLanguage(lang)) return undefined;
  let out: string | null | undefined;
  if (code.length > SYNC_MAX_CHARS) {
    out = background.highlighted(code, lang);
  } else {
    try {
      out = loaded.highlight(code, { language: lang, ignoreIllegals: true, theme: THEME });
    } catch {
      out = undefined;
    }
  }
  if (typeof out !== "string") return undefined;
  // The theme's colours are pitwall's own: on a light terminal its yellow and cyan are drawn darker.
  return ansiToLines(out).map((line) => line.map((span) => ({ text: span.text, attr: asUiColors(span.attr) })));
}

/** Parses text with SGR colours into styled lines. */
export function ansiToLines(text: string): StyledLine[] {
  const log = new TerminalTextLog({ maxLines: Number.MAX_SAFE_INTEGER });
  log.write(text);
  const lines: StyledLine[] = [];
  for (let i = 0; i < log.lineCount; i++) lines.push(log.line(i) ?? []);
  if (text.endsWith("\n") || text === "") lines.push([]);
  return lines;
}
