// Quitting asks once while jobs run: y (or asking again) quits and stops them, k quits and keeps them
// running (only when they run in the job host), n keeps everything running.
import { describe, expect, test } from "vitest";
import { QuitFlow } from "../../app/quit-flow.js";

function flow(running: number, canKeep = false) {
  const log: string[] = [];
  const quit = new QuitFlow({
    runningJobs: () => running,
    canKeepJobs: () => canKeep,
    setQuestion: (text) => log.push(`question: ${text ?? "-"}`),
    flash: (text) => log.push(`flash: ${text}`),
    requestFrame: () => undefined,
  });
  const choices: string[] = [];
  quit.onQuit((choice) => choices.push(choice));
  return { quit, log, quits: () => choices.length, choices };
}

describe("quit flow", () => {
  test("with no job running it quits at once, once", () => {
    const f = flow(0);
    f.quit.request();
    f.quit.request();
    expect(f.quits()).toBe(1);
    expect(f.log).toEqual(["question: -"]);
  });

  test("with jobs running it asks; n keeps running, y quits; asking again is a yes", () => {
    const f = flow(3);
    f.quit.request();
    expect(f.quit.asking).toBe(true);
    expect(f.log).toEqual(["question: 3 jobs running: quit and stop them? y/n"]);
    f.quit.answer("no");
    expect(f.quits()).toBe(0);
    expect(f.log.slice(1)).toEqual(["question: -", "flash: not quitting: the jobs keep running"]);
    f.quit.request();
    f.quit.request();
    expect(f.quits()).toBe(1);
    const one = flow(1);
    one.quit.request();
    expect(one.log).toEqual(["question: 1 job running: quit and stop it? y/n"]);
    one.quit.answer("yes");
    expect(one.quits()).toBe(1);
  });

  test("k quits and keeps the jobs running when they can be kept; without the job host it is no answer", () => {
    const f = flow(2, true);
    f.quit.request();
    expect(f.log).toEqual(["question: 2 jobs running: quit and stop them? y/n · k keep them running"]);
    f.quit.answer("keep");
    expect(f.choices).toEqual(["keep"]);
    const local = flow(1, false);
    local.quit.request();
    expect(local.log).toEqual(["question: 1 job running: quit and stop it? y/n"]);
    local.quit.answer("keep");
    expect(local.quits()).toBe(0);
    expect(local.log.at(-1)).toBe("flash: not quitting: the jobs keep running");
    local.quit.request();
    local.quit.request();
    expect(local.choices).toEqual(["stop"]);
  });
});
