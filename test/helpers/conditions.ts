// The one way tests wait: for a condition, with a deadline, never for a fixed time, so they pass on a
// loaded machine.

/**
 * Polls `condition` every 20 ms until it gives a value other than false, undefined or null, and
 * returns that value; throws, naming `what`, after `timeoutMs`.
 */
export async function waitFor<T>(condition: () => T | Promise<T>, what: string, timeoutMs = 15_000): Promise<Exclude<T, false | undefined | null>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value !== false && value !== undefined && value !== null) return value as Exclude<T, false | undefined | null>;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
