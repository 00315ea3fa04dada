// A 100 MB session that never compacted (written before compaction existed) resumes with memory in
// proportion to what the model is sent, not to the file: loading runs in a child process whose heap
// is capped far below the file's size (reading it whole would need several times the file), and its
// memory growth is measured. What did not fit stays on disk as the older part.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/cli-process.js";
import { writeLongSession } from "../helpers/session-files.js";

const folder = mkdtempSync(join(tmpdir(), "pitwall-large-session-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

interface LoadReport {
  rssBefore: number;
  rssAfter: number;
  heapAfter: number;
  messages: number;
  first: { role: string };
  older: { fromLine: number; toLine: number; count: number; omitted?: { count: number } };
  stats: { messages: number };
}

/** Opens the session in a fresh node with a 64 MB heap cap; resolves with what it measured. */
function loadInChild(path: string): Promise<LoadReport> {
  const script = `
    const { SessionStore } = await import(${JSON.stringify(join(REPO_ROOT, "dist", "agent", "sessions", "session-store.js"))});
    const rssBefore = process.memoryUsage().rss;
    // A 64k window less the reply's room, as for a local model run with --context-window 64k.
    const { session } = await SessionStore.open(${JSON.stringify(path)}, { budgetFor: () => 48_000 });
    globalThis.gc();
    const m = process.memoryUsage();
    process.stdout.write(JSON.stringify({ rssBefore, rssAfter: m.rss, heapAfter: m.heapUsed, messages: session.messages.length, first: session.messages[0], older: session.older, stats: session.stats }));
  `;
  const child = spawn(process.execPath, ["--max-old-space-size=64", "--expose-gc", "--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
  return new Promise((resolve, reject) => {
    child.on("close", (code) => (code === 0 ? resolve(JSON.parse(out) as LoadReport) : reject(new Error(`the loading process exited with ${code}: ${err.slice(-2000)}`))));
  });
}

describe("a 100 MB session without compactions", () => {
  it("resumes within a 64 MB heap, keeping only the newest turns that fit and the rest as an older part", async () => {
    const path = join(folder, "old-long.jsonl");
    const bytes = writeLongSession(path, { turns: 5_000, resultChars: 20_000, withoutIds: true });
    expect(bytes).toBeGreaterThan(100_000_000);
    const report = await loadInChild(path);
    const mb = (n: number): number => n / 1024 / 1024;
    // Kept: about 48k tokens of the newest turns (each ~5k tokens), never starting at a tool result.
    expect(report.messages).toBeGreaterThan(20);
    expect(report.messages).toBeLessThan(60);
    expect(report.first.role).not.toBe("toolResult");
    expect(report.stats.messages).toBe(20_000);
    expect(report.older.count + (report.older.omitted?.count ?? 0) + report.messages).toBe(20_000);
    // The older part a summary may read is bounded (four budgets), the rest is named as omitted.
    expect(report.older.count).toBeGreaterThan(100);
    expect(report.older.omitted!.count).toBeGreaterThan(15_000);
    // Memory follows what is kept: well under the file's size.
    expect(mb(report.rssAfter - report.rssBefore)).toBeLessThan(60); // about 35 MB measured; the heap cap is the hard bound
    expect(mb(report.heapAfter)).toBeLessThan(40);
    process.stdout.write(`large session: ${mb(bytes).toFixed(0)} MB file, RSS +${mb(report.rssAfter - report.rssBefore).toFixed(1)} MB, heap ${mb(report.heapAfter).toFixed(1)} MB after loading\n`);
  }, 120_000);
});
