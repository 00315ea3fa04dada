// When to start a job host again: the loop between starting a host process and reaching it on its
// socket, apart from the processes themselves so that its cases can be played out with a test's own
// clock (test/jobs/host-start.test.ts). host-launcher.ts supplies the real starts and probes.

/** How a host that found nothing to do exits (the launcher's word for it). */
export const CLEAN_EXIT = "exit code 0";
/** Hosts one open may start, when those before it exited cleanly. */
export const MAX_STARTS = 3;

export interface HostStart<T> {
  /** Starts a host process; resolves with why once it exits (normally it outlives the caller). */
  start(): Promise<string>;
  /** One probe of the socket: what answers there, or undefined. */
  reach(): Promise<T | undefined>;
  /** Whether the host's folder is still there (a test's home removed meanwhile is not served). */
  folderExists(): boolean;
  /** The error for a host that never answered or could not start, with its log. */
  failure(why: string): Error;
  /** How long all starts together may take to answer. */
  timeoutMs: number;
  /** The wait between probes. */
  retryMs: number;
  /** The clock (Date.now by default) and the wait between probes (setTimeout by default). */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Starts a host and returns `reach()`'s first answer. A host that exits cleanly (code 0) found
 * nothing to do: another one serves the folder (which may itself be ending, its last client gone),
 * or nobody came: while the folder is still there, another host is started, a few times at most.
 */
export async function startAndReach<T>(host: HostStart<T>): Promise<T> {
  const now = host.now ?? Date.now;
  const sleep = host.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const deadline = now() + host.timeoutMs;
  for (let starts = 1; ; starts++) {
    let early: string | undefined;
    void host.start().then((why) => (early = why));
    while (early === undefined && now() < deadline) {
      await sleep(host.retryMs);
      const reached = await host.reach();
      if (reached !== undefined) return reached;
    }
    if (early === undefined) throw host.failure(`did not answer within ${host.timeoutMs / 1000} s`);
    // It may have exited because another host won the race: that one answers soon.
    const again = await host.reach();
    if (again !== undefined) return again;
    if (early !== CLEAN_EXIT || starts >= MAX_STARTS || !host.folderExists() || now() >= deadline) {
      throw host.failure(`could not start (${early})`);
    }
  }
}
