// Settings resolved from the environment reach the jobs: createSetup hands them to the job
// registry, and the jobs it starts inherit the environment. (settings.test.ts resolves them; this
// runs a job, so it belongs with the tests that start processes.)
import { describe, expect, it } from "vitest";
import { parseCliArgs } from "../../app/cli-options.js";
import { createSetup } from "../../app/session-setup.js";
import { resolveSettings } from "../../app/settings.js";
import { waitFor } from "../helpers/conditions.js";
import { tempDir } from "../helpers/temp-dir.js";

describe("settings", () => {
  it("pass the environment down through createSetup to the job registry: jobs inherit it", async () => {
    const cwd = tempDir("settings-cwd");
    const env = { ...process.env, PITWALL_HOME: tempDir("settings"), PITWALL_TEST_MARK: "from-settings", PI_BASH_JOB_TTL_MS: "120000" };
    const options = parseCliArgs(["--no-session", "--cwd", cwd], "/");
    const setup = await createSetup(options, resolveSettings(options, env));
    try {
      expect(setup.coding.jobs.settings.ttlMs).toBe(120_000);
      const jobs = setup.coding.jobs;
      const job = await jobs.start("echo mark=$PITWALL_TEST_MARK");
      await waitFor(() => jobs.get(job.id)?.status === "exited", "the job to end");
      expect((await jobs.text(job.id, "log")).join("\n")).toContain("mark=from-settings");
    } finally {
      await setup.dispose();
    }
  });
});
