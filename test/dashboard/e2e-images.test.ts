// End to end: the real CLI in a pseudo-terminal against the fake LLM. A pasted image path or an
// `@path` becomes a chip in the input, the chat shows the image's line, and the request that
// reaches the server carries the image; a text-only model refuses it before any request; cached
// tokens show in the status line.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { endDashboardsAfterEach, startDashboard, type DashboardSession } from "../helpers/dashboard-session.js";
import { makeImage } from "../helpers/image-fixtures.js";

let session: DashboardSession | undefined;
endDashboardsAfterEach();

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

describe("attaching images in the dashboard", () => {
  test("a pasted path becomes a chip; the image goes with the prompt", async () => {
    session = await startDashboard({
      replies: [{ kind: "reply", text: "A blue rectangle.", usage: { input: 4000, output: 200, cacheRead: 8100 } }],
    });
    const { t, llm, cwd } = session;
    const file = join(cwd, "my shot.png");
    writeFileSync(file, await makeImage(1280, 800));
    // Terminals paste a dropped file as its path, quoted when it has spaces.
    t.type(`${PASTE_START}'${file}'${PASTE_END}`);
    await t.waitForText("› [image: my shot.png]");
    t.type("what is this?");
    await t.waitForText("› [image: my shot.png] what is this?");
    t.press("Enter");
    await t.waitForText("image: my shot.png 1280×800");
    await t.waitForText("A blue rectangle.");
    const request = await llm.waitForRequest(1);
    expect(request.images).toEqual([{ in: "user", mimeType: "image/png", data: readFileSync(file).toString("base64") }]);
    expect(request.transcript).toContain("[image: my shot.png] what is this?");
    // The status line counts the cached tokens apart, inside the total.
    await t.waitForText("12k tok (8.1k cached) · $0.01");
  }, 40_000);

  test("a typed @path becomes a chip once a space follows; a large image is scaled and says so", async () => {
    session = await startDashboard({ replies: [{ kind: "reply", text: "Seen." }] });
    const { t, llm, cwd } = session;
    writeFileSync(join(cwd, "wide.jpg"), await makeImage(3136, 1960, "jpeg"));
    t.type("compare @wide.jpg");
    await t.waitForText("› compare @wide.jpg");
    t.type(" and @missing.png please");
    await t.waitForText("› compare [image: wide.jpg] and @missing.png please");
    t.press("Enter");
    await t.waitForText("image: wide.jpg 3136×1960 (sent at 1568×980)");
    await t.waitForText("Seen.");
    const request = await llm.waitForRequest(1);
    expect(request.images).toHaveLength(1);
    expect(request.images[0]).toMatchObject({ in: "user", mimeType: "image/jpeg" });
    expect(request.transcript).toContain("compare [image: wide.jpg] and @missing.png please");
  }, 40_000);

  test("backspace removes a chip in one press, and its image is not sent", async () => {
    session = await startDashboard({ replies: [{ kind: "reply", text: "Text only." }] });
    const { t, llm, cwd } = session;
    writeFileSync(join(cwd, "a.png"), await makeImage(10, 10));
    t.type("@a.png ");
    await t.waitForText("› [image: a.png]");
    t.press("Backspace"); // the space
    t.press("Backspace"); // the chip
    t.type("hello");
    await t.waitForText(/› hello\s/);
    t.press("Enter");
    await t.waitForText("Text only.");
    expect((await llm.waitForRequest(1)).images).toEqual([]);
  }, 40_000);

  test("a model the table knows to take text only refuses the image before any request", async () => {
    session = await startDashboard({ args: ["--model", "openai/o3-mini"], env: {} });
    const { t, llm, cwd } = session;
    writeFileSync(join(cwd, "b.png"), await makeImage(10, 10));
    t.type("@b.png look");
    t.press("Enter");
    await t.waitForText("Not sent: o3-mini takes text only");
    // The text comes back, chip and all, so nothing typed is lost.
    await t.waitForText("› [image: b.png] look");
    expect(llm.requests).toHaveLength(0);
  }, 40_000);
});
