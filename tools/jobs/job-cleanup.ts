// No orphans: however pitwall ends (a normal exit, Ctrl+C, SIGTERM, SIGHUP, an uncaught error), every
// job's process group ends with it. Signals get the polite path (TERM, grace, KILL); process 'exit'
// runs no async code, so there every group gets KILL at once.
import type { JobRegistry } from "./job-registry.js";

const SIGNAL_EXIT_CODES: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

/** Installs the handlers; returns a function that removes them again. */
export function installJobCleanup(registry: JobRegistry): () => void {
  let ending = false;

  const endWith = (code: number): void => {
    if (ending) {
      // A second signal while shutting down: stop waiting.
      registry.killAllSync();
      process.exit(code);
    }
    ending = true;
    registry.shutdown().then(
      () => process.exit(code),
      () => {
        registry.killAllSync();
        process.exit(code);
      },
    );
  };

  const signalHandlers = new Map<NodeJS.Signals, () => void>();
  for (const [signal, code] of Object.entries(SIGNAL_EXIT_CODES) as [NodeJS.Signals, number][]) {
    const handler = () => endWith(code);
    signalHandlers.set(signal, handler);
    process.on(signal, handler);
  }

  const onUncaught = (error: unknown): void => {
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`pitwall: unexpected error, stopping every job and exiting:\n${text}\n`);
    endWith(1);
  };
  process.on("uncaughtException", onUncaught);

  const onExit = (): void => registry.killAllSync();
  process.on("exit", onExit);

  return () => {
    for (const [signal, handler] of signalHandlers) process.off(signal, handler);
    process.off("uncaughtException", onUncaught);
    process.off("exit", onExit);
  };
}
