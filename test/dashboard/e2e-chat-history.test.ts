// End to end: a 5,000-turn session resumed in the dashboard. The chat holds only recent turns;
// Home in the chat reads the rest back from the session file, down to the first turn, and End
// returns to the newest.
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { endDashboardsAfterEach, startDashboard, tempFolder } from "../helpers/dashboard-session.js";
import { writeLongSession } from "../helpers/session-files.js";

endDashboardsAfterEach();

describe("the chat of a long session", () => {
  test("Home in the chat of a resumed 5,000-turn session shows its first turn; End its last", async () => {
    const path = join(tempFolder("sessions"), "long.jsonl");
    writeLongSession(path, { turns: 5_000, resultChars: 200 });
    const { t } = await startDashboard({ args: ["--session", path] });
    await t.waitForText("Part 4999 is fine.", 30_000);
    t.press("Alt+1");
    t.press("Home");
    // The first turn as the chat draws it: the prompt, then the answer that reads, then the next prompt.
    const top = await t.waitForText(/task 0: look at part 0[\s\S]*Reading part 0\.[\s\S]*task 1: look at part 1/, 30_000);
    expect(top).not.toContain("Part 4999 is fine.");
    t.press("End");
    await t.waitForText("Part 4999 is fine.");
  }, 90_000);
});
