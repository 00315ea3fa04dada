// Quitting asks once while jobs run: y (or asking again) quits, n keeps everything running.
import { describe, expect, test } from "vitest";
import { QuitFlow } from "../../app/quit-flow.js";

function flow(running: number) {
  const log: string[] = [];
  const quit = new QuitFlow({
    runningJobs: () => running,
    setQuestion: (text) => log.push(`question: ${text ?? "-"}`),
    flash: (text) => log.push(`flash: ${text}`),
    requestFrame: () => undefined,
  });
  let quits = 0;
  quit.onQuit(() => quits++);
  return { quit, log, quits: () => quits };
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
    f.quit.answer(false);
    expect(f.quits()).toBe(0);
    expect(f.log.slice(1)).toEqual(["question: -", "flash: not quitting: the jobs keep running"]);
    f.quit.request();
    f.quit.request();
    expect(f.quits()).toBe(1);
    const one = flow(1);
    one.quit.request();
    expect(one.log).toEqual(["question: 1 job running: quit and stop it? y/n"]);
    one.quit.answer(true);
    expect(one.quits()).toBe(1);
  });
});
