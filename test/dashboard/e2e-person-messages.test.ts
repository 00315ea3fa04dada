// End to end: what the person reads is written for the person. A refused job action says what
// happened in their words (never the model's "list_processes shows them"); the status line says an
// action is under way only while it is, then how it went.
import { describe, expect, test } from "vitest";
import { forThePerson } from "../../app/person-errors.js";
import { endDashboardsAfterEach, startDashboard, type DashboardSession } from "../helpers/dashboard-session.js";
import { JobInputLimitError, JobLimitError, NoSuchJobError } from "../../tools/jobs/index.js";

let session: DashboardSession | undefined;
endDashboardsAfterEach();

describe("messages for the person", () => {
  test("/kill of a job that does not exist says so in the person's words; a restart's flash says when it is done", async () => {
    session = await startDashboard();
    const { t } = session;
    t.type("/run sleep 30.75");
    t.press("Enter");
    await t.waitForText(/▶ 1 sleep 30\.75\s+up/);
    t.type("/kill 99");
    t.press("Enter");
    const screen = await t.waitForText("Could not stop job 99: there is no job 99 (jobs: 1).");
    expect(screen).not.toMatch(/list_processes|stopping job 99|Could not stopping/);
    t.type("/restart 1");
    t.press("Enter");
    await t.waitForText(/▶ 1 sleep 30\.75\s+↻1 up/);
    await t.waitForText("restarted job 1");
    await t.waitForNoText(/restart(ing|ed) job 1/);
  }, 40_000);

  test("the registry's refusals, in the person's words", () => {
    expect(forThePerson(new NoSuchJobError("7", ["1", "2"]))).toBe("there is no job 7 (jobs: 1, 2)");
    expect(forThePerson(new NoSuchJobError("7", []))).toBe("there is no job 7 (there are no jobs)");
    expect(forThePerson(new JobLimitError(16, 16))).toBe("16 jobs are running, the most pitwall runs at once: stop one first (x in the jobs pane, or /kill <id>)");
    expect(forThePerson(new JobInputLimitError("3", 262_000, 262_144))).toBe("job 3 has taken 256 KiB of typed input, the most one job takes");
    for (const error of [new NoSuchJobError("7", []), new JobLimitError(16, 16)]) expect(forThePerson(error)).not.toMatch(/list_processes|kill_process/);
  });
});
