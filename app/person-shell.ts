// `!command` in the input: a one-off shell command of the person's, run in the working directory
// like the bash tool runs the agent's (own process group, stdin closed), its output streaming into
// the tool-output pane. It is not part of the conversation; the agent is told in one line that the
// person ran it and how it ended (not its output), since it may have changed what the agent sees.
// It runs under the person's sandbox profile (off unless config.json's personSandbox says otherwise);
// what the fence stops is said in the chat. Esc stops it while the agent is idle; quitting stops it too.
import { resolveShell } from "../tools/shell.js";
import { runShellCommand } from "../tools/shell-process.js";
import type { ToolCallRecord, ToolCallStore } from "../panes/tool-output/tool-calls.js";
import type { ChildMarker } from "../tools/process/process-guard.js";
import { groupAlive } from "../tools/process-group.js";
import { FenceScanner, type CommandFence, type FenceHit } from "../tools/sandbox/index.js";

export interface PersonShellHost {
  cwd: string;
  /** Where commands run: the agent's tool environment (no provider keys) and its child marker. */
  environment(): { env: NodeJS.ProcessEnv; marker?: ChildMarker };
  /** The sandbox of the person's commands (their profile, `off` by default); throws when it is required and cannot be made. */
  fence(): Promise<CommandFence | undefined>;
  /** The fence stopped the command doing something (once per path). */
  fenced(hit: FenceHit, command: string): void;
  /** A command returned with processes still running in the background (`server &`): whoever ends jobs ends them. */
  backgroundLeft(pgid: number): void;
  store: ToolCallStore;
  /** Shows a record in the tool-output pane. */
  show(id: string): void;
  requestFrame(): void;
  /** Tells the agent with its next request. */
  tellAgent(text: string): void;
  /** The remote the agent's tools run on, if any: a `!command` runs here, and says so. */
  remote?: () => string | undefined;
  notice(level: "info" | "warning" | "error", text: string): void;
}

interface Run {
  record: ToolCallRecord;
  controller: AbortController;
  done: Promise<void>;
}

export class PersonShell {
  private readonly runs: Run[] = [];

  constructor(private readonly host: PersonShellHost) {}

  /** Whether a command of the person's is running. */
  get active(): boolean {
    return this.runs.length > 0;
  }

  run(command: string): void {
    const host = this.host;
    const remote = host.remote?.();
    // In a remote session the agent's commands run there; the person's `!` runs on this machine.
    const where = remote ? ` (on this machine, not ${remote})` : "";
    const record = host.store.addPersonal(`! ${command.replace(/\s+/g, " ")}${where}`, { followEnd: true });
    const controller = new AbortController();
    const startedAt = Date.now();
    const run: Run = { record, controller, done: Promise.resolve() };
    const { env, marker } = host.environment();
    const started = async () => {
      const fence = await host.fence();
      const scanner = fence?.state === "fenced" && fence.plan ? new FenceScanner({ ...fence, plan: fence.plan }, (hit) => host.fenced(hit, command)) : undefined;
      const result = await runShellCommand({
        shell: resolveShell(env),
        command,
        cwd: host.cwd,
        env: { ...env, PAGER: "cat", GIT_PAGER: "cat" },
        ...(marker ? { marker } : {}),
        ...(fence ? { fence } : {}),
        signal: controller.signal,
        onChunk: (chunk) => {
          scanner?.write(chunk);
          record.output.write(chunk);
          record.version++;
          host.requestFrame();
        },
      });
      scanner?.end();
      return result;
    };
    run.done = started().then(
      (result) => {
        if (result.pid > 0 && groupAlive(result.pid)) host.backgroundLeft(result.pid);
        record.status = result.exitCode === 0 ? "done" : "error";
        record.durationMs = result.durationMs;
        record.result = {
          content: record.output.lineCount === 0 ? "(no output)" : "",
          details: undefined,
          command: { exitCode: result.exitCode, aborted: result.aborted, ...(result.signal ? { signal: result.signal } : {}) },
          isError: result.exitCode !== 0,
        };
        const how = result.aborted ? "stopped by the person" : result.exitCode !== null ? `exit ${result.exitCode}` : `killed by ${result.signal ?? "a signal"}`;
        host.tellAgent(`The person ran a shell command of their own (its output is not in the conversation): ${command.length > 200 ? `${command.slice(0, 199)}…` : command} (${how}).`);
      },
      (error: unknown) => {
        record.status = "error";
        record.durationMs = Date.now() - startedAt;
        record.result = { content: error instanceof Error ? error.message : String(error), details: {}, isError: true };
        host.notice("error", `! ${command}: ${record.result.content}`);
      },
    ).finally(() => {
      record.version++;
      const at = this.runs.indexOf(run);
      if (at >= 0) this.runs.splice(at, 1);
      host.requestFrame();
    });
    this.runs.push(run);
    host.show(record.id);
    host.requestFrame();
  }

  /** Stops the newest running command (TERM to its group, then KILL); resolves once it has ended, undefined when none runs. */
  stopLatest(): Promise<void> | undefined {
    const run = this.runs[this.runs.length - 1];
    if (!run) return undefined;
    run.controller.abort();
    return run.done;
  }

  /** Stops every running command and waits until their processes are gone. */
  async dispose(): Promise<void> {
    const runs = [...this.runs];
    for (const run of runs) run.controller.abort();
    await Promise.all(runs.map((r) => r.done));
  }
}
