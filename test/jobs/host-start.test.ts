// When the launcher starts a job host again (tools/jobs/client/host-start.ts): a host that exits
// cleanly before anyone reached it is followed by another while the folder is there, a few times at
// most; a host that fails, or a folder that is gone, ends the open with the host's own words. Played
// out with the test's own clock, starts and probes: no process, no socket.
import { describe, expect, it } from "vitest";
import { CLEAN_EXIT, MAX_STARTS, startAndReach, type HostStart } from "../../tools/jobs/client/host-start.js";

/** How each started host behaves: exits at once with these words, or runs and answers from the nth probe after its start. */
type FakeHost = { exits: string } | { answersAfterProbes: number } | "silent";

function scenario(hosts: FakeHost[], options: { folderGoneAfterStart?: number; raceWinnerAfterStart?: number } = {}) {
  let clock = 0;
  let starts = 0;
  let probes = 0;
  let probesSinceStart = 0;
  const host: HostStart<string> = {
    start: () => {
      starts++;
      probesSinceStart = 0;
      const behaviour = hosts[starts - 1] ?? "silent";
      return typeof behaviour === "object" && "exits" in behaviour ? Promise.resolve(behaviour.exits) : new Promise<string>(() => {});
    },
    reach: () => {
      probes++;
      probesSinceStart++;
      if (options.raceWinnerAfterStart === starts && probesSinceStart >= 2) return Promise.resolve(`the host another pitwall started (probe ${probes})`);
      const behaviour = hosts[starts - 1];
      if (typeof behaviour === "object" && "answersAfterProbes" in behaviour && probesSinceStart >= behaviour.answersAfterProbes) {
        return Promise.resolve(`host ${starts}`);
      }
      return Promise.resolve(undefined);
    },
    folderExists: () => options.folderGoneAfterStart === undefined || starts < options.folderGoneAfterStart,
    failure: (why) => new Error(`The job host ${why}.`),
    timeoutMs: 15_000,
    retryMs: 20,
    now: () => clock,
    sleep: (ms) => {
      clock += ms;
      return Promise.resolve();
    },
  };
  return { host, starts: () => starts, clock: () => clock };
}

describe("starting a job host until one answers", () => {
  it("a host that answers is used: one start", async () => {
    const s = scenario([{ answersAfterProbes: 3 }]);
    await expect(startAndReach(s.host)).resolves.toBe("host 1");
    expect(s.starts()).toBe(1);
  });

  it("a host that exits cleanly before anyone reached it is followed by another, which is used", async () => {
    const s = scenario([{ exits: CLEAN_EXIT }, { answersAfterProbes: 2 }]);
    await expect(startAndReach(s.host)).resolves.toBe("host 2");
    expect(s.starts()).toBe(2);
  });

  it("a clean exit because another host won the race: that host is used, and none is started again", async () => {
    const s = scenario([{ exits: CLEAN_EXIT }], { raceWinnerAfterStart: 1 });
    await expect(startAndReach(s.host)).resolves.toMatch(/^the host another pitwall started/);
    expect(s.starts()).toBe(1);
  });

  it(`hosts that keep exiting cleanly are started ${MAX_STARTS} times, then the open fails saying so`, async () => {
    const s = scenario(Array.from({ length: MAX_STARTS + 2 }, () => ({ exits: CLEAN_EXIT })));
    await expect(startAndReach(s.host)).rejects.toThrow(`The job host could not start (${CLEAN_EXIT}).`);
    expect(s.starts()).toBe(MAX_STARTS);
  });

  it("a host that fails is not started again: its exit is the error", async () => {
    const s = scenario([{ exits: "exit code 1" }, { answersAfterProbes: 1 }]);
    await expect(startAndReach(s.host)).rejects.toThrow("The job host could not start (exit code 1).");
    expect(s.starts()).toBe(1);
  });

  it("a host killed by a signal is not started again either", async () => {
    const s = scenario([{ exits: "killed by SIGKILL" }, { answersAfterProbes: 1 }]);
    await expect(startAndReach(s.host)).rejects.toThrow("The job host could not start (killed by SIGKILL).");
    expect(s.starts()).toBe(1);
  });

  it("no host is started again for a folder that is gone (a removed home is not served)", async () => {
    const s = scenario([{ exits: CLEAN_EXIT }, { answersAfterProbes: 1 }], { folderGoneAfterStart: 1 });
    await expect(startAndReach(s.host)).rejects.toThrow(`The job host could not start (${CLEAN_EXIT}).`);
    expect(s.starts()).toBe(1);
  });

  it("a host that neither answers nor exits is given up after the time limit, once", async () => {
    const s = scenario(["silent"]);
    await expect(startAndReach(s.host)).rejects.toThrow("The job host did not answer within 15 s.");
    expect(s.starts()).toBe(1);
    expect(s.clock()).toBe(15_000);
  });
});
