// Waiting for a condition with a deadline: tests wait for what they need to see, never for a fixed
// time, so they pass on a loaded machine.

/** Polls `condition` every 20 ms until it holds; throws, naming `what`, after `timeoutMs`. */
export async function waitUntil(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
