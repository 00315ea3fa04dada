// The session file format: append-only JSON lines. A header line (id, time, cwd, model, provider,
// version), then one line per completed message, plus lines for model and thinking changes. Reading
// skips a torn last line (a crash mid-write) with a warning instead of failing.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Message, ThinkingLevel } from "./messages.js";

export interface SessionHeader {
  type: "session";
  version: 1;
  id: string;
  timestamp: string;
  cwd: string;
  provider: string;
  model: string;
  thinkingLevel: ThinkingLevel;
  pitwallVersion: string;
}

export type SessionLine =
  | SessionHeader
  | { type: "message"; message: Message }
  | { type: "model_change"; provider: string; model: string; timestamp: string }
  | { type: "thinking_change"; level: ThinkingLevel; timestamp: string };

export interface LoadedSession {
  path: string;
  header: SessionHeader;
  messages: Message[];
  /** The model and thinking level in force at the end of the file. */
  provider: string;
  model: string;
  thinkingLevel: ThinkingLevel;
  warnings: string[];
}

export class SessionFileError extends Error {}

/** `/home/me/project` → `--home-me-project--`. */
export function sessionFolderName(cwd: string): string {
  return `--${cwd.replace(/^[/\\]+/, "").replace(/[/\\:]+/g, "-")}--`;
}

export function sessionFolder(root: string, cwd: string): string {
  return join(root, sessionFolderName(cwd));
}

export function readSession(path: string): LoadedSession {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new SessionFileError(`Cannot open session ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
  }
  const lines = text.split("\n");
  const warnings: string[] = [];
  const parsed: SessionLine[] = [];
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    try {
      parsed.push(JSON.parse(line) as SessionLine);
    } catch {
      const last = i >= lines.length - 2;
      warnings.push(
        last
          ? `${path}: the last line was cut off (pitwall stopped mid-write); it was skipped.`
          : `${path}: line ${i + 1} is not valid JSON; it was skipped.`,
      );
    }
  });
  const header = parsed[0];
  if (!header || header.type !== "session") throw new SessionFileError(`${path} is not a pitwall session: its first line is not a session header.`);
  const loaded: LoadedSession = { path, header, messages: [], provider: header.provider, model: header.model, thinkingLevel: header.thinkingLevel, warnings };
  for (const line of parsed.slice(1)) {
    if (line.type === "message") loaded.messages.push(line.message);
    else if (line.type === "model_change") {
      loaded.provider = line.provider;
      loaded.model = line.model;
    } else if (line.type === "thinking_change") loaded.thinkingLevel = line.level;
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

/** Sessions of a working directory, newest first. Unreadable files are left out. */
export function listSessions(root: string, cwd: string): SessionSummary[] {
  const folder = sessionFolder(root, cwd);
  let names: string[];
  try {
    names = readdirSync(folder).filter((n) => n.endsWith(".jsonl"));
  } catch {
    return [];
  }
  const summaries: SessionSummary[] = [];
  for (const name of names) {
    const path = join(folder, name);
    try {
      const session = readSession(path);
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
