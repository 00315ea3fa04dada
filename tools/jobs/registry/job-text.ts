// A job's text as the person copies or tails it: the whole kept plain-text log, its last lines, or
// the rows of its terminal's view. Shared by the in-process service and the job host.
import type { JobRegistry } from "./job-registry.js";
import type { JobTextKind } from "../service.js";
import { terminalText } from "../terminal/screen-encoder.js";

export function readJobText(registry: JobRegistry, id: string, kind: JobTextKind, count?: number): string[] {
  const job = registry.get(id);
  if (!job) {
    const known = registry.list().map((j) => j.id);
    throw new Error(`No job "${id}". ${known.length ? `Jobs: ${known.join(", ")}.` : "There are no jobs."}`);
  }
  if (kind === "tail") return job.log.tail(count ?? 50);
  if (kind === "screen") {
    const terminal = job.terminal;
    return terminalText(terminal, terminal.buffer.active.viewportY, Math.min(terminal.rows, count ?? terminal.rows));
  }
  return job.log.keptText().split("\n");
}
