// The dashboard's controller around a rewind, on a headless screen with a real setup and session
// against the fake LLM: Esc with queued messages gives them back into the input, and Esc Esc
// rewinds only on an idle, empty input; while a rewind runs (files being put back, the branch read
// from the file), what the person sends waits until the conversation has moved, so it starts on the
// new branch instead of racing the move.
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { DashboardController } from "../../app/dashboard-controller.js";
import { loadKeymap } from "../../app/keys/keymap.js";
import { parseCliArgs } from "../../app/cli-options.js";
import { createSetup, type Setup } from "../../app/session-setup.js";
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

interface Dashboard {
  controller: DashboardController;
  view: DashboardView;
  setup: Setup;
  /** The screen once a frame with everything so far is drawn. */
  screenText(): Promise<string>;
  close(): Promise<void>;
}

async function dashboard(cols = 120, rows = 40): Promise<Dashboard> {
  const cwd = tempDir("branch-moves");
  const options = parseCliArgs(["--cwd", cwd], "/");
  const setup = await createSetup(options, resolveSettings(options, { PITWALL_HOME: join(cwd, ".home"), ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: llm.anthropicBaseUrl }));
  const screen = headlessScreen(cols, rows);
  const view = new DashboardView(screen.screen, { cwd, requestFrame: () => undefined, jobScreens: () => undefined });
  const scheduler = new RenderScheduler(screen.screen, { beforeFrame: () => view.relayout() });
  const controller = new DashboardController(view, scheduler, loadKeymap({ home: join(cwd, ".home") }), { writeTerminal: () => undefined, env: {}, cwd });
  controller.attach(setup);
  return {
    controller,
    view,
    setup,
    async screenText() {
      scheduler.frameNow();
      await screen.settle();
      return screen.text().join("\n");
    },
    async close() {
      scheduler.stop();
      controller.detach();
      screen.destroy();
      setup.session?.close();
      await setup.dispose();
    },
  };
}

/** Sends `text` and waits for the agent to be idle with `messages` messages. */
async function turn(d: Dashboard, text: string, messages: number): Promise<void> {
  d.controller.sending.send(text, "enter");
  await waitFor(() => d.setup.coding.agent.state.messages.length === messages && !d.setup.coding.agent.state.isStreaming, `the answer to ${text}`);
}

describe("the controller around a rewind", () => {
  test("Esc with a queued message aborts and gives it back; Esc Esc then does not rewind until the input is empty", async () => {
    const d = await dashboard();
    try {
      llm.enqueue({ kind: "reply", text: "Answer one." }, { kind: "reply", text: "Thinking", holdOpen: true });
      await turn(d, "first", 2);
      d.controller.sending.send("second", "enter");
      await waitFor(() => d.setup.coding.agent.state.isStreaming && llm.requests.length === 2, "the second request");
      d.controller.sending.send("steer me", "enter");
      d.controller.interrupts.escape(1_000);
      await waitFor(() => !d.setup.coding.agent.state.isStreaming && d.view.input.buffer.text.includes("steer me"), "the steer back in the input");
      d.controller.interrupts.escape(10_000);
      d.controller.interrupts.escape(10_100);
      expect(d.view.picker.open).toBe(false);
      d.view.input.buffer.clear();
      d.controller.interrupts.escape(20_000);
      expect(d.view.picker.open).toBe(false);
      d.controller.interrupts.escape(20_100);
      expect(d.view.picker.open).toBe(true);
      // A second Esc too late is a first one again.
      d.view.picker.cancel();
      d.controller.interrupts.escape(30_000);
      d.controller.interrupts.escape(31_500);
      expect(d.view.picker.open).toBe(false);
    } finally {
      await d.close();
    }
  }, 30_000);

  test("a message sent while a rewind runs waits for it, and starts on the new branch", async () => {
    const d = await dashboard();
    try {
      llm.enqueue({ kind: "reply", text: "Answer one." }, { kind: "reply", text: "Answer two." }, { kind: "reply", text: "Answer three." });
      await turn(d, "first", 2);
      await turn(d, "second", 4);

      d.controller.commands.rewind();
      d.view.picker.pick(); // before "second"
      d.view.picker.pick(); // conversation only
      expect(d.controller.branches.moving).toBe(true);
      d.controller.sending.send("sent during the rewind", "enter");
      expect(llm.requests).toHaveLength(2);

      await waitFor(() => llm.requests.length === 3 && !d.setup.coding.agent.state.isStreaming, "the waiting message's request");
      expect(conversation(2)).toEqual(["user: first", "assistant: Answer one.", "user: sent during the rewind"]);
    } finally {
      await d.close();
    }
  }, 30_000);

  test("on a small screen the question keeps its choices in view, its introduction cut", async () => {
    const d = await dashboard(50, 16);
    try {
      llm.enqueue({ kind: "reply", text: "Answer one." });
      await turn(d, "first", 2);
      d.controller.commands.rewind();
      d.view.picker.pick();
      const screen = await d.screenText();
      expect(screen).toContain("rewind: the files too?");
      expect(screen).toContain("Conversation only");
      expect(screen).toContain("Conversation and files");
      expect(screen).toContain("…");
    } finally {
      await d.close();
    }
  }, 30_000);
});
