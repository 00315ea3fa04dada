// The job host's young generation (process/young-generation.ts): held at its size outside floods,
// let grow in one, and given back after, which V8 alone does not do however long the process idles.
// Runs in this test's own process, whose young generation may grow to V8's default 16 MB a half.
import { afterEach, describe, expect, it } from "vitest";
import { YoungGeneration, youngGenerationBytes } from "../../tools/process/young-generation.js";
import { waitFor } from "../helpers/conditions.js";

const MB = 1024 * 1024;
/** V8 judges its allocation rate over the last 5 s: a collection before then would not shrink anything. */
const V8_RATE_WINDOW_MS = 5_000;
const NEVER = 3_600_000;

/** Allocates as a flood does: 4 KB chunks, each kept while the next ~250 arrive (the log's window). */
function allocateLikeAFlood(chunks: number): void {
  const window: string[] = [];
  for (let i = 0; i < chunks; i++) {
    window.push(`${"x".repeat(4000)}${i}`);
    if (window.length > 250) window.shift();
  }
}

describe("the job host's young generation", () => {
  const made: YoungGeneration[] = [];
  const young = (floodChars: number, windowMs: number, checkMs: number): YoungGeneration => {
    const generation = new YoungGeneration(floodChars, windowMs, checkMs);
    made.push(generation);
    return generation;
  };
  afterEach(() => {
    for (const generation of made.splice(0)) generation.stop();
  });

  it("stays at its size while output trickles, and grows once it floods", () => {
    const generation = young(8 * MB, NEVER, NEVER);
    const before = youngGenerationBytes();
    generation.output(1024);
    allocateLikeAFlood(100_000);
    expect(generation.growthAllowed).toBe(false);
    expect(youngGenerationBytes()).toBeLessThanOrEqual(Math.max(before, 2 * MB));
    generation.output(8 * MB);
    expect(generation.growthAllowed).toBe(true);
    allocateLikeAFlood(200_000);
    expect(youngGenerationBytes()).toBeGreaterThan(4 * MB);
  });

  it("is given back after the flood, which V8 alone keeps for as long as the process idles", async () => {
    young(8 * MB, NEVER, NEVER).output(8 * MB);
    allocateLikeAFlood(200_000);
    const grown = youngGenerationBytes();
    expect(grown).toBeGreaterThan(4 * MB);
    for (const generation of made.splice(0)) generation.stop();
    // The control: idle past V8's window (the one wait here that is the point, not a delay), the
    // young generation is as large as the flood left it.
    const floodEnded = Date.now();
    await waitFor(() => Date.now() - floodEnded > V8_RATE_WINDOW_MS + 500, "V8's allocation window to pass", 20_000);
    expect(youngGenerationBytes()).toBe(grown);
    young(8 * MB, 100, 50);
    await waitFor(() => youngGenerationBytes() <= 2 * MB, "the young generation to shrink", 10_000);
  }, 40_000);
});
