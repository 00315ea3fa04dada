// What a notification is made of: OSC 9, or OSC 777 where the terminal prefers it, wrapped for
// tmux's passthrough with a bell beside it, a bell for a terminal known to show neither; and when it
// is sent: only while the person is not looking (focus-out, or no key for a while without focus
// reports), saying in a few words what happened.
import { describe, expect, it } from "vitest";
import { notificationBytes, Notifier } from "../../app/notifications.js";
import type { PitwallEvent } from "../../agent/events.js";
import type { AssistantMessage } from "../../agent/messages.js";

const reply = (stopReason: AssistantMessage["stopReason"], errorMessage?: string): PitwallEvent =>
  ({ type: "agent_end", messages: [{ role: "assistant", content: [], stopReason, errorMessage, timestamp: 0 } as unknown as AssistantMessage] }) as PitwallEvent;

describe("notification bytes", () => {
  it("speaks each terminal's sequence, through tmux too, and rings a bell elsewhere", () => {
    expect(notificationBytes("pitwall: turn done", "osc", { TERM_PROGRAM: "iTerm.app" })).toBe("\x1b]9;pitwall: turn done\x07");
    expect(notificationBytes("pitwall: turn done", "osc", { TERM: "foot" })).toBe("\x1b]777;notify;pitwall;pitwall: turn done\x07");
    expect(notificationBytes("pitwall: turn done", "osc", { TERM: "xterm-256color" })).toBe("\x07");
    expect(notificationBytes("pitwall: turn done", "osc", { TERM: "screen", TMUX: "/tmp/tmux-0/default,1,0" })).toBe("\x1bPtmux;\x1b\x1b]9;pitwall: turn done\x07\x1b\\\x07");
    expect(notificationBytes("pitwall: turn done", "bell", { TERM_PROGRAM: "WezTerm" })).toBe("\x07");
    expect(notificationBytes("pitwall: turn done", "off", { TERM_PROGRAM: "WezTerm" })).toBe("");
    // Nothing the text holds can end the sequence early.
    expect(notificationBytes("a\x07b;c\x1b", "osc", { TERM_PROGRAM: "WezTerm" })).toBe("\x1b]9;a b c \x07");
  });
});

describe("the notifier", () => {
  function notifier(idleMs = 1000): { n: Notifier; written: string[]; clock: { now: number } } {
    const written: string[] = [];
    const clock = { now: 0 };
    const n = new Notifier({ mode: "osc", idleMs }, { write: (bytes) => written.push(bytes), env: { TERM_PROGRAM: "WezTerm" }, now: () => clock.now });
    return { n, written, clock };
  }

  it("without focus reports, waits for a while without keys; with them, follows the focus alone", () => {
    const { n, written, clock } = notifier();
    n.onEvent(reply("stop"));
    expect(written).toEqual([]);
    clock.now = 1500;
    n.onEvent(reply("stop"));
    expect(written).toEqual(["\x1b]9;pitwall: turn done\x07"]);
    n.focus(true);
    n.onEvent(reply("stop"));
    expect(written).toHaveLength(1);
    n.focus(false);
    n.keyPressed();
    n.onEvent(reply("stop"));
    expect(written).toHaveLength(2);
  });

  it("says how many files the turn changed, an error, and a trigger's line; an Esc is not news", () => {
    const { n, written } = notifier();
    n.focus(false);
    n.onEvent({ type: "agent_start" });
    for (const path of ["a.ts", "b.ts", "a.ts", "c.ts"]) n.onEvent({ type: "file_change", toolCallId: "t", path, before: null, after: { hash: "x", size: 1 } } as unknown as PitwallEvent);
    n.onEvent(reply("stop"));
    n.onEvent({ type: "agent_start" });
    n.onEvent(reply("error", "Anthropic is overloaded (529)"));
    n.onEvent(reply("aborted"));
    n.onEvent({ type: "job_triggered", jobId: "2", command: "npm test", trigger: { pattern: "FAIL" }, lines: [{ n: 4, text: "  ok 1", match: false }, { n: 5, text: " 3 tests failed ", match: true }], matches: 1, firedAt: 0 } as unknown as PitwallEvent);
    expect(written).toEqual([
      "\x1b]9;pitwall: turn done · 3 files changed\x07",
      "\x1b]9;pitwall: stopped on an error: Anthropic is overloaded (529)\x07",
      "\x1b]9;pitwall: job 2: 3 tests failed\x07",
    ]);
  });

  it("names the agent when the dashboard has several, and counts each agent's files apart", () => {
    const { n, written } = notifier();
    n.focus(false);
    n.onEvent({ type: "agent_start" }, "tests");
    n.onEvent({ type: "agent_start" }, "main");
    n.onEvent({ type: "file_change", toolCallId: "t", path: "a.ts", before: null, after: { hash: "x", size: 1 } } as unknown as PitwallEvent, "main");
    n.onEvent(reply("stop"), "tests");
    n.onEvent(reply("stop"), "main");
    expect(written).toEqual(["\x1b]9;pitwall: agent tests: turn done\x07", "\x1b]9;pitwall: agent main: turn done · 1 file changed\x07"]);
  });
});
