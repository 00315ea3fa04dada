// End to end: how the cockpit is drawn, read from the emulator's cells: colours a person can read
// (the quit question, links), the status line without a model, glyphs every monospace font has,
// selection as one background colour, fenced code, the help table, TERM=linux and NO_COLOR.
import { describe, expect, test } from "vitest";
import { endDashboardsAfterEach, startDashboard, type DashboardSession } from "../helpers/dashboard-session.js";

let session: DashboardSession | undefined;
endDashboardsAfterEach();

describe("drawing", () => {
  test("the quit question is black on yellow, not bold (bold black is grey in many terminals); links are bright blue", async () => {
    session = await startDashboard({ replies: [{ kind: "reply", text: "See [the docs](https://example.com/docs) for more." }] });
    const { t } = session;
    t.type("where are the docs?");
    t.press("Enter");
    await t.waitForText("the docs (https://example.com/docs)");
    const link = t.findCell("the docs (")!;
    expect(link.fg).toBe(12);
    t.type("/run sleep 30");
    t.press("Enter");
    await t.waitForText("1 job up");
    t.press("Ctrl+D");
    await t.waitForText("quit and stop it? y/n");
    const question = t.findCell("1 job running")!;
    expect(question).toMatchObject({ fg: 0, bg: 3, bold: false });
    t.type("n");
    await t.waitForNoText("quit and stop it?");
  }, 40_000);
});
