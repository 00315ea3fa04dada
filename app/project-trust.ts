// Whether the person trusts a project's own skills and prompt templates: remembered per project
// folder in ~/.pitwall/trust.json ({"projects": {"/path": {"trusted": true, "at": "…"}}}), written
// atomically and readable only by its owner. The dashboard asks once per project that has any;
// print and JSON modes take --trust-project or the remembered choice. A damaged file counts as no
// choice made (a warning says so), never as trust.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export type TrustChoice = "trusted" | "untrusted" | "unknown";

export interface TrustFile {
  path: string;
  /** The remembered choice for `project`. */
  choice(project: string): TrustChoice;
  /** Remembers a choice; throws with a message for the person when the file cannot be written. */
  remember(project: string, trusted: boolean): void;
  /** What was wrong with the file, if anything (read as no choice made). */
  warning: string | undefined;
}

interface Stored {
  projects: Record<string, { trusted: boolean; at?: string }>;
}

export function trustFile(home: string): TrustFile {
  const path = join(home, "trust.json");
  const { stored, warning } = read(path);
  return {
    path,
    warning,
    choice(project) {
      const entry = stored.projects[project];
      return entry === undefined ? "unknown" : entry.trusted ? "trusted" : "untrusted";
    },
    remember(project, trusted) {
      // Read again: another pitwall may have remembered another project meanwhile.
      const { stored: current, warning: damaged } = read(path);
      // A file that cannot be read is left for the person to fix, not overwritten.
      if (damaged) throw new Error(`${damaged} Your choice holds for this run only.`);
      current.projects[project] = { trusted, at: new Date().toISOString() };
      stored.projects[project] = current.projects[project];
      try {
        mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
        const temporary = `${path}.${process.pid}.tmp`;
        writeFileSync(temporary, `${JSON.stringify(current, null, 2)}\n`, { mode: 0o600 });
        renameSync(temporary, path);
      } catch (error) {
        throw new Error(`Your choice could not be saved to ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)}); it holds for this run only.`);
      }
    },
  };
}

function read(path: string): { stored: Stored; warning?: string } {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { stored: { projects: {} }, warning: code === "ENOENT" ? undefined : `${path}: cannot read it (${code}); no project counts as trusted.` };
  }
  try {
    const value = JSON.parse(text) as unknown;
    const projects = (value as Partial<Stored> | null)?.projects;
    if (typeof projects !== "object" || projects === null || Array.isArray(projects)) throw new Error('no "projects" object');
    const clean: Stored["projects"] = {};
    for (const [project, entry] of Object.entries(projects as Record<string, unknown>)) {
      const trusted = (entry as { trusted?: unknown } | null)?.trusted;
      if (typeof trusted === "boolean") clean[project] = { trusted, at: String((entry as { at?: unknown }).at ?? "") || undefined };
    }
    return { stored: { projects: clean } };
  } catch (error) {
    return { stored: { projects: {} }, warning: `${path} cannot be read (${(error as Error).message}); no project counts as trusted until it is fixed or removed.` };
  }
}
