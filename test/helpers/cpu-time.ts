// How long a piece of work took in CPU time, for tests that compare two timings (a long input must
// cost about what a short one does). The clock is the wrong measure on a busy machine: it keeps
// running while the scheduler runs another process, so one preempted run of a few milliseconds can
// look ten times slower. CPU time counts only what this process did. The fast tier runs each file
// in a process of its own at a time (forks), so nothing else's work is counted.

/** Milliseconds of CPU (user and system) this process has used so far. */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Runs `work` and returns the milliseconds of CPU time it took. */
export function cpuTimeOf(work: () => void): number {
  const started = cpuMs();
  work();
  return cpuMs() - started;
}
