// The wake policy on its own: how many runs watch triggers may start while nobody writes, what the
// person is told when wakes start waiting, what re-arms them, what Esc cancels, and that the count
// can be read and given back (a resumed session goes on counting where it stopped).
import { describe, expect, it } from "vitest";
import { MAX_UNATTENDED_WAKES, WakePolicy } from "../../tools/jobs/index.js";

function policy() {
  const told: string[] = [];
  return {
    wakes: new WakePolicy<object>((_count, message) => {
      if (message !== undefined) told.push(message);
    }),
    told,
  };
}

/** Lets `n` triggers wake the agent, as the Agent does: ask, then count the run. */
function wakeTimes(wakes: WakePolicy<object>, n: number): void {
  for (let i = 0; i < n; i++) {
    expect(wakes.mayWake()).toBe(true);
    wakes.woke();
  }
}

describe("when watch triggers may wake the agent", () => {
  it(`lets triggers start ${MAX_UNATTENDED_WAKES} runs without a message from the person, then holds wakes and says so once`, () => {
    const { wakes, told } = policy();
    wakeTimes(wakes, MAX_UNATTENDED_WAKES);
    expect(told).toEqual([]);
    expect(wakes.mayWake()).toBe(false);
    expect(wakes.mayWake()).toBe(false);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/^Watch triggers have woken the agent 5 times since your last message, so their next firings wait in the queue \(merged, nothing lost\)[^]*Send a message/);
  });

  it("a message from the person lets triggers wake the agent again, and a later cap is said again", () => {
    const { wakes, told } = policy();
    wakeTimes(wakes, MAX_UNATTENDED_WAKES);
    expect(wakes.mayWake()).toBe(false);
    wakes.personSpoke();
    wakeTimes(wakes, MAX_UNATTENDED_WAKES);
    expect(wakes.mayWake()).toBe(false);
    expect(told).toHaveLength(2);
  });

  it("a wake deferred while the agent works is due once it is idle, once; Esc cancels the deferred ones", () => {
    const { wakes } = policy();
    const first = {};
    const second = {};
    wakes.deferUntilIdle(first);
    expect(wakes.takeDeferred(first)).toBe(true);
    expect(wakes.takeDeferred(first)).toBe(false);
    wakes.deferUntilIdle(first);
    wakes.deferUntilIdle(second);
    wakes.cancelDeferred();
    expect(wakes.takeDeferred(first)).toBe(false);
    expect(wakes.takeDeferred(second)).toBe(false);
  });

  it("the count read from one policy and restored into another goes on where it was", () => {
    const { wakes } = policy();
    wakeTimes(wakes, MAX_UNATTENDED_WAKES - 1);
    const saved = wakes.count;
    expect(saved).toEqual({ unattended: MAX_UNATTENDED_WAKES - 1, told: false });
    const resumed = policy();
    resumed.wakes.restore(saved);
    wakeTimes(resumed.wakes, 1);
    expect(resumed.wakes.mayWake()).toBe(false);
    expect(resumed.told).toHaveLength(1);
    // Restored after the person was told: not told again until they write.
    const later = policy();
    later.wakes.restore(resumed.wakes.count);
    expect(later.wakes.mayWake()).toBe(false);
    expect(later.told).toEqual([]);
  });
});
