// The session file format: append-only JSON lines. A header line (id, time, cwd, model, provider,
// version), then one line per completed message, plus lines for model and thinking changes. Every
// line is checked against its schema (session-schema.ts): a torn, damaged or hand-edited line, or a
// record type from a newer pitwall, is skipped with a warning naming its line number, never an error.
// Sessions live in one folder per working directory; the folder name carries a hash of the exact
// path, so two directories never share one. Folders named the old way are still read.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Message, ThinkingLevel } from "./messages.js";
import {
  headerValidator,
  isRecordType,
  recordValidators,
  SESSION_FORMAT_VERSION,
  type SessionHeader,
  type SessionRecord,
} from "./session-schema.js";

export type { SessionHeader, SessionLine, SessionRecord } from "./session-schema.js";

export interface LoadedSession {
  path: string;
  header: SessionHeader;
  messages: Message[];
  /** The records after the header that were read, in file order (what a copy of the session takes). */
  records: SessionRecord[];
  /** The model and thinking level in force at the end of the file. */
  provider: string;
  model: string;
  thinkingLevel: ThinkingLevel;
  warnings: string[];
}

export class SessionFileError extends Error {}

/** Warnings about single lines beyond this many are summed up in one. */
const MAX_LINE_WARNINGS = 10;

/** The old folder name, `/home/me/project` → `--home-me-project--`: `/a-b/c` and `/a/b-c` shared one. */
export function legacySessionFolderName(cwd: string): string {
  return `--${cwd.replace(/^[/\\]+/, "").replace(/[/\\:]+/g, "-")}--`;
}

/** `/home/me/project` → `--home-me-project--` and 8 hex digits of the path's SHA-256. */
export function sessionFolderName(cwd: string): string {
  return `${legacySessionFolderName(cwd)}${createHash("sha256").update(cwd).digest("hex").slice(0, 8)}`;
}

export function sessionFolder(root: string, cwd: string): string {
  return join(root, sessionFolderName(cwd));
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object without a \"type\"" : `a ${typeof value}`;
}

export function readSession(path: string): LoadedSession {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new SessionFileError(`Cannot open session ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
  }
  const lines = text.split("\n");
  let lastIndex = lines.length - 1;
  while (lastIndex >= 0 && lines[lastIndex]!.trim() === "") lastIndex--;
  const torn = !text.endsWith("\n") && lastIndex !== -1;
  const lineProblems: string[] = [];
  const unknownTypes = new Map<string, number[]>();
  let header: SessionHeader | undefined;
  const records: SessionRecord[] = [];

  lines.forEach((line, i) => {
    if (!line.trim()) return;
    const number = i + 1;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      lineProblems.push(
        torn && i === lastIndex
          ? `the last line (${number}) was cut off (pitwall stopped mid-write); it was skipped`
          : `line ${number} is not valid JSON (a write cut off mid-line?); it was skipped`,
      );
      return;
    }
    if (header === undefined) {
      if (!headerValidator.check(value)) {
        throw new SessionFileError(
          `${path} is not a pitwall session: line ${number} should be its session header (${headerValidator.firstProblem(value)}).`,
        );
      }
      header = value;
      return;
    }
    const type = typeof value === "object" && value !== null && !Array.isArray(value) ? (value as { type?: unknown }).type : undefined;
    if (typeof type !== "string") {
      lineProblems.push(`line ${number} is ${describeType(value)}, not a session record; it was skipped`);
      return;
    }
    if (!isRecordType(type)) {
      const seen = unknownTypes.get(type) ?? [];
      unknownTypes.set(type, [...seen, number]);
      return;
    }
    const validator = recordValidators[type];
    if (!validator.check(value)) {
      lineProblems.push(`line ${number}, a "${type}" record, has the wrong shape (${validator.firstProblem(value)}); it was skipped`);
      return;
    }
    records.push(value as SessionRecord);
  });

  if (header === undefined) throw new SessionFileError(`${path} is not a pitwall session: it has no session header.`);
  const warnings: string[] = [];
  if (header.version > SESSION_FORMAT_VERSION) {
    warnings.push(
      `${path} was written by a newer pitwall (session format ${header.version}; this one reads ${SESSION_FORMAT_VERSION}). ` +
        `What this version does not understand is skipped; update pitwall to see all of it.`,
    );
  }
  for (const problem of lineProblems.slice(0, MAX_LINE_WARNINGS)) warnings.push(`${path}: ${problem}.`);
  if (lineProblems.length > MAX_LINE_WARNINGS) warnings.push(`${path}: ${lineProblems.length - MAX_LINE_WARNINGS} more damaged lines were skipped.`);
  for (const [type, numbers] of unknownTypes) {
    const where = numbers.length === 1 ? `line ${numbers[0]}` : `lines ${numbers.slice(0, MAX_LINE_WARNINGS).join(", ")}${numbers.length > MAX_LINE_WARNINGS ? ", …" : ""}`;
    warnings.push(`${path}: ${where}: unknown record type "${type}" (from a newer pitwall?); skipped.`);
  }

  const loaded: LoadedSession = {
    path,
    header,
    messages: [],
    records,
    provider: header.provider,
    model: header.model,
    thinkingLevel: header.thinkingLevel,
    warnings,
  };
  for (const record of records) {
    if (record.type === "message") loaded.messages.push(record.message);
    else if (record.type === "model_change") {
      loaded.provider = record.provider;
      loaded.model = record.model;
    } else loaded.thinkingLevel = record.level;
  }
  return loaded;
}

export interface SessionSummary {
  path: string;
  modified: Date;
  firstPrompt: string;
  messageCount: number;
  /** Dollars, or null when no message had a known price. */
  cost: number | null;
}

function sessionFiles(folder: string): string[] {
  try {
    return readdirSync(folder)
      .filter((n) => n.endsWith(".jsonl"))
      .map((n) => join(folder, n));
  } catch {
    return [];
  }
}

/**
 * Sessions of a working directory, newest first: its folder's, and those in the old-style folder
 * whose header names this very directory. Unreadable files are left out.
 */
export function listSessions(root: string, cwd: string): SessionSummary[] {
  const paths = [...sessionFiles(sessionFolder(root, cwd)), ...sessionFiles(join(root, legacySessionFolderName(cwd)))];
  const summaries: SessionSummary[] = [];
  for (const path of paths) {
    try {
      const session = readSession(path);
      if (session.header.cwd !== cwd) continue;
      const first = session.messages.find((m) => m.role === "user" && (m.origin ?? "prompt") === "prompt");
      let cost: number | null = null;
      for (const m of session.messages) {
        if (m.role === "assistant" && m.usage.cost) cost = (cost ?? 0) + m.usage.cost.total;
      }
      summaries.push({
        path,
        modified: statSync(path).mtime,
        firstPrompt: first?.role === "user" ? first.content : "",
        messageCount: session.messages.length,
        cost,
      });
    } catch {
      // Not a session we can read: not offered.
    }
  }
  return summaries.sort((a, b) => b.modified.getTime() - a.modified.getTime() || b.path.localeCompare(a.path));
}
