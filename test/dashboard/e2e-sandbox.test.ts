// End to end: the sandbox as the person sees it. A job the fence stops is marked in the jobs pane,
// and the chat says once per job and path what was stopped and what the person can do; the person
// restarts the job under another profile from the jobs pane. Where no sandbox can be made, the
// status line and the chat say so once, and commands run unfenced.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { endDashboardsAfterEach, startDashboard, tempFolder } from "../helpers/dashboard-session.js";
import { waitFor } from "../helpers/conditions.js";
import { requireBubblewrap } from "../sandbox/sandbox-fixture.js";

endDashboardsAfterEach();

beforeAll(async () => {
  await requireBubblewrap();
});

const occurrences = (text: string, part: string): number => text.split(part).length - 1;

describe("the sandbox in the dashboard", () => {
  test("a fenced job is marked, told once per path with what to do, and restarted by the person under profile off", async () => {
    const command = 'for i in 1 2 3; do echo x > "$HOME/a.txt"; done; echo y > "$HOME/b.txt"; echo finished';
    const session = await startDashboard({
      // pitwall's own folder apart from HOME, which is then just outside the writable roots.
      env: { PITWALL_HOME: tempFolder("pitwall-home") },
      replies: [
        { kind: "reply", text: "Writing.", toolCalls: [{ name: "bash_stream", arguments: { command, stdinMode: "pipe", yieldMs: 20_000 } }] },
        { kind: "reply", text: "The sandbox stopped it." },
      ],
    });
    const { t } = session;
    t.type("write the files");
    t.press("Enter");
    await t.waitForText("The sandbox stopped it.");
    const screen = await t.waitForText(/1 for i in .*⊘2 .*exit 0/);
    expect(occurrences(screen, "The sandbox (workspace) stopped job 1")).toBe(2);
    expect(screen).toContain("(outside the");
    expect(screen).toContain("To allow it: add the folder to sandboxWritable");
    expect(screen).toContain("/restart 1 off");
    expect(existsSync(join(t.home, "a.txt"))).toBe(false);

    // p in the jobs pane asks under which profile; the job runs again under off and writes.
    t.press("Alt+3");
    t.type("p");
    await t.waitForText("restart job 1 under");
    await t.waitForText(/● workspace/);
    t.press("Up");
    t.press("Enter");
    await t.waitForText(/1 for i in .* off ↻1 exit 0/);
    await waitFor(() => existsSync(join(t.home, "b.txt")) || undefined, "the job to write under profile off");
    expect(readFileSync(join(t.home, "a.txt"), "utf8")).toBe("x\n");
  });

  test("without bubblewrap, says once that commands run unfenced and how to fix it, and runs them", async () => {
    const session = await startDashboard({
      env: { PITWALL_BWRAP: "/nonexistent/bwrap" },
      replies: [
        { kind: "reply", text: "Writing.", toolCalls: [{ name: "bash", arguments: { command: 'echo written > "$HOME/unfenced.txt" && echo ok' } }] },
        { kind: "reply", text: "Written." },
      ],
    });
    const { t } = session;
    const screen = await t.waitForText("⚠ unfenced");
    await t.waitForText("Commands run unfenced, with your permissions");
    expect(t.screenText()).toContain("install bubblewrap (Debian and Ubuntu: apt install");
    expect(occurrences(screen, "Commands run unfenced")).toBeLessThanOrEqual(1);
    t.type("write it");
    t.press("Enter");
    await t.waitForText("Written.");
    expect(readFileSync(join(t.home, "unfenced.txt"), "utf8")).toBe("written\n");
    expect(occurrences(t.screenText(), "Commands run unfenced")).toBe(1);
  });
});
