// The session file format: append-only JSON lines. A header line (id, time, cwd, model, provider,
// version), then one record per line: each completed message, model and thinking changes,
// compactions, the agent's file changes and moves of the current leaf, each with a short id of its
// own and the id of the record it follows (files from before ids existed get ids from their line
// numbers, session-ids.ts, and read as one branch: session-tree.ts). Every line is checked against its schema (session-schema.ts): a
// torn, damaged or hand-edited line, or a record type from a newer pitwall, is skipped with a warning
// naming its line number, never an error. Files are read streamed (session-load.ts).
// Sessions live in one folder per working directory; the folder name carries a hash of the exact
// path, so two directories never share one. Folders named the old way are still read.
import { createHash } from "node:crypto";
import { join } from "node:path";
import {
  headerValidator,
  isRecordType,
  recordValidators,
  SESSION_FORMAT_VERSION,
  type SessionHeader,
  type SessionRecord,
} from "./session-schema.js";

export type { SessionHeader, SessionLine, SessionRecord } from "./session-schema.js";

export type CompactionRecord = Extract<SessionRecord, { type: "compaction" }>;
export type FileChangeRecord = Extract<SessionRecord, { type: "file_change" }>;
export type LeafRecord = Extract<SessionRecord, { type: "leaf" }>;
export type FileState = FileChangeRecord["after"];

/** A record of a type this pitwall does not know, that still names its place in the tree. */
export interface OpaqueRecord {
  id: string;
  parentId: string | null | undefined;
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

/**
 * Checks a session file line by line, as it is streamed: the header first, then records, each
 * against its schema. Lines that cannot be used are skipped and remembered; `warnings()` sums them
 * up once the file has been read.
 */
/** Brings a record an older pitwall wrote to today's shape: a trigger the person set said "user". */
function upgradeRecord(value: unknown): void {
  const trigger = (value as { message?: { trigger?: { setBy?: unknown } } }).message?.trigger;
  if (typeof trigger === "object" && trigger !== null && trigger.setBy === "user") trigger.setBy = "person";
}

export class SessionLineChecker {
  header: SessionHeader | undefined;
  private readonly lineProblems: string[] = [];
  private readonly unknownTypes = new Map<string, number[]>();
  /** A line that did not parse: the file's torn tail if nothing follows it. */
  private unparsed: number | undefined;
  /**
   * Set when the line just checked was a record of an unknown type (from a newer pitwall) with an
   * id: it is skipped, but keeps its place in the tree so that what follows it stays connected.
   */
  opaque: OpaqueRecord | undefined;

  constructor(private readonly path: string) {}

  /** The record on this line, or undefined (the header, a blank line, a line skipped). Throws SessionFileError for a file that is not a session. */
  check(text: string, number: number): SessionRecord | undefined {
    this.opaque = undefined;
    if (!text.trim()) return undefined;
    if (this.unparsed !== undefined) this.lineProblems.push(`line ${this.unparsed} is not valid JSON (a write cut off mid-line?); it was skipped`);
    this.unparsed = undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.unparsed = number;
      return undefined;
    }
    if (this.header === undefined) {
      if (!headerValidator.check(value)) {
        throw new SessionFileError(`${this.path} is not a pitwall session: line ${number} should be its session header (${headerValidator.firstProblem(value)}).`);
      }
      this.header = value;
      return undefined;
    }
    const type = typeof value === "object" && value !== null && !Array.isArray(value) ? (value as { type?: unknown }).type : undefined;
    if (typeof type !== "string") {
      this.lineProblems.push(`line ${number} is ${describeType(value)}, not a session record; it was skipped`);
      return undefined;
    }
    if (!isRecordType(type)) {
      this.unknownTypes.set(type, [...(this.unknownTypes.get(type) ?? []), number]);
      const { id, parentId } = value as { id?: unknown; parentId?: unknown };
      if (typeof id === "string" && id) this.opaque = { id, parentId: typeof parentId === "string" || parentId === null ? parentId : undefined };
      return undefined;
    }
    const validator = recordValidators[type];
    if (type === "message") upgradeRecord(value);
    if (!validator.check(value)) {
      this.lineProblems.push(`line ${number}, a "${type}" record, has the wrong shape (${validator.firstProblem(value)}); it was skipped`);
      return undefined;
    }
    return value as SessionRecord;
  }

  /** After the last line: the header (or the error for a file without one) and the warnings. `endsWithNewline`: whether the file's last byte is a newline. */
  finish(endsWithNewline: boolean): { header: SessionHeader; warnings: string[] } {
    if (this.unparsed !== undefined) {
      this.lineProblems.push(
        endsWithNewline
          ? `line ${this.unparsed} is not valid JSON (a write cut off mid-line?); it was skipped`
          : `the last line (${this.unparsed}) was cut off (pitwall stopped mid-write); it was skipped`,
      );
    }
    const header = this.header;
    if (header === undefined) throw new SessionFileError(`${this.path} is not a pitwall session: it has no session header.`);
    const warnings: string[] = [];
    if (header.version > SESSION_FORMAT_VERSION) {
      warnings.push(
        `${this.path} was written by a newer pitwall (session format ${header.version}; this one reads ${SESSION_FORMAT_VERSION}). ` +
          `What this version does not understand is skipped; update pitwall to see all of it.`,
      );
    }
    const problems = this.lineProblems;
    for (const problem of problems.slice(0, MAX_LINE_WARNINGS)) warnings.push(`${this.path}: ${problem}.`);
    if (problems.length > MAX_LINE_WARNINGS) warnings.push(`${this.path}: ${problems.length - MAX_LINE_WARNINGS} more damaged lines were skipped.`);
    for (const [type, numbers] of this.unknownTypes) {
      const where = numbers.length === 1 ? `line ${numbers[0]}` : `lines ${numbers.slice(0, MAX_LINE_WARNINGS).join(", ")}${numbers.length > MAX_LINE_WARNINGS ? ", …" : ""}`;
      warnings.push(`${this.path}: ${where}: unknown record type "${type}" (from a newer pitwall?); skipped.`);
    }
    return { header, warnings };
  }
}
