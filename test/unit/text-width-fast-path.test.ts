// The width code splits text into graphemes without ICU's segmenter when every UTF-16 unit is a
// grapheme of its own; this checks that claim against the segmenter for every unit it covers.
import { describe, expect, it } from "vitest";
import { graphemes, SINGLE_UNIT_GRAPHEMES, textWidth } from "../../panes/text/text-width.js";

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

function coveredUnits(): string[] {
  const units: string[] = [];
  for (let code = 0; code < 0xd800; code++) {
    const ch = String.fromCharCode(code);
    if (SINGLE_UNIT_GRAPHEMES.test(ch)) units.push(ch);
  }
  return units;
}

describe("graphemes without the segmenter", () => {
  it("covers only units the segmenter never joins to a neighbour", () => {
    const units = coveredUnits();
    expect(units.length).toBeGreaterThan(3_000);
    // Each unit after each kind of neighbour: ASCII, itself, and the next covered unit.
    for (const [i, unit] of units.entries()) {
      const text = `a${unit}${unit}${units[(i + 1) % units.length]}b`;
      expect([...segmenter.segment(text)].map((s) => s.segment)).toEqual(text.split(""));
    }
  });

  it("still segments what joins: combining marks, ZWJ emoji, flags", () => {
    expect(graphemes("e\u0301─")).toEqual(["e\u0301", "─"]);
    expect(graphemes("👩\u200d💻│")).toEqual(["👩\u200d💻", "│"]);
    expect(graphemes("🇫🇷")).toEqual(["🇫🇷"]);
    expect(textWidth("┌─ chat ─┐")).toBe(10);
    expect(textWidth("日本")).toBe(4);
  });
});
