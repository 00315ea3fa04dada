// When a bash call stops blocking the turn: at the end of its wait (PI_BASH_YIELD_MS, the window
// bash_stream uses) or a moment after the person steers. A command still running then is handed to
// an adopter (the job registry, see tools/jobs/model-tools/bash-adoption.ts) and runs on as a background job;
// the call returns what it printed so far and the job's id. Nothing is killed.
import { terminateGroup } from "../../process-group.js";
import type { OutputSpool, SpooledOutput } from "../../output-spool.js";
import type { RunningShell } from "../../shell-process.js";
import type { BashToolDetails, BashToolParams } from "./bash-schema.js";
import { yieldCauseText } from "../../tool.js";
import type { CommandFence } from "../../sandbox/index.js";

/** Who owns a bash call that outlived its wait. */
export interface BashCallAdopter {
  /** How long a call may run before it becomes a job. */
  yieldMs(): number;
  /** Once the person steers, how much longer the call may run before it becomes a job. */
  steerGraceMs(): number;
  /** Contract: returns the job's id and pid, or throws (the command is then stopped: nobody would watch it). */
  adopt(call: { toolCallId: string; command: string; cwd: string; running: RunningShell; priorOutput: string; killAfterMs?: number; fence?: CommandFence }): { id: string; pid: number };
}

export type YieldReason = "waited" | "steered";

/**
 * Settles with why the call should stop blocking: `yieldMs` passed, or `steerGraceMs` after a steer
 * (a command about to finish gets to); `cancel` once the command ended first. `yieldSignal`'s reason
 * says whose steer it was.
 */
export function yieldWindow(yieldMs: number, steerGraceMs: number, yieldSignal: AbortSignal): { reason: Promise<YieldReason>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  let onSteer = (): void => undefined;
  const reason = new Promise<YieldReason>((resolve) => {
    const finish = (why: YieldReason): void => {
      yieldSignal.removeEventListener("abort", onSteer);
      resolve(why);
    };
    timer = setTimeout(() => finish("waited"), yieldMs);
    onSteer = () => {
      clearTimeout(timer);
      timer = setTimeout(() => finish("steered"), steerGraceMs);
    };
    if (yieldSignal.aborted) onSteer();
    else yieldSignal.addEventListener("abort", onSteer, { once: true });
  });
  return {
    reason,
    cancel() {
      clearTimeout(timer);
      yieldSignal.removeEventListener("abort", onSteer);
    },
  };
}

export interface AdoptedCall {
  adopter: BashCallAdopter;
  running: RunningShell;
  why: YieldReason;
  toolCallId: string;
  params: BashToolParams;
  cwd: string;
  spool: OutputSpool;
  timeoutMs: number | undefined;
  /** The bash tool's note on a truncated output (where the full output is). */
  summary: (spooled: SpooledOutput) => string | undefined;
  /** The call's yield signal: its reason says whose steer ended the wait. */
  yieldSignal: AbortSignal;
  /** The sandbox the command runs in: the job keeps it. */
  fence?: CommandFence;
}

/** Hands the command to the adopter and builds the call's result: the output so far and the job it became. */
export function adoptedResult(call: AdoptedCall): { content: string; details: BashToolDetails; runningJob: string } {
  const { adopter, running, params, spool } = call;
  const priorOutput = spool.textSoFar();
  const spooled = spool.finish();
  const elapsedMs = Date.now() - running.startedAt;
  // The call's timeout still holds: the job is stopped when the rest of it has passed.
  const killAfterMs = call.timeoutMs === undefined ? undefined : Math.max(0, call.timeoutMs - elapsedMs);
  let job: { id: string; pid: number };
  try {
    job = adopter.adopt({
      toolCallId: call.toolCallId,
      command: params.command,
      cwd: call.cwd,
      running,
      priorOutput,
      ...(killAfterMs !== undefined ? { killAfterMs } : {}),
      ...(call.fence ? { fence: call.fence } : {}),
    });
  } catch (error) {
    void terminateGroup(running.pid);
    throw new Error(`The command could not become a background job and was stopped: ${error instanceof Error ? error.message : String(error)}`);
  }
  const output = spooled.text.endsWith("\n") ? spooled.text.slice(0, -1) : spooled.text;
  const reason = call.why === "steered" ? yieldCauseText(call.yieldSignal) : `the ${Math.round(adopter.yieldMs() / 1000)} s a bash call may block have passed`;
  const timeoutNote = params.timeout !== undefined ? ` Its timeout still holds: it is stopped ${params.timeout} s after it started.` : "";
  const status =
    `Still running as job ${job.id} (pid ${job.pid}) after ${(elapsedMs / 1000).toFixed(0)} s: ${reason}, so it became a background job and nothing was stopped.${timeoutNote} ` +
    `Use poll_process with jobId "${job.id}" for new output or its final result, kill_process to stop it, get_process_log to page its log.`;
  return {
    content: [output, call.summary(spooled), status].filter((part): part is string => !!part).join("\n\n"),
    details: {
      command: params.command,
      exitCode: null,
      durationMs: elapsedMs,
      truncated: spooled.truncated,
      ...(spooled.fullOutputPath !== undefined ? { fullOutputPath: spooled.fullOutputPath } : {}),
      timedOut: false,
      aborted: false,
      jobId: job.id,
    },
    runningJob: job.id,
  };
}
