// What the person sends while the agent is still loading (the dashboard draws its first frame and
// reads keys before the agent's modules have loaded): it is kept, shown as waiting, and sent in
// order once the agent attaches.
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { DashboardController } from "../../app/dashboard-controller.js";
import { loadKeymap } from "../../app/keys/keymap.js";
import { parseCliArgs } from "../../app/cli-options.js";
import { createSetup } from "../../app/session-setup.js";
import { resolveSettings } from "../../app/settings.js";
import { DashboardView } from "../../panes/dashboard-view.js";
import { RenderScheduler } from "../../panes/screen/render-scheduler.js";
import { waitFor } from "../helpers/conditions.js";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";
import { headlessScreen } from "../helpers/headless-screen.js";
import { tempDir } from "../helpers/temp-dir.js";

const llm = useFakeLlm();

describe("prompts sent before the agent has loaded", () => {
  test("wait, say so, and go to the model in order once it attaches", async () => {
    const cwd = tempDir("early-prompt");
    const screen = headlessScreen(100, 30);
    const view = new DashboardView(screen.screen, { cwd, requestFrame: () => undefined, jobScreens: () => undefined });
    const scheduler = new RenderScheduler(screen.screen, { beforeFrame: () => view.relayout() });
    const home = join(cwd, ".home");
    const controller = new DashboardController(view, scheduler, loadKeymap({ home }), { writeTerminal: () => undefined, env: {}, cwd });
    const options = parseCliArgs(["--cwd", cwd], "/");
    const setup = await createSetup(options, resolveSettings(options, { PITWALL_HOME: home, ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: llm.anthropicBaseUrl }));
    try {
      llm.enqueue({ kind: "reply", text: "First answered." }, { kind: "reply", text: "Second answered." });
      view.input.buffer.insert("the early one");
      controller.sending.submitInput("enter");
      controller.sending.send("and a follow-up", "followUp");
      scheduler.frameNow();
      await screen.settle();
      expect(screen.text().join("\n")).toMatch(/Waiting for the agent to load: "the early one"/);
      expect(llm.requests).toHaveLength(0);

      controller.attach(setup);
      await waitFor(() => llm.requests.length === 2 && !setup.coding.agent.state.isStreaming, "both prompts answered");
      expect(llm.requests[0]!.transcript).toContain("the early one");
      expect(llm.requests[1]!.transcript).toContain("and a follow-up");
    } finally {
      scheduler.stop();
      controller.detach();
      screen.destroy();
      setup.session?.close();
      await setup.dispose();
    }
  });
});
