// A rewind with files: every file the agent changed after the point gone back to is put back as it
// was at that point (the content kept before its first change there; a file the agent created is
// removed), through the same safe replace the write tool uses. A file whose content is no longer
// what the agent last wrote (someone changed it since: the person, another program, a bash command)
// is left alone and listed, never overwritten. Changes made by bash are not recorded at all.
import { unlink } from "node:fs/promises";
import { replaceFile } from "../../tools/replace-file.js";
import { SNAPSHOT_FILE_CAP, SNAPSHOT_SESSION_CAP, type FileSnapshots } from "./file-snapshots.js";
import type { FileState } from "./session-file.js";
import type { FileChange } from "./session-tree.js";

export interface FileRestoreReport {
  /** Written back with their content at that point. */
  restored: string[];
  /** Created by the agent after that point: removed. */
  removed: string[];
  /** Already as they were at that point. */
  unchanged: string[];
  /** Left alone: their content is not what the agent last wrote (changed since by someone else). */
  refused: Array<{ path: string; reason: string }>;
  /** Not restored: their earlier content was not kept, or writing failed. */
  failed: Array<{ path: string; reason: string }>;
}

/** One file to put back: its state at the point (null: it did not exist) and what the agent last made of it. */
export interface FileRestorePlan {
  path: string;
  at: FileState | null;
  lastWritten: FileState;
}

/** The changes after a point, one plan per file, in the order the files were first changed. */
export function planFileRestore(changes: readonly FileChange[]): FileRestorePlan[] {
  const plans = new Map<string, FileRestorePlan>();
  for (const change of changes) {
    const plan = plans.get(change.path);
    if (plan) plan.lastWritten = change.after;
    else plans.set(change.path, { path: change.path, at: change.before, lastWritten: change.after });
  }
  return [...plans.values()];
}

class ChangedSince extends Error {}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0).replace(/\.0$/, "")} MiB`;
}

/** Why a content needed for a restore is not there. */
function notKeptReason(state: FileState): string {
  switch (state.unkept) {
    case "size":
      return `its content at that point (${size(state.bytes)}) was larger than the ${size(SNAPSHOT_FILE_CAP)} pitwall keeps per file`;
    case "secret":
      return "its content at that point holds an API key in use, which pitwall never writes to disk";
    case "unsaved":
      return "its content at that point could not be saved (the disk was full or not writable)";
    default:
      return `its content at that point is no longer kept (the session keeps the most recent ${size(SNAPSHOT_SESSION_CAP)} of file contents)`;
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function restoreFiles(changes: readonly FileChange[], snapshots: FileSnapshots): Promise<FileRestoreReport> {
  const report: FileRestoreReport = { restored: [], removed: [], unchanged: [], refused: [], failed: [] };
  for (const plan of planFileRestore(changes)) {
    const { path, at, lastWritten } = plan;
    try {
      const now = await snapshots.stateOf(path);
      if (at === null ? now === null : now !== null && now !== "other" && now.hash === at.hash) {
        report.unchanged.push(path);
        continue;
      }
      if (now === null) {
        report.refused.push({ path, reason: "deleted since the agent last wrote it" });
        continue;
      }
      if (now === "other" || now.hash !== lastWritten.hash) {
        report.refused.push({ path, reason: now === "other" ? "no longer a regular file" : "changed since the agent last wrote it" });
        continue;
      }
      if (at === null) {
        await unlink(path);
        report.removed.push(path);
        continue;
      }
      const bytes = await snapshots.read(at.hash);
      if (!bytes) {
        report.failed.push({ path, reason: notKeptReason(at) });
        continue;
      }
      await replaceFile(path, bytes, {
        makeParents: true,
        // Checked again right before the commit: a change made meanwhile is not overwritten.
        beforeCommit: async () => {
          const current = await snapshots.stateOf(path);
          if (current === null || current === "other" || current.hash !== lastWritten.hash) throw new ChangedSince();
        },
      });
      report.restored.push(path);
    } catch (error) {
      if (error instanceof ChangedSince) report.refused.push({ path, reason: "changed since the agent last wrote it" });
      else report.failed.push({ path, reason: errorText(error) });
    }
  }
  return report;
}
