// Finds stack traces in plain-text output, so a digest keeps each one whole instead of folding or
// cutting it: JavaScript (V8: "    at f (file:1:2)") and JVM frames ("\tat pkg.C.m(C.java:12)",
// "Caused by:", "... 12 more"), Python tracebacks, Go panics with their goroutine dumps, and Rust
// panics with or without a backtrace. One pass over the lines; fixed patterns, none of them
// backtracking on long lines.

export type TraceLanguage = "javascript" | "jvm" | "python" | "go" | "rust";

export interface TraceBlock {
  /** Index of the first line and one past the last. */
  start: number;
  end: number;
  language: TraceLanguage;
  /** The line that says what went wrong ("TypeError: x is undefined", "panic: boom"). */
  headline: string;
}

const FRAME = /^\s+at\s+(?:async\s+)?\S.*(?:\)|:\d+(?::\d+)?)\s*\{?$/;
const JVM_FRAME = /\((?:[\w$]+\.(?:java|kt|scala|groovy|clj):\d+|Native Method|Unknown Source)\)\s*$/;
const FRAME_CONTINUATION = /^\s*(?:\.\.\. \d+ (?:more|common frames omitted)|Caused by: |\[cause\]: |Suppressed: )/;
/** The line that names the error, a few lines above the first frame. */
const ERROR_HEADER = /(?:Error|Exception|Throwable|Failure)\b.*:|^\s*(?:Uncaught|Unhandled)\b|^Exception in thread /;
const HEADER_LOOKBACK = 3;
const MAX_OBJECT_LINES = 20;

const PYTHON_START = /^\s*Traceback \(most recent call last\):/;
const GO_START = /^(?:panic: |fatal error: )/;
const GO_LINE = /^(?:goroutine \d+ \[.*\]:|\[signal .*|created by .*|\t.*|[\w./-]+\(.*\)|exit status \d+|panic: .*)$/;
const GO_GOROUTINE = /^goroutine \d+ \[/;
const RUST_START = /^thread '.*' panicked at /;
const RUST_FRAME = /^\s+(?:\d+: |at )/;

/** The stack traces in `lines`, in order, never overlapping. */
export function findStackTraces(lines: readonly string[]): TraceBlock[] {
  const blocks: TraceBlock[] = [];
  let floor = 0;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const block = PYTHON_START.test(line)
      ? python(lines, i)
      : GO_START.test(line)
        ? go(lines, i)
        : RUST_START.test(line)
          ? rust(lines, i)
          : FRAME.test(line)
            ? framed(lines, i, floor)
            : undefined;
    if (block) {
      blocks.push(block);
      floor = block.end;
      i = block.end;
    } else {
      i++;
    }
  }
  return blocks;
}

/** V8 and JVM traces: the frames, the error line above them, and what continues them. */
function framed(lines: readonly string[], first: number, floor: number): TraceBlock {
  let start = first;
  for (let j = first - 1; j >= Math.max(floor, first - HEADER_LOOKBACK); j--) {
    const text = lines[j]!;
    if (text.trim() === "" || FRAME.test(text)) break;
    if (ERROR_HEADER.test(text)) {
      start = j;
      break;
    }
  }
  if (start === first && first > floor && lines[first - 1]!.trim() !== "" && !FRAME.test(lines[first - 1]!)) start = first - 1;
  let end = first;
  let jvm = false;
  while (end < lines.length) {
    const text = lines[end]!;
    if (FRAME.test(text)) {
      jvm ||= JVM_FRAME.test(text);
      end++;
      // Node prints an error's own properties after its last frame: "    at … {", "  code: 'X'", "}".
      if (text.trimEnd().endsWith("{")) {
        let close = end;
        while (close < lines.length && close - end < MAX_OBJECT_LINES && lines[close] !== "}") close++;
        if (lines[close] === "}") end = close + 1;
      }
    } else if (FRAME_CONTINUATION.test(text)) {
      end++;
    } else {
      break;
    }
  }
  const header = lines[start]!;
  return { start, end, language: jvm ? "jvm" : "javascript", headline: (start < first ? header : lines[first]!).trim() };
}

/** From "Traceback (most recent call last):" through the indented frames to the exception line. */
function python(lines: readonly string[], start: number): TraceBlock {
  let end = start + 1;
  while (end < lines.length && /^\s/.test(lines[end]!) && lines[end]!.trim() !== "") end++;
  if (end < lines.length && lines[end]!.trim() !== "") end++;
  return { start, end, language: "python", headline: lines[end - 1]!.trim() };
}

/** "panic: …" and the goroutine dump after it, up to two blank lines in a row or a line of something else. */
function go(lines: readonly string[], start: number): TraceBlock | undefined {
  let end = start + 1;
  let last = start;
  let blanks = 0;
  let goroutines = 0;
  while (end < lines.length && blanks < 2) {
    const text = lines[end]!;
    if (text.trim() === "") blanks++;
    else if (GO_LINE.test(text)) {
      blanks = 0;
      last = end;
      if (GO_GOROUTINE.test(text)) goroutines++;
    } else break;
    end++;
  }
  // A lone "panic: …" line without a goroutine dump is an error line, not a trace.
  if (goroutines === 0) return undefined;
  return { start, end: last + 1, language: "go", headline: lines[start]!.trim() };
}

/** "thread 'main' panicked at …", its message, the backtrace if any, and the notes after it. */
function rust(lines: readonly string[], start: number): TraceBlock {
  let end = start + 1;
  while (end < lines.length && end - start <= 10 && lines[end]!.trim() !== "" && !/^(?:note: |stack backtrace:)/.test(lines[end]!) && !RUST_START.test(lines[end]!)) end++;
  if (end < lines.length && lines[end]!.startsWith("stack backtrace:")) {
    end++;
    while (end < lines.length && RUST_FRAME.test(lines[end]!)) end++;
  }
  while (end < lines.length && lines[end]!.startsWith("note: ")) end++;
  const first = lines[start]!.trim();
  // The message is on the next line in Rust 1.73 and later ("panicked at src/main.rs:2:5:").
  const headline = first.endsWith(":") && start + 1 < end ? `${first} ${lines[start + 1]!.trim()}` : first;
  return { start, end, language: "rust", headline };
}
