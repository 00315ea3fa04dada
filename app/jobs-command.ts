// `pitwall jobs`: the jobs of this folder's job host, from another terminal or a script.
//   pitwall jobs [list]            every job with its status, runtime and last line
//   pitwall jobs stop ID...|all    stops jobs (TERM, grace, KILL) with every process they started
//   pitwall jobs tail ID [-n N] [-f]   a job's last lines; -f follows until the job ends (or Ctrl+C)
// It never starts a host. A host of another pitwall version is not spoken to beyond its refusal:
// its jobs are listed from that, and `stop all` ends it by its pid.
import { parseArgs } from "node:util";
import { resolve } from "node:path";
import { formatDuration, type HostConnection, type HostStatus, type Mismatch, openHost, openRemoteHost, parseRemote, recordedHostPid, type RemoteTarget, runtime, shortCommand, stopHostProcess } from "../tools/jobs/index.js";
import { DEFAULT_KILL_GRACE_MS } from "../tools/process-group.js";
import { UsageError } from "./cli-options.js";
import { hostGreetingSetting, pitwallHome, sshCommandSetting } from "./settings.js";

export const JOBS_HELP = `
  Usage
    $ pitwall jobs [list]                 The jobs of this folder's job host, with their status
    $ pitwall jobs stop <id>... | all     Stop jobs (TERM, then KILL after the grace period), with every
                                          process they started
    $ pitwall jobs tail <id> [-n N] [-f]  A job's last N lines (default 20); -f follows its output until
                                          the job ends or Ctrl+C

  Options
    --cwd <dir>   The folder whose jobs (default: the current one)
    --remote <[user@]host[:port]:/path>
                  The jobs of a folder on another machine, over your ssh (PITWALL_SSH_COMMAND or
                  sshCommand in config.json: the ssh command); its job host is started if none runs
`;

interface Output {
  out: (text: string) => void;
  err: (text: string) => void;
}

const STD: Output = { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) };

type Connected = { kind: "none" } | { kind: "mismatch"; mismatch: Mismatch } | { kind: "welcome"; connection: HostConnection };

async function connect(home: string, cwd: string, remote: { target: RemoteTarget; sshCommand: string } | undefined, env: NodeJS.ProcessEnv): Promise<Connected> {
  const client = { kind: "cli", pid: process.pid, output: "none" } as const;
  if (!remote) return openHost({ home, cwd, client, connection: { greetingMs: hostGreetingSetting(env) } });
  return openRemoteHost({ sshCommand: remote.sshCommand, target: remote.target, client, settings: {}, keepJobsMs: 0, onStatus: (text) => process.stderr.write(`pitwall: ${text}\n`) });
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function statusWord(info: HostStatus["jobs"][number]["job"]): string {
  if (info.status === "running") return "running";
  if (info.status === "killed") return `killed ${(info.signal ?? "").replace(/^SIG/, "")}`.trim();
  return `exit ${info.exitCode ?? "?"}`;
}

/** The `list` table: one row per job, the host on the first line. */
export function formatStatus(status: HostStatus, now: number = Date.now()): string {
  const attached = status.clients.filter((kind) => kind !== "cli");
  const lines = [
    `job host ${status.pid} (pitwall ${status.version}) in ${status.cwd}: ${plural(status.jobs.length, "job")}` +
      (attached.length ? `, attached: ${attached.join(", ")}` : ", no pitwall attached") +
      (status.keptUntil !== undefined ? `; kept jobs end in ${formatDuration(Math.max(0, status.keptUntil - now))} unless a pitwall attaches` : ""),
  ];
  if (status.jobs.length === 0) return `${lines[0]}\n`;
  // The KEPT column only when some job waits for a pitwall to attach.
  const anyKept = status.jobs.some((row) => row.kept);
  const rows = status.jobs.map(({ job, lastLine, kept }) => [
    job.id,
    statusWord(job),
    formatDuration(runtime(job, now)),
    job.startedBy === "person" ? "person" : "agent",
    ...(anyKept ? [kept ? "kept" : ""] : []),
    shortCommand(job.command, 50),
    lastLine.slice(0, 60),
  ]);
  const header = ["ID", "STATUS", "TIME", "BY", ...(anyKept ? ["KEPT"] : []), "COMMAND", "LAST LINE"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  for (const row of [header, ...rows]) lines.push(row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  ").trimEnd());
  return `${lines.join("\n")}\n`;
}

function describeMismatch(mismatch: Mismatch): string {
  const jobs = mismatch.jobs.map((job) => `  ${job.id}  ${job.status}  ${shortCommand(job.command, 60)}`);
  return [`The job host here runs pitwall ${mismatch.version} (pid ${mismatch.pid}), not this pitwall's version; its ${plural(mismatch.jobs.length, "job")}:`, ...jobs, "`pitwall jobs stop all` stops it and its jobs."].join("\n") + "\n";
}

/** Runs `pitwall jobs …` (argv after "jobs"); resolves with the exit code. */
export async function runJobsCommand(argv: string[], env: NodeJS.ProcessEnv = process.env, io: Output = STD): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { cwd: { type: "string" }, remote: { type: "string" }, follow: { type: "boolean", short: "f" }, lines: { type: "string", short: "n" }, help: { type: "boolean", short: "h" } } });
  } catch (error) {
    throw new UsageError(`jobs: ${(error as Error).message}`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(`${JOBS_HELP.trim()}\n`);
    return 0;
  }
  const [action = "list", ...rest] = positionals;
  const home = pitwallHome(env);
  let remote: { target: RemoteTarget; sshCommand: string } | undefined;
  if (values.remote !== undefined) {
    try {
      remote = { target: parseRemote(values.remote), sshCommand: sshCommandSetting(env) };
    } catch (error) {
      throw new UsageError(`jobs --remote: ${(error as Error).message}`);
    }
  }
  const cwd = remote ? remote.target.label : resolve(values.cwd ?? process.cwd());
  if (action !== "list" && action !== "stop" && action !== "tail") throw new UsageError(`jobs: unknown action "${action}" (list, stop, tail)`);
  if (action === "stop" && rest.length === 0) throw new UsageError("jobs stop: which jobs? Give their ids, or all");
  if (action === "tail" && rest.length !== 1) throw new UsageError("jobs tail: give one job id");
  const count = values.lines === undefined ? 20 : Number(values.lines);
  if (!Number.isInteger(count) || count < 0) throw new UsageError(`jobs tail: -n wants a whole number of lines, not "${values.lines}"`);

  let host: Connected;
  try {
    host = await connect(home, cwd, remote, env);
  } catch (error) {
    if (remote) {
      io.err(`${errorText(error)}\n`);
      return 1;
    }
    return unreachable(home, cwd, action === "stop" && rest.length === 1 && rest[0] === "all", errorText(error), io);
  }
  if (host.kind === "none") {
    if (action === "list") {
      io.out(`No job host runs in ${cwd}: no jobs.\n`);
      return 0;
    }
    io.err(`No job host runs in ${cwd}: it has no jobs.\n`);
    return 1;
  }
  if (host.kind === "mismatch") {
    if (action === "stop" && rest.length === 1 && rest[0] === "all" && !remote) {
      const stopped = await stopHostProcess(home, cwd, host.mismatch.pid, DEFAULT_KILL_GRACE_MS);
      if (stopped) io.out(`Stopped the job host of pitwall ${host.mismatch.version} (pid ${host.mismatch.pid}) and its ${plural(host.mismatch.jobs.length, "job")}.\n`);
      else io.err(`Could not stop the job host (pid ${host.mismatch.pid}): its folder names another process.\n`);
      return stopped ? 0 : 1;
    }
    (action === "list" ? io.out : io.err)(describeMismatch(host.mismatch));
    return action === "list" ? 0 : 1;
  }
  const connection = host.connection;
  try {
    if (action === "list") {
      io.out(formatStatus(await connection.call("status", {})));
      return 0;
    }
    if (action === "stop") {
      const ids = rest.length === 1 && rest[0] === "all" ? "all" : rest;
      const known = new Set(connection.welcome.jobs.map((job) => job.id));
      const unknown = ids === "all" ? [] : ids.filter((id) => !known.has(id));
      if (unknown.length) {
        io.err(`No job ${unknown.join(", ")} here. Jobs: ${[...known].join(", ") || "none"}.\n`);
        return 1;
      }
      const stopped = await connection.call("stop", { ids });
      if (stopped.length === 0) io.out("No jobs to stop.\n");
      for (const info of stopped) io.out(`job ${info.id}: ${statusWord(info)}  ${shortCommand(info.command, 60)}\n`);
      return 0;
    }
    return await tail(connection, rest[0]!, count, values.follow ?? false, io);
  } catch (error) {
    if (remote) {
      io.err(`${errorText(error)}\n`);
      return 1;
    }
    return unreachable(home, cwd, false, errorText(error), io);
  } finally {
    connection.close();
  }
}

function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0]!;
}

/**
 * A host that is there but does not answer (stopped, hung, not pitwall's): one line saying so and
 * what to do; `stop all` stops it by the pid its folder records, as for a host of another version.
 */
async function unreachable(home: string, cwd: string, stopAll: boolean, why: string, io: Output): Promise<number> {
  const pid = recordedHostPid(home, cwd);
  if (stopAll && pid !== undefined) {
    const stopped = await stopHostProcess(home, cwd, pid, DEFAULT_KILL_GRACE_MS);
    if (stopped) io.out(`Stopped the job host (pid ${pid}), which did not answer, and its jobs.\n`);
    else io.err(`Could not stop the job host (pid ${pid}): its folder names another process.\n`);
    return stopped ? 0 : 1;
  }
  const who = pid === undefined ? "The job host" : `The job host (pid ${pid})`;
  const next = pid === undefined ? "" : " `pitwall jobs stop all` stops it and its jobs by its pid.";
  io.err(`${who} of ${cwd} does not answer: ${why.replace(/\.$/, "")}.${next}\n`);
  return 1;
}

async function tail(connection: HostConnection, id: string, count: number, follow: boolean, io: Output): Promise<number> {
  const job = connection.welcome.jobs.find((info) => info.id === id);
  if (!job) {
    io.err(`No job ${id} here. Jobs: ${connection.welcome.jobs.map((info) => info.id).join(", ") || "none"}.\n`);
    return 1;
  }
  if (!follow || job.status !== "running") {
    const lines = await connection.call("text", { id, kind: "tail", count });
    if (lines.length) io.out(`${lines.join("\n")}\n`);
    return 0;
  }
  return new Promise<number>((done) => {
    const finish = (code: number): void => {
      process.off("SIGINT", interrupted);
      done(code);
    };
    const interrupted = (): void => finish(0);
    process.on("SIGINT", interrupted);
    // Lines that come before the follow's answer wait for the last lines it returns.
    let waiting: string[] | undefined = [];
    const print = (lines: string[]): void => {
      if (lines.length) io.out(`${lines.join("\n")}\n`);
    };
    connection.handlers = {
      lines: (_watch, lines) => (waiting ? waiting.push(...lines) : print(lines)),
      event: (event) => {
        if (event.type === "job_exited" && event.job.id === id) {
          io.err(`job ${id} ended: ${statusWord(event.job)}\n`);
          finish(0);
        } else if (event.type === "job_removed" && event.jobId === id) finish(0);
      },
      closed: (why) => {
        if (why !== undefined) io.err(`The job host went away (${why}).\n`);
        finish(why === undefined ? 0 : 1);
      },
    };
    connection.call("follow", { id, watch: 1, last: count }).then(
      (lines) => {
        print([...lines, ...(waiting ?? [])]);
        waiting = undefined;
      },
      (error: unknown) => {
        io.err(`${error instanceof Error ? error.message : String(error)}\n`);
        finish(1);
      },
    );
  });
}
