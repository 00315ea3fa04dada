// signalGroup and groupAlive take the pid of a group's leader. A pid never set, or read from a file
// still being written, must reach nothing: -0 is the caller's own group and -1 every process it may
// signal (as root, the whole machine). Only harmless signals and reads are used here, so a broken
// guard fails the test without harming anything.
import { describe, expect, it } from "vitest";
import { groupAlive, signalGroup } from "../../tools/process-group.js";

describe("process groups", () => {
  it("refuses pids that are no group of ours: 0 (our own group), 1 (everyone), negative, not a number", () => {
    for (const pid of [0, 1, -1, -7, Number.NaN, Number("")]) {
      expect(signalGroup(pid, "SIGCONT"), `signalGroup(${pid})`).toBe(false);
      expect(groupAlive(pid), `groupAlive(${pid})`).toBe(false);
    }
  });
});
