// Job output for a client that takes all of it (JSON mode, a remote session): a flood reaches its
// socket a batch at a time instead of one write per pty read, output that trickles goes at once, and
// nothing is reordered, held for long or sent after the client went.
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { FrameBatch, OUTPUT_BATCH_CHARS, OUTPUT_BATCH_MS } from "../../tools/jobs/host/frame-batch.js";

let writes: string[];
let batch: FrameBatch;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
  writes = [];
  batch = new FrameBatch((text) => writes.push(text));
});

afterEach(() => {
  batch.drop();
  vi.useRealTimers();
});

describe("a client's output frames", () => {
  test("output after a pause goes to the socket at once", () => {
    batch.output("a\n");
    expect(writes).toEqual(["a\n"]);
    vi.advanceTimersByTime(OUTPUT_BATCH_MS);
    batch.output("b\n");
    expect(writes).toEqual(["a\n", "b\n"]);
  });

  test("output close behind other output goes in one write, in order, within the batch interval", () => {
    batch.output("1\n");
    batch.output("2\n");
    batch.output("3\n");
    expect(writes).toEqual(["1\n"]);
    expect(batch.pending).toBe(4);
    vi.advanceTimersByTime(OUTPUT_BATCH_MS);
    expect(writes).toEqual(["1\n", "2\n3\n"]);
    expect(batch.pending).toBe(0);
  });

  test("a flood goes a full batch at a time, without waiting for the interval", () => {
    const frame = `${"x".repeat(OUTPUT_BATCH_CHARS / 4 - 1)}\n`;
    for (let i = 0; i < 9; i++) batch.output(frame);
    // The first at once, then two batches of four as each filled.
    expect(writes.map((text) => text.length)).toEqual([frame.length, 4 * frame.length, 4 * frame.length]);
    vi.advanceTimersByTime(OUTPUT_BATCH_MS);
    expect(writes.join("")).toBe(frame.repeat(9));
  });

  test("any other frame (an answer, an exit) sends the held output first, in the same write", () => {
    batch.output("out 1\n");
    batch.output("out 2\n");
    batch.frame("exit\n");
    expect(writes).toEqual(["out 1\n", "out 2\nexit\n"]);
    // Nothing is left to go later.
    vi.advanceTimersByTime(OUTPUT_BATCH_MS);
    expect(writes).toHaveLength(2);
    batch.frame("answer\n");
    expect(writes[2]).toBe("answer\n");
  });

  test("nothing held is sent once the client went", () => {
    batch.output("1\n");
    batch.output("2\n");
    batch.drop();
    vi.advanceTimersByTime(10 * OUTPUT_BATCH_MS);
    expect(writes).toEqual(["1\n"]);
  });
});
