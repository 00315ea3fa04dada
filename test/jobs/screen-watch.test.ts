// The screen watch: someone looks at a job's terminal, and gets the view at once, then only the rows
// that changed, a scroll at once, and fewer updates while the job floods.
import { describe, expect, test } from "vitest";
import { emulator } from "../helpers/test-emulator.js";
import { applyScreenUpdate, screenText, type ScreenUpdate } from "../../tools/jobs/terminal/screen-state.js";
import { FLOOD_UPDATE_MS, ScreenWatch } from "../../tools/jobs/terminal/screen-watch.js";
import { waitFor } from "../helpers/conditions.js";


describe("the screen watch", () => {
  test("sends the view at once, then only the rows that changed, and a scroll at once", async () => {
    const t = await emulator(12, 3, "one\r\ntwo\r\nthree");
    let writes: (() => void) | undefined;
    const source = { terminal: t, disposed: false, flooding: false, onTerminalWrite: (l: () => void) => ((writes = l), () => (writes = undefined)) };
    const updates: ScreenUpdate[] = [];
    const watch = new ScreenWatch(source, (u) => void updates.push(u), 5);
    await waitFor(() => updates.length === 1, "the first update");
    expect(updates[0]!.changed.map(([row]) => row)).toEqual([0, 1, 2]);
    let state = applyScreenUpdate(undefined, updates[0]!);
    expect(screenText(state)).toEqual(["one", "two", "three"]);
    await new Promise<void>((resolve) => t.write("\r\x1b[2Kthird", resolve));
    writes!();
    await waitFor(() => updates.length === 2, "the second update");
    expect(updates[1]!.changed).toEqual([[2, [[-1, -1, 0, "third"]]]]);
    state = applyScreenUpdate(state, updates[1]!);
    expect(screenText(state)).toEqual(["one", "two", "third"]);
    // Nothing changed: nothing is sent.
    writes!();
    await new Promise((r) => setTimeout(r, 30));
    expect(updates).toHaveLength(2);
    await new Promise<void>((resolve) => t.write("\r\nfour\r\nfive", resolve));
    writes!();
    await waitFor(() => updates.length === 3, "the third update");
    state = applyScreenUpdate(state, updates[2]!);
    expect(state.baseY).toBe(2);
    watch.scroll({ to: "top" });
    await waitFor(() => updates.length === 4, "the scroll");
    state = applyScreenUpdate(state, updates[3]!);
    expect(state.viewportY).toBe(0);
    expect(screenText(state)).toEqual(["one", "two", "third"]);
    watch.dispose();
  });

  test("backs off while the job floods: updates come FLOOD_UPDATE_MS apart, not a frame apart", async () => {
    const t = await emulator(12, 3, "start");
    let writes: (() => void) | undefined;
    const source = { terminal: t, disposed: false, flooding: true, onTerminalWrite: (l: () => void) => ((writes = l), () => (writes = undefined)) };
    const sentAt: number[] = [];
    const watch = new ScreenWatch(source, () => void sentAt.push(performance.now()), 5);
    await waitFor(() => sentAt.length === 1, "the first update");
    for (const line of ["one", "two"]) {
      await new Promise<void>((resolve) => t.write(`\r\n${line}`, resolve));
      writes!();
      await waitFor(() => sentAt.length === (line === "one" ? 2 : 3), `the update with ${line}`);
    }
    // A load only lengthens the gaps. Node's timers count whole milliseconds from the loop's cached
    // time, so one may fire a millisecond or two before performance.now() says the interval is up:
    // the bound allows that, and stays far above the 5 ms interval the watch uses when not flooding.
    expect(sentAt[1]! - sentAt[0]!).toBeGreaterThanOrEqual(FLOOD_UPDATE_MS - 5);
    expect(sentAt[2]! - sentAt[1]!).toBeGreaterThanOrEqual(FLOOD_UPDATE_MS - 5);
    watch.dispose();
  });
});
