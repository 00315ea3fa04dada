// The `bash` tool: runs one command with the user's shell in the working directory and waits for it.
// Output streams to the UI as it arrives; the model gets it capped (head and tail) with the full
// output saved to a temp file. Long-running commands belong to bash_stream, not here.
import { stat } from "node:fs/promises";
import { ToolAbortedError } from "../../aborted.js";
import { groupDigits } from "../../digit-groups.js";
import { DEFAULT_MAX_OUTPUT_CHARS } from "../../output-cap.js";
import { OutputSpool, type SpooledOutput } from "../../output-spool.js";
import { PlainTextStream } from "../log/plain-text-stream.js";
import { groupAlive } from "../../process-group.js";
import { adoptedResult, yieldWindow, type BashCallAdopter, type YieldReason } from "./bash-yield.js";
import { bashToolSchema, type BashToolDetails } from "./bash-schema.js";
import { resolveShell } from "../../shell.js";
import { startShellCommand, type ShellRunResult } from "../../shell-process.js";
import type { PrestartedShells } from "../../process/prestarted-shells.js";
import type { AgentTool, ToolDefinition } from "../../tool.js";
import type { ChildMarker } from "../../process/process-guard.js";
import type { ToolSettings } from "../../tool-settings.js";
import { FenceScanner, fenceNoteForModel, type CommandFence, type FenceHit } from "../../sandbox/index.js";
import { fenceForModel, SANDBOX_SENTENCE } from "./model-fence.js";
import type { ModelFence } from "./tool-jobs.js";

export interface BashToolOptions extends Partial<ToolSettings> {
  /** Defaults to $SHELL, then bash, then sh. */
  shell?: string;
  /** Between TERM and KILL when a timeout or abort ends the command. */
  killGraceMs?: number;
  /**
   * Told the process group of a command that returned with processes still running in the
   * background (`server &`), so whoever owns cleanup ends them when pitwall stops.
   */
  onBackgroundLeft?: (pgid: number, callEnv: Record<string, string>) => void;
  /**
   * Added to each call's environment (the job registry's PITWALL_JOB mark for the call, so a call that
   * becomes a job, or leaves something running, can be ended with its escapes).
   */
  callEnv?: () => Record<string, string>;
  /** Marks each command's environment and tracks its group (see ProcessGuard). */
  marker?: ChildMarker;
  /** Replaced by [redacted] in the full-output file (the provider keys). */
  secrets?: readonly string[];
  /** Where full-output files go: this process's temp folder by default (the job host writes into its client's). */
  outputDir?: string;
  /**
   * Takes over a call still running when its wait ends or a steer arrives, as a background job.
   * Without one, a call runs until the command exits (or its timeout).
   */
  adopter?: BashCallAdopter;
  /** The sandbox each command runs in; without one, commands run as the person. */
  fence?: ModelFence;
  /** Fences set up ahead of the next call (see tools/process/prestarted-shells.ts). */
  prestarted?: PrestartedShells;
}

/**
 * What the model is shown of bash: `yieldMs` is the wait after which a command becomes a background
 * job (undefined: no adopter, the call waits for the command).
 */
export function bashToolDefinition(maxChars: number = DEFAULT_MAX_OUTPUT_CHARS, yieldMs?: number): ToolDefinition<typeof bashToolSchema> {
  return { name: "bash", label: "Run Command", description: describe(maxChars, yieldMs), parameters: bashToolSchema };
}

/** bash's options beyond the settings every tool shares (env, output cap). */
export type BashOwnOptions = Omit<BashToolOptions, keyof ToolSettings>;

function describe(maxChars: number, yieldMs: number | undefined): string {
  const long =
    yieldMs === undefined
      ? [
          "No timeout by default; pass `timeout` (seconds) to bound a command. A timeout or abort kills the command's",
          "whole process group. A non-zero exit code makes the call an error; the code ends the result.",
          "For servers, watchers and anything long-running use bash_stream instead; processes put in the background",
          "with & keep running, but their later output is not captured.",
        ]
      : [
          `A command still running after ${Math.round(yieldMs / 1000)} s, or when the person sends a message, is not stopped: it becomes a background`,
          "job and the result gives its id with the output so far; follow it with poll_process, stop it with kill_process.",
          "Pass `timeout` (seconds) to bound a command: on expiry it is killed with its whole process group, job or not.",
          "An abort kills a command that has not become a job. A non-zero exit code makes the call an error; the code ends the result.",
          "For servers, watchers and anything you want to type into, bash_stream is the better start (readyPattern, a terminal).",
        ];
  return [
    "Run a shell command in the working directory with the user's shell (`$SHELL -c`) and wait for it to finish.",
    "stdout and stderr come back combined, in the order they were written, as plain text (colours and progress-bar redraws resolved). stdin is closed: nothing interactive.",
    SANDBOX_SENTENCE,
    `Output is capped at ${groupDigits(maxChars, " ")} characters: the head and tail are kept,`,
    "the omitted amount is stated, and the full output is saved to a temp file whose path the result gives",
    "(its first and last 4 MB when longer; the file is deleted when pitwall exits).",
    ...long,
  ].join(" ");
}

/** The sandbox part of a result: the note for the model and the details for the UI. */
function fenceParts(fence: CommandFence | undefined, hits: readonly FenceHit[]): { note: string | undefined; details: Pick<BashToolDetails, "sandbox" | "unfenced" | "fence"> } {
  if (fence === undefined) return { note: undefined, details: {} };
  return {
    note: hits.length > 0 ? fenceNoteForModel(hits) : undefined,
    details: { sandbox: fence.profile, ...(fence.state === "unfenced" ? { unfenced: true } : {}), ...(hits.length > 0 ? { fence: [...hits] } : {}) },
  };
}

function truncationNote(spooled: SpooledOutput): string | undefined {
  if (!spooled.truncated) return undefined;
  const sizes = `${spooled.totalChars} chars in all, ${spooled.omittedChars} chars (${spooled.omittedLines} lines) omitted in the middle, where the "... [omitted] ..." line is`;
  if (spooled.fullOutputPath === undefined) {
    return `[Output truncated: ${sizes}. The full output could not be saved: ${spooled.fullOutputError ?? "unknown error"}]`;
  }
  const path = spooled.fullOutputPath;
  return (
    `[Output truncated: ${sizes}. Full output: ${path}. ` +
    `To see the omitted part: read(file_path=${JSON.stringify(path)}, offset=${spooled.firstOmittedLine ?? 1}), ` +
    `or search it with bash: grep -n PATTERN ${path}]`
  );
}

function statusLine(run: ShellRunResult, timeoutSeconds: number | undefined): string | undefined {
  if (run.aborted) {
    return `Command aborted after ${(run.durationMs / 1000).toFixed(1)} s; its whole process group was killed.`;
  }
  if (run.timedOut) {
    return (
      `Command timed out after ${timeoutSeconds} s and was killed with its whole process group. ` +
      `If it needs longer, raise timeout; run servers, watchers and other long-running commands with bash_stream.`
    );
  }
  if (run.exitCode === null) return `Command was killed by signal ${run.signal ?? "unknown"}`;
  if (run.exitCode !== 0) return `Command exited with code ${run.exitCode}`;
  return undefined;
}

async function checkWorkingDirectory(cwd: string): Promise<void> {
  try {
    if ((await stat(cwd)).isDirectory()) return;
  } catch {
    // Reported below.
  }
  throw new Error(`The working directory ${cwd} does not exist (or is not a folder), so no command can run there.`);
}

export function createBashTool(cwd: string, options: BashToolOptions = {}): AgentTool<typeof bashToolSchema, BashToolDetails> {
  const maxChars = options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS;
  return {
    ...bashToolDefinition(maxChars, options.adopter?.yieldMs()),
    async execute(toolCallId, params, signal, onUpdate, context) {
      if (signal.aborted) throw new ToolAbortedError("The command was aborted before it started.");
      await checkWorkingDirectory(cwd);
      const fenced = await fenceForModel(options.fence, params.sandbox);
      if ("refused" in fenced) return fenced.refused;
      const fence = fenced.fence;
      const scanner = fence?.state === "fenced" && fence.plan ? new FenceScanner({ ...fence, plan: fence.plan }) : undefined;
      const spool = new OutputSpool(maxChars, { filePrefix: "bash-", ...(options.secrets ? { secrets: options.secrets } : {}), ...(options.outputDir ? { dir: options.outputDir } : {}) });
      const callEnv = options.callEnv?.();
      // The model reads what a terminal would show: colours dropped, progress bars at their last frame.
      const plain = new PlainTextStream((text) => spool.write(text));
      const timeoutMs = params.timeout === undefined ? undefined : params.timeout * 1000;
      let run: ShellRunResult;
      try {
        const shellRun = startShellCommand({
          shell: options.shell ?? resolveShell(options.env),
          command: params.command,
          cwd,
          env: callEnv ? { ...(options.env ?? process.env), ...callEnv } : options.env,
          signal,
          ...(timeoutMs !== undefined ? { timeoutMs } : {}),
          killGraceMs: options.killGraceMs,
          marker: options.marker,
          ...(fence ? { fence } : {}),
          ...(options.prestarted ? { prestarted: options.prestarted } : {}),
          onChunk: (chunk) => {
            scanner?.write(chunk);
            plain.write(chunk);
            // This runs inside a pipe's data handler, where a throw would crash the process: a
            // failing subscriber loses its update, not the command.
            try {
              onUpdate({ chunk });
            } catch {
              // Nothing to do: the output is still in the result.
            }
          },
        });
        const adopter = options.adopter;
        if (adopter) {
          const yielded = yieldWindow(adopter.yieldMs(), adopter.steerGraceMs(), context.yieldSignal);
          const outcome = await Promise.race([shellRun.result, yielded.reason]);
          yielded.cancel();
          const running = typeof outcome === "string" ? shellRun.handOff() : undefined;
          if (running) {
            // The line being written goes with the output so far; the job carries on from there.
            plain.end();
            const adopted = adoptedResult({ adopter, running, why: outcome as YieldReason, toolCallId, params, cwd, spool, timeoutMs, summary: truncationNote, yieldSignal: context.yieldSignal, ...(fence ? { fence } : {}) });
            // What the fence stopped so far; the job's own scanner reads on from here.
            const sandbox = fenceParts(fence, scanner?.hits ?? []);
            return { ...adopted, content: [adopted.content, sandbox.note].filter(Boolean).join("\n\n"), details: { ...adopted.details, ...sandbox.details } };
          }
          run = typeof outcome === "string" ? await shellRun.result : outcome;
        } else {
          run = await shellRun.result;
        }
      } catch (error) {
        spool.dispose();
        throw error;
      }
      if (options.onBackgroundLeft && run.pid > 0 && groupAlive(run.pid)) options.onBackgroundLeft(run.pid, callEnv ?? {});
      plain.end();
      scanner?.end();
      await scanner?.settled();
      const sandbox = fenceParts(fence, scanner?.hits ?? []);
      const spooled = spool.finish();
      const output = spooled.text.endsWith("\n") ? spooled.text.slice(0, -1) : spooled.text;
      const status = statusLine(run, params.timeout);
      const parts = [output, truncationNote(spooled), sandbox.note, status].filter((part): part is string => !!part);
      const details: BashToolDetails = {
        command: params.command,
        exitCode: run.exitCode,
        ...(run.signal !== null ? { signal: run.signal } : {}),
        durationMs: run.durationMs,
        truncated: spooled.truncated,
        ...(spooled.fullOutputPath !== undefined ? { fullOutputPath: spooled.fullOutputPath } : {}),
        timedOut: run.timedOut,
        aborted: run.aborted,
        ...sandbox.details,
      };
      return {
        content: parts.length === 0 ? "(no output)" : parts.join("\n\n"),
        details,
        command: {
          exitCode: run.exitCode,
          ...(run.signal !== null ? { signal: run.signal } : {}),
          timedOut: run.timedOut,
          aborted: run.aborted,
          ...(spooled.fullOutputPath !== undefined ? { fullOutputPath: spooled.fullOutputPath } : {}),
        },
        ...(status !== undefined ? { isError: true } : {}),
      };
    },
  };
}
