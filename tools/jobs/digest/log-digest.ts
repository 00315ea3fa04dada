// A digest of many lines of a job's output, for the model: what went wrong first (errors, then
// warnings, each distinct one once with how often it occurred, stack traces whole), then the output
// itself with repeats folded ("… ×240"), runs of similar lines (progress, request logs) shown first
// and last, and each stack trace replaced by a pointer to it. Every line keeps its number in the
// job's log, so the raw text of any part can be fetched. Bounded by a character budget; pure.
import { foldLines, segmentLength, type Segment } from "./line-folding.js";
import { lineKind, similarityKey, type LineKind } from "./line-kinds.js";
import { findStackTraces, type TraceBlock } from "./stack-traces.js";

export interface DigestOptions {
  /** The log line number of lines[0]. */
  firstLine: number;
  /** The digest's size limit in characters (the job tools' output cap). */
  maxChars: number;
}

export interface DigestStats {
  lines: number;
  chars: number;
  errors: number;
  warnings: number;
  traces: number;
  /** Lines that folding took out (repeats, similar runs). */
  folded: number;
}

export interface LogDigest {
  text: string;
  stats: DigestStats;
  /** Part of the problems or the folded output did not fit the budget. */
  truncated: boolean;
}

/** A distinct problem: its first occurrence, how often it occurred, and where else. */
interface Problem {
  kind: LineKind;
  first: number;
  count: number;
  others: number[];
  trace?: TraceBlock;
}

/** A row of the folded output and the log lines it stands for. */
interface Row {
  text: string;
  from: number;
  to: number;
}

const SHOWN_OTHERS = 3;
/** A longer trace keeps its start and end. */
const MAX_TRACE_ROWS = 120;
/** A line longer than this is cut in the digest. */
const MAX_DIGEST_LINE_CHARS = 500;
/** The part of the budget problems may take when there are many. */
const PROBLEMS_SHARE = 0.5;

function cut(text: string): string {
  return text.length <= MAX_DIGEST_LINE_CHARS ? text : `${text.slice(0, MAX_DIGEST_LINE_CHARS - 1)}… [${text.length} chars]`;
}

function plural(n: number, word: string): string {
  return `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;
}

export function buildDigest(lines: readonly string[], options: DigestOptions): LogDigest {
  const { firstLine } = options;
  const number = (i: number): number => firstLine + i;
  const width = String(number(Math.max(0, lines.length - 1))).length;
  const numbered = (i: number, text: string): string => `${String(number(i)).padStart(width)} | ${cut(text)}`;
  const note = (text: string): string => `${" ".repeat(width)} | ${text}`;
  const keys: Array<string | undefined> = [];
  const key = (i: number): string => (keys[i] ??= similarityKey(lines[i]!));

  const traces = findStackTraces(lines);
  const problems = collectProblems(lines, traces, key);
  const { rows, folded } = foldedRows(lines, traces, key, numbered, note, number);

  const stats: DigestStats = {
    lines: lines.length,
    chars: lines.reduce((sum, l) => sum + l.length + 1, 0),
    errors: problems.filter((p) => p.kind === "error").reduce((sum, p) => sum + p.count, 0),
    warnings: problems.filter((p) => p.kind === "warning").reduce((sum, p) => sum + p.count, 0),
    traces: traces.length,
    folded,
  };
  const last = number(lines.length - 1);
  const header =
    `Digest of lines ${firstLine}–${last} (${plural(stats.lines, "line")}, ${plural(stats.chars, "character")}): ` +
    `${plural(stats.errors, "error line")}, ${plural(stats.warnings, "warning")}, ${plural(stats.traces, "stack trace")}; ${plural(folded, "repeated or similar line")} folded.`;

  const budget = Math.max(200, options.maxChars - header.length - 1);
  const problemText = problems.map((p) => ({ rows: problemRows(p, lines, numbered, number), line: number(p.first) }));
  const problemsTitle = problems.length ? "Problems (errors first, then warnings; each once, with how often it occurred):" : "No errors or warnings found.";
  const problemsFit = fitProblems(problemText, Math.floor(budget * PROBLEMS_SHARE), budget - problemsTitle.length - 40, rows);
  const bodyTitle = "Output, folded (\"… ×N\": the line above repeated; a stack trace is one line here, whole under Problems):";
  const bodyBudget = budget - problemsTitle.length - 1 - problemsFit.chars - bodyTitle.length - 1;
  const body = fitRows(rows, bodyBudget, note);
  const text = [header, problemsTitle, ...problemsFit.rows, bodyTitle, ...body.rows].join("\n");
  return { text, stats, truncated: problemsFit.truncated || body.truncated };
}

function collectProblems(lines: readonly string[], traces: readonly TraceBlock[], key: (i: number) => string): Problem[] {
  const byKey = new Map<string, Problem>();
  const note = (groupKey: string, kind: LineKind, index: number, trace?: TraceBlock): void => {
    const known = byKey.get(groupKey);
    if (known) {
      known.count++;
      if (known.others.length < SHOWN_OTHERS) known.others.push(index);
      return;
    }
    byKey.set(groupKey, { kind, first: index, count: 1, others: [], ...(trace ? { trace } : {}) });
  };
  let t = 0;
  for (let i = 0; i < lines.length; i++) {
    const trace = traces[t];
    if (trace && i === trace.start) {
      const firstFrame = trace.start + 1 < trace.end ? key(trace.start + 1) : "";
      note(`trace|${similarityKey(trace.headline)}|${firstFrame}`, "error", i, trace);
      i = trace.end - 1;
      t++;
      continue;
    }
    const kind = lineKind(lines[i]!);
    if (kind) note(`${kind}|${key(i)}`, kind, i);
  }
  const all = [...byKey.values()];
  return [...all.filter((p) => p.kind === "error"), ...all.filter((p) => p.kind === "warning")];
}

/** "✗ line 5012 (×3; also 6001, 7020, …):" and the line, or the whole trace under it. */
function problemRows(problem: Problem, lines: readonly string[], numbered: (i: number, text: string) => string, number: (i: number) => number): string[] {
  const mark = problem.kind === "error" ? "✗" : "!";
  const more = problem.count > 1 + problem.others.length ? ", …" : "";
  const also = problem.others.length ? `; also ${problem.others.map(number).join(", ")}${more}` : "";
  const times = problem.count > 1 ? ` (×${problem.count}${also})` : "";
  const trace = problem.trace;
  if (!trace) return [`${mark} line ${number(problem.first)}${times}: ${cut(lines[problem.first]!)}`];
  const rows: string[] = [`${mark} line ${number(trace.start)}${times}: stack trace (${trace.language}), lines ${number(trace.start)}–${number(trace.end - 1)}:`];
  // Recursion repeats frames: identical ones fold, every distinct frame stays.
  const segments = foldLines(lines, trace.start, trace.end, { similar: false, key: () => "" });
  const traceRows: string[] = [];
  for (const segment of segments) traceRows.push(...segmentRows(segment, lines, (i, text) => `    ${numbered(i, text)}`, (text) => `    ${" ".repeat(String(number(trace.end - 1)).length)} | ${text}`, number));
  if (traceRows.length > MAX_TRACE_ROWS) {
    const head = traceRows.slice(0, MAX_TRACE_ROWS - 40);
    const tail = traceRows.slice(-39);
    rows.push(...head, `    … ${traceRows.length - head.length - tail.length} more lines of this trace …`, ...tail);
  } else {
    rows.push(...traceRows);
  }
  return rows;
}

/** The folded output: every line outside a trace, folded; a trace as one pointer row. */
function foldedRows(
  lines: readonly string[],
  traces: readonly TraceBlock[],
  key: (i: number) => string,
  numbered: (i: number, text: string) => string,
  note: (text: string) => string,
  number: (i: number) => number,
): { rows: Row[]; folded: number } {
  const rows: Row[] = [];
  let folded = 0;
  let at = 0;
  const foldSpan = (from: number, to: number): void => {
    for (const segment of foldLines(lines, from, to, { similar: true, key })) {
      const start = segment.kind === "similar" ? segment.from : segment.index;
      const length = segmentLength(segment);
      const texts = segmentRows(segment, lines, numbered, note, number);
      folded += length - (segment.kind === "line" ? 1 : segment.kind === "similar" ? 2 : segment.kind === "block" ? segment.period : 1);
      for (const text of texts) rows.push({ text, from: number(start), to: number(start + length - 1) });
    }
  };
  for (const trace of traces) {
    foldSpan(at, trace.start);
    rows.push({ text: numbered(trace.start, `[stack trace, lines ${number(trace.start)}–${number(trace.end - 1)}: ${trace.headline}]`), from: number(trace.start), to: number(trace.end - 1) });
    at = trace.end;
  }
  foldSpan(at, lines.length);
  return { rows, folded };
}

function segmentRows(
  segment: Segment,
  lines: readonly string[],
  numbered: (i: number, text: string) => string,
  note: (text: string) => string,
  number: (i: number) => number,
): string[] {
  switch (segment.kind) {
    case "line":
      return [numbered(segment.index, lines[segment.index]!)];
    case "repeat":
      return [
        numbered(segment.index, lines[segment.index]!),
        note(`… ×${segment.count.toLocaleString("en-US")} (lines ${number(segment.index)}–${number(segment.index + segment.count - 1)})`),
      ];
    case "block": {
      const block = Array.from({ length: segment.period }, (_, k) => numbered(segment.index + k, lines[segment.index + k]!));
      const end = segment.index + segment.period * segment.reps - 1;
      return [...block, note(`… these ${segment.period} lines ×${segment.reps.toLocaleString("en-US")} (lines ${number(segment.index)}–${number(end)})`)];
    }
    case "similar": {
      const between = segment.to - segment.from - 1;
      return [
        numbered(segment.from, lines[segment.from]!),
        note(`… ${plural(between, "similar line")} (${number(segment.from + 1)}–${number(segment.to - 1)})`),
        numbered(segment.to, lines[segment.to]!),
      ];
    }
  }
}

/**
 * As many whole problems as fit: all of them when the folded output leaves room, else at least the
 * problems' share of the budget, taken from the start and from the end (a run's summary comes
 * last), with a count of the ones in between.
 */
function fitProblems(problems: ReadonlyArray<{ rows: string[]; line: number }>, share: number, all: number, rows: readonly Row[]): { rows: string[]; chars: number; truncated: boolean } {
  const size = (entry: readonly string[]): number => entry.reduce((sum, row) => sum + row.length + 1, 0);
  const total = problems.reduce((sum, p) => sum + size(p.rows), 0);
  const bodyChars = rows.reduce((sum, r) => sum + r.text.length + 1, 0);
  const budget = Math.max(share, all - bodyChars);
  if (total <= budget) return { rows: problems.flatMap((p) => p.rows), chars: total, truncated: false };
  const fit = (entry: readonly string[]): string[] => (size(entry) > budget / 2 ? trimEntry(entry, Math.floor(budget / 2)) : [...entry]);
  const head: string[][] = [];
  const tail: string[][] = [];
  let used = 0;
  let front = 0;
  for (; front < problems.length; front++) {
    const entry = fit(problems[front]!.rows);
    if (used + size(entry) > (budget * 2) / 3) break;
    head.push(entry);
    used += size(entry);
  }
  let back = problems.length - 1;
  for (; back >= front; back--) {
    const entry = fit(problems[back]!.rows);
    if (used + size(entry) > budget - 80) break;
    tail.unshift(entry);
    used += size(entry);
  }
  const left = problems.slice(front, back + 1).map((p) => p.line);
  const where = left.length ? (left.length === 1 ? `line ${left[0]}` : `first lines ${left.slice(0, 6).join(", ")}${left.length > 6 ? ", …" : ""}`) : "";
  const out = [...head.flat(), ...(left.length ? [`… ${plural(left.length, "more problem")} not shown (${where}): read them raw with get_process_log …`] : []), ...tail.flat()];
  return { rows: out, chars: out.reduce((sum, r) => sum + r.length + 1, 0), truncated: true };
}

/** A trace too long for its share keeps its first and last rows. */
function trimEntry(entry: readonly string[], budget: number): string[] {
  const head: string[] = [];
  const tail: string[] = [];
  let used = 60;
  for (let i = 0, j = entry.length - 1; i <= j; ) {
    const front = head.length <= tail.length * 2;
    const row = front ? entry[i]! : entry[j]!;
    if (used + row.length + 1 > budget) break;
    used += row.length + 1;
    if (front) head.push(entry[i++]!);
    else tail.unshift(entry[j--]!);
  }
  return [...head, `    … ${entry.length - head.length - tail.length} lines of this trace left out …`, ...tail];
}

/** The folded rows within the budget: head and tail kept, and which log lines the cut covers. */
function fitRows(rows: readonly Row[], budget: number, note: (text: string) => string): { rows: string[]; truncated: boolean } {
  const size = (r: Row): number => r.text.length + 1;
  const total = rows.reduce((sum, r) => sum + size(r), 0);
  if (total <= budget) return { rows: rows.map((r) => r.text), truncated: false };
  const headBudget = Math.floor(Math.max(0, budget - 120) * 0.4);
  const tailBudget = Math.max(0, budget - 120) - headBudget;
  let used = 0;
  let head = 0;
  while (head < rows.length && used + size(rows[head]!) <= headBudget) used += size(rows[head++]!);
  used = 0;
  let tail = rows.length;
  while (tail > head && used + size(rows[tail - 1]!) <= tailBudget) used += size(rows[--tail]!);
  // Rows of one folded segment share their range: never cut between them.
  while (head > 0 && head < rows.length && rows[head]!.from === rows[head - 1]!.from) head--;
  while (tail < rows.length && tail > head && rows[tail]!.from === rows[tail - 1]!.from) tail++;
  const from = rows[head]?.from ?? 0;
  const to = rows[tail - 1]?.to ?? from;
  const marker = note(`… [lines ${from}–${to} of the output left out here to fit ${budget} characters: read them raw with get_process_log, offset ${from}]`);
  return { rows: [...rows.slice(0, head).map((r) => r.text), marker, ...rows.slice(tail).map((r) => r.text)], truncated: true };
}
