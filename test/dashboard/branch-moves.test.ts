// While a rewind runs (files being put back, the branch being read from the file), what the person
// sends waits: it goes once the conversation has moved, so it starts on the new branch instead of
// racing the move. Driven through the dashboard's controller on a headless screen, with a real
// setup and session against the fake LLM.
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

/** The roles and texts of a recorded Anthropic request. */
function conversation(index: number): string[] {
  const body = llm.requests[index]!.json as { messages: Array<{ role: string; content: string | Array<{ type: string; text?: string }> }> };
  return body.messages.map((m) => `${m.role}: ${typeof m.content === "string" ? m.content : m.content.map((c) => c.text ?? c.type).join(" | ")}`);
}

describe("a message sent while the session moves", () => {
  test("waits for the rewind and starts on the new branch", async () => {
    const cwd = tempDir("branch-moves");
    const options = parseCliArgs(["--cwd", cwd], "/");
    const setup = await createSetup(options, resolveSettings(options, { PITWALL_HOME: join(cwd, ".home"), ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: llm.anthropicBaseUrl }));
    const screen = headlessScreen(120, 40);
    const view = new DashboardView(screen.screen, { cwd, requestFrame: () => undefined, jobLookup: () => undefined });
    const scheduler = new RenderScheduler(screen.screen, { beforeFrame: () => view.relayout() });
    const controller = new DashboardController(view, scheduler, loadKeymap({ home: join(cwd, ".home") }), { writeTerminal: () => undefined, env: {}, cwd });
    try {
      controller.attach(setup);
      const { agent } = setup.coding;
      llm.enqueue({ kind: "reply", text: "Answer one." }, { kind: "reply", text: "Answer two." }, { kind: "reply", text: "Answer three." });
      for (const [i, text] of ["first", "second"].entries()) {
        controller.send(text, "enter");
        await waitFor(() => agent.state.messages.length === 2 * (i + 1) && !agent.state.isStreaming, `the answer to ${text}`);
      }

      controller.rewind();
      view.picker.pick(); // before "second"
      view.picker.pick(); // conversation only
      expect(controller.branches.moving).toBe(true);
      controller.send("sent during the rewind", "enter");
      expect(llm.requests).toHaveLength(2);

      await waitFor(() => llm.requests.length === 3 && !agent.state.isStreaming, "the waiting message's request");
      expect(conversation(2)).toEqual(["user: first", "assistant: Answer one.", "user: sent during the rewind"]);
    } finally {
      scheduler.stop();
      controller.detach();
      screen.destroy();
      setup.session?.close();
      await setup.dispose();
    }
  }, 30_000);
});
