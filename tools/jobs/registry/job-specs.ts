// What a job the registry starts runs with: the shell, the working folder, the environment (the
// inherited one, no pager, the caller's additions, the guard's marker) and the PITWALL_JOB mark that
// every process of the job carries, so that stopping it finds even what escaped its process group.
// Marks are "<registry>.<id>.<restarts>" for jobs and "<registry>.c<n>" for bash calls.
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { resolve as resolvePath } from "node:path";
import type { JobSpec } from "../process/job.js";
import type { JobSettings } from "../settings.js";
import { DEFAULT_ACTOR, type AdoptRunningOptions, type StartJobOptions } from "./job-options.js";
import type { ChildMarker } from "../../process/process-guard.js";
import { JOB_MARKER_VARIABLE } from "../../process/marked-processes.js";

export class JobSpecs {
  /** Starts every mark this registry hands out: shutdown ends whatever carries it. */
  readonly markPrefix = randomBytes(6).toString("hex");
  private readonly shell: string;
  private nextCall = 1;

  constructor(
    private readonly cwd: string,
    private readonly settings: JobSettings,
    private readonly baseEnv: Record<string, string>,
    private readonly marker: ChildMarker | undefined,
  ) {
    this.shell = existsSync("/bin/bash") ? "/bin/bash" : "/bin/sh";
  }

  /** The PITWALL_JOB mark for one bash call's processes (a call that becomes a job keeps it). */
  callMark(): Record<string, string> {
    return { [JOB_MARKER_VARIABLE]: `${this.markPrefix}.c${this.nextCall++}` };
  }

  /** A job to spawn under `id` (its `restarts`-th run). */
  forStart(id: string, options: StartJobOptions, restarts: number): JobSpec {
    const stdinMode = options.stdinMode ?? "pty";
    const mark = `${this.markPrefix}.${id}.${restarts}`;
    const env: Record<string, string> = {
      ...(options.baseEnv ?? this.baseEnv),
      // A pager would wait for keys nobody presses.
      PAGER: "cat",
      GIT_PAGER: "cat",
      ...(stdinMode === "pty" ? { TERM: "xterm-256color" } : {}),
      ...(options.env ?? {}),
      ...(this.marker?.env ?? {}),
      [JOB_MARKER_VARIABLE]: mark,
    };
    return {
      id,
      command: options.command,
      cwd: resolveCwd(this.cwd, options.cwd),
      env,
      stdinMode,
      startedBy: options.startedBy,
      ...(options.restartedBy !== undefined ? { restartedBy: options.restartedBy } : {}),
      ...(options.toolCallId !== undefined ? { toolCallId: options.toolCallId } : {}),
      restarts,
      shell: this.shell,
      // A program that starts at its final size never races a resize (vim reads the size once at start).
      cols: options.size?.cols ?? this.settings.cols,
      rows: options.size?.rows ?? this.settings.rows,
      scrollback: this.settings.scrollback,
      mark,
      owner: options.owner ?? DEFAULT_ACTOR,
      ...(options.fence ? { fence: options.fence } : {}),
    };
  }

  /** A running bash call taken over as pipe job `id`. */
  forAdopted(id: string, options: AdoptRunningOptions): JobSpec {
    return {
      id,
      command: options.command,
      cwd: options.cwd,
      env: options.env,
      stdinMode: "pipe",
      startedBy: "agent",
      ...(options.toolCallId !== undefined ? { toolCallId: options.toolCallId } : {}),
      restarts: 0,
      shell: this.shell,
      cols: this.settings.cols,
      rows: this.settings.rows,
      scrollback: this.settings.scrollback,
      // The call's processes carry its mark (callMark) from the start.
      mark: options.env[JOB_MARKER_VARIABLE] ?? `${this.markPrefix}.${id}.0`,
      owner: options.owner ?? DEFAULT_ACTOR,
      ...(options.fence ? { fence: options.fence } : {}),
      adopt: { child: options.child, startedAt: options.startedAt, priorOutput: options.priorOutput },
    };
  }
}

function resolveCwd(base: string, cwd: string | undefined): string {
  return cwd === undefined || cwd === "" ? base : resolvePath(base, cwd);
}
