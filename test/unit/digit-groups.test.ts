import { describe, expect, it } from "vitest";
import { groupDigits } from "../../tools/digit-groups.js";

describe("groupDigits", () => {
  it("groups in threes from the right, as toLocaleString('en-US') does", () => {
    for (const n of [0, 7, 999, 1000, 30_000, 194_808, 1_234_567, 1e12, -45_000]) {
      expect(groupDigits(n)).toBe(n.toLocaleString("en-US"));
    }
    expect(groupDigits(30_000, " ")).toBe("30 000");
  });
});
