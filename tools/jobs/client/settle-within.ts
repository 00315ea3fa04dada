// Waiting for the host without waiting on it: a call's answer if it comes within a time, so a slow
// host never holds up a model request (the answer, when it comes later, is kept for the next).

/** The promise's value if it settles within `ms`, otherwise undefined. */
export async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
