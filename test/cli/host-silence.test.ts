// A job host that stops answering never hangs a turn: an interrupt ends the turn at once whatever
// the host does, and a call that waits on a silent host fails within the silence limit with a
// message saying what happened and what to do (the limit is PITWALL_HOST_SILENCE_MS, shortened here).
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cliEnv, startCli } from "../helpers/cli-process.js";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";
import { jobHostPids, reapJobHosts } from "../helpers/job-hosts.js";
import { JsonLineReader } from "../helpers/json-lines.js";
import { tempDir } from "../helpers/temp-dir.js";

type Event = { type: string; [key: string]: unknown };

const llm = useFakeLlm();
const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) {
    for (const pid of jobHostPids(home)) {
      try {
        process.kill(pid, "SIGCONT");
      } catch {
        // Gone.
      }
    }
    reapJobHosts(home);
  }
});

describe("a job host that stops answering", () => {
  it("an interrupt ends the turn at once; the next call fails within the silence limit, saying what to do", async () => {
    const home = tempDir("home");
    homes.push(home);
    llm.enqueue(
      { kind: "reply", toolCalls: [{ name: "bash", arguments: { command: "echo started; sleep 30" } }] },
      { kind: "reply", toolCalls: [{ name: "bash", arguments: { command: "echo again" } }] },
      { kind: "reply", text: "the host is gone" },
    );
    const env = cliEnv({ apiKey: "sk-test-0123456789", anthropicBaseUrl: llm.anthropicBaseUrl, home, extra: { PITWALL_HOST_SILENCE_MS: "1500" } });
    const child = startCli(["--json", "--no-session"], env, tempDir("cwd"));
    const events = new JsonLineReader<Event>(child.stdout);
    const send = (value: unknown): void => void child.stdin.write(`${JSON.stringify(value)}\n`);
    try {
      send({ type: "message", content: "run the slow thing" });
      await events.waitFor((e) => e.type === "tool_execution_update" && String(e.chunk).includes("started"), 15_000, "the command to start in the host");
      const [host] = jobHostPids(join(home, ".pitwall"));
      process.kill(host!, "SIGSTOP");

      const asked = performance.now();
      send({ type: "interrupt" });
      await events.waitFor((e) => e.type === "agent_end", 15_000, "the turn to end");
      // At once: the host is not waited for (500 ms for it to confirm, then the call is ended here).
      expect(performance.now() - asked).toBeLessThan(1_500);
      const aborted = events.items.find((e) => e.type === "tool_execution_end")!;
      expect(aborted).toMatchObject({ isError: true });
      expect(String(aborted.content)).toMatch(/^Aborted/);

      const sent = performance.now();
      send({ type: "message", content: "try again" });
      const ended = await events.waitFor((e) => e.type === "tool_execution_end" && e !== aborted, 15_000, "the second call to end");
      expect(performance.now() - sent).toBeLessThan(8_000);
      expect(ended).toMatchObject({ isError: true });
      // Which of the two it meets depends on whether the silence let go of the connection first (a
      // loaded machine): the call on the connection, or a new connection's greeting. Both say what to do.
      const next = "`pitwall jobs` shows it; `pitwall jobs stop all` stops it and its jobs, and the next command starts a new one.";
      expect([`The job host (pid ${host}) stopped answering: nothing from it for 1500 ms. ${next}`, `The job host (pid ${host}) did not answer within 5 s. ${next}`]).toContain(ended.content);
      await events.waitFor((e) => e.type === "job_host_state" && e.answering === false, 15_000, "the host to be reported silent");
    } finally {
      child.kill("SIGKILL");
    }
  }, 60_000);
});
