#!/usr/bin/env node
// pitwall's entry point: parses the command line and hands over to a mode (dashboard, print, JSON),
// or to `pitwall jobs`.
// It imports only what parsing needs, so the dashboard can draw its first frame before the heavy
// modules (provider SDKs, highlighting, the emulator) load.
import { HELP, parseCliArgs, UsageError, type CliOptions } from "./cli-options.js";
import type { Settings } from "./settings.js";

type Mode = "dashboard" | "print" | "json" | "system-prompt" | "export";

function chooseMode(options: CliOptions): Mode {
  if (options.printSystemPrompt) return "system-prompt";
  if (options.json) return "json";
  if (options.print) return "print";
  // --export runs the prompts it is given and exits, or only exports.
  if (options.export !== undefined) return options.prompts.length > 0 ? "print" : "export";
  if (!process.stdout.isTTY || !process.stdin.isTTY) {
    if (options.prompts.length > 0 || !process.stdin.isTTY || options.resume) return "print";
    throw new UsageError("the dashboard needs a terminal: pass a prompt with -p, or use --json");
  }
  return "dashboard";
}

async function main(argv: string[]): Promise<number> {
  // `pitwall jobs …`: the folder's jobs, from another terminal or a script.
  if (argv[0] === "jobs") {
    const { runJobsCommand } = await import("./jobs-command.js");
    return runJobsCommand(argv.slice(1));
  }
  const options = parseCliArgs(argv);
  if (options.help) {
    process.stdout.write(`${HELP.trim()}\n`);
    return 0;
  }
  if (options.version) {
    const { pitwallVersion } = await import("./version.js");
    process.stdout.write(`${pitwallVersion()}\n`);
    return 0;
  }
  // The settings are resolved once, by the mode's entry: the dashboard does it after its first frame.
  const settings = async (): Promise<Settings> => (await import("./settings.js")).resolveSettings(options, process.env);
  switch (chooseMode(options)) {
    case "dashboard": {
      const { runDashboard } = await import("./dashboard-mode.js");
      return runDashboard(options);
    }
    case "json": {
      const { runJsonModeFromCli } = await import("./json-mode.js");
      return runJsonModeFromCli(options, await settings());
    }
    case "print": {
      const { runPrintModeFromCli } = await import("./print-entry.js");
      return runPrintModeFromCli(options, await settings());
    }
    case "export": {
      const { runExportFromCli } = await import("./print-entry.js");
      return runExportFromCli(options, await settings());
    }
    case "system-prompt": {
      const { printSystemPrompt } = await import("./print-entry.js");
      return printSystemPrompt(options, await settings());
    }
  }
}

/** Exits once stdout has flushed (a pipe drains asynchronously), whatever handles are still open. */
function exit(code: number): void {
  // A stdout whose reader left has nothing to flush.
  if (process.stdout.destroyed || !process.stdout.writable) process.exit(code);
  process.stdout.write("", () => process.exit(code));
}

main(process.argv.slice(2)).then(exit, (error: unknown) => {
  if (error instanceof UsageError) {
    process.stderr.write(`pitwall: ${error.message} (see pitwall --help)\n`);
    exit(2);
  } else {
    process.stderr.write(`pitwall: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    exit(1);
  }
});
