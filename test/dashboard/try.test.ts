import { test } from "vitest";
import { startFakeLlm } from "../fake-llm/index.js";
import { PitwallTerminal } from "../helpers/terminal-harness.js";

test("try", async () => {
  const llm = await startFakeLlm();
  llm.enqueue({ kind: "reply", text: "Let me look.", toolCalls: [{ name: "bash", arguments: { command: "echo hello; ls /" } }] }, { kind: "reply", text: "Done: **all good** 🚀." });
  const t = new PitwallTerminal({ env: { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: llm.anthropicBaseUrl } });
  try {
    await t.waitForText("ready", 10000);
    t.type("hello there");
    t.press("Enter");
    await t.waitForText("all good", 10000);
    console.log(t.screenText());
  } finally {
    console.log(t.screenText());
    await t.close();
    await llm.close();
  }
}, 30000);
