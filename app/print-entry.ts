// Print mode from the command line: gathers the prompts (arguments, or stdin when it is piped),
// lets --resume pick a session from a numbered list, runs, exports the branch with --export, and
// always ends every job it started. --export without prompts only exports a session.
import { createInterface } from "node:readline/promises";
import { listSessions, newestSession, type SessionSummary } from "../agent/sessions/session-list.js";
import { resolve } from "node:path";
import { describeExport, exportCurrentBranch, exportSessionFile, exportTargetExists } from "./export-command.js";
import { UsageError, type CliOptions } from "./cli-options.js";
import { runPrintMode } from "./print-mode.js";
import { createSetup, sessionPlace } from "./session-setup.js";
import type { Settings } from "./settings.js";
import { installJobCleanup } from "../tools/jobs/index.js";

/** Refuses, before anything runs, an --export that would replace a file without --force. */
async function checkExportTarget(options: CliOptions): Promise<void> {
  if (options.export === undefined || options.export === "-" || options.force) return;
  const target = resolve(options.cwd, options.export);
  if (await exportTargetExists(target)) throw new UsageError(`--export: ${target} exists; give --force to replace it, or name another file`);
}

export async function runPrintModeFromCli(options: CliOptions, settings: Settings): Promise<number> {
  await checkExportTarget(options);
  let sessionPath: string | undefined;
  if (options.resume) {
    const sessions = await listSessions(settings.sessionRoot, sessionPlace(options, settings));
    process.stdout.write(formatSessionList(sessions));
    if (options.prompts.length === 0 || sessions.length === 0) return 0;
    sessionPath = await pickSession(sessions);
  }
  const prompts = options.prompts.length > 0 ? options.prompts : [await readStdinPrompt()];
  const setup = await createSetup(options, settings, { sessionPath, jobClient: "print" });
  const uninstall = installJobCleanup(setup.coding.jobs, { guard: setup.guard });
  try {
    const code = await runPrintMode(setup, prompts);
    if (options.export === undefined) return code;
    // Exported however the run ended: a failed run is worth sharing too.
    try {
      process.stderr.write(`pitwall: ${describeExport(await exportCurrentBranch(setup.coding, options.cwd, options.export, { replace: options.force }))}\n`);
      return code;
    } catch (error) {
      process.stderr.write(`pitwall: the session was not exported: ${error instanceof Error ? error.message : String(error)}\n`);
      return code === 0 ? 1 : code;
    }
  } finally {
    setup.session?.close();
    await setup.dispose();
    uninstall();
  }
}

/** `--export <file>` with no prompt: the named session's current branch as Markdown, no agent started. */
export async function runExportFromCli(options: CliOptions, settings: Settings): Promise<number> {
  await checkExportTarget(options);
  const place = sessionPlace(options, settings);
  let sessionPath = options.sessionFile ?? (options.continue ? await newestSession(settings.sessionRoot, place) : undefined);
  if (options.resume) {
    const sessions = await listSessions(settings.sessionRoot, place);
    if (sessions.length === 0) throw new UsageError(`there are no sessions in ${place} to export`);
    process.stderr.write(formatSessionList(sessions));
    sessionPath = await pickSession(sessions);
  }
  if (sessionPath === undefined) throw new UsageError(`there is no session in ${options.cwd} to export`);
  try {
    const result = await exportSessionFile(sessionPath, options.cwd, options.export!, process.stdout, { replace: options.force });
    process.stderr.write(`pitwall: ${describeExport(result).replace(" to -", " to stdout")}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`pitwall: ${sessionPath} was not exported: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

export async function printSystemPrompt(options: CliOptions, settings: Settings): Promise<number> {
  const setup = await createSetup({ ...options, noSession: true, continue: false, resume: false, sessionFile: undefined }, settings);
  try {
    const report = setup.coding.systemPrompt;
    process.stdout.write(`${report.prompt}\n\n`);
    process.stdout.write(`--- ${report.tokens} tokens (estimated) ---\n`);
    if (report.contextFiles.length === 0) process.stdout.write("No AGENTS.md or CLAUDE.md loaded.\n");
    for (const file of report.contextFiles) process.stdout.write(`loaded ${file.path} (${file.tokens} tokens)\n`);
    for (const skill of setup.resources.skills) process.stdout.write(`skill ${skill.name}: ${skill.path}\n`);
    if (report.skills.count > 0) process.stdout.write(`${report.skills.count} skill${report.skills.count === 1 ? "" : "s"} listed (${report.skills.tokens} tokens); their bodies are read when needed\n`);
    for (const template of setup.resources.templates) process.stdout.write(`prompt template /${template.name}: ${template.path}\n`);
    for (const warning of setup.warnings) process.stderr.write(`pitwall: ${warning}\n`);
    return 0;
  } finally {
    await setup.dispose();
  }
}

export function formatSessionList(sessions: SessionSummary[]): string {
  if (sessions.length === 0) return "No sessions yet in this directory.\n";
  return (
    sessions
      .map((s, i) => {
        const cost = s.cost === null ? "cost unknown" : `$${s.cost.toFixed(2)}`;
        const prompt = s.firstPrompt.replace(/\s+/g, " ").slice(0, 60) || "(no prompt)";
        return `${String(i + 1).padStart(3)}. ${s.modified.toLocaleString()}  ${s.messageCount} messages  ${cost}  ${prompt}\n     ${s.path}`;
      })
      .join("\n") + "\n"
  );
}

async function pickSession(sessions: SessionSummary[]): Promise<string> {
  if (!process.stdin.isTTY) throw new UsageError("--resume needs a terminal to pick from; pass --session <file> instead");
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`Session to resume [1-${sessions.length}]: `);
    const index = Number(answer.trim()) - 1;
    const picked = sessions[index];
    if (!picked) throw new UsageError(`'${answer.trim()}' is not a number from 1 to ${sessions.length}`);
    return picked.path;
  } finally {
    rl.close();
  }
}

async function readStdinPrompt(): Promise<string> {
  if (process.stdin.isTTY) throw new UsageError("print mode needs a prompt: pitwall -p \"what to do\"");
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8").trim();
  if (!text) throw new UsageError("print mode needs a prompt: stdin was empty");
  return text;
}
