// Startup milestones for the benchmarks: with PITWALL_STARTUP_TRACE=<file> the dashboard appends
// "<milestone> <ms since start> <cpu ms>" lines to it. The first milestone (the first frame) comes
// before the settings have loaded, which is after that frame: lines wait until the settings say
// where they go, or that they go nowhere.
import { appendFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

export class StartupTrace {
  /** Lines measured before the settings said where they go; undefined once they have. */
  private pending: string[] | undefined = [];
  private file: string | undefined;

  mark(milestone: string): void {
    if (this.pending === undefined && this.file === undefined) return;
    const { user, system } = process.cpuUsage();
    const line = `${milestone} ${performance.now().toFixed(1)} ${((user + system) / 1000).toFixed(1)}\n`;
    if (this.pending) this.pending.push(line);
    else appendFileSync(this.file!, line);
  }

  /** The settings have loaded: the milestones go to `file` (those measured already, then the rest), or nowhere. */
  writeTo(file: string | undefined): void {
    const measured = this.pending ?? [];
    this.pending = undefined;
    this.file = file;
    if (file !== undefined && measured.length > 0) appendFileSync(file, measured.join(""));
  }
}
