// A resumed conversation's jobs: those last known to be running are found from the job tools'
// results and the notices about the person's jobs, and the model is told they are gone.
import { describe, expect, test } from "vitest";
import { earlierJobsNotice, earlierRunningJobs } from "../../agent/earlier-jobs.js";
import { emptyUsage, type Message } from "../../agent/messages.js";

const at = 0;
function streamCall(id: string, command: string): Message {
  return { role: "assistant", content: [{ type: "toolCall", id, name: "bash_stream", arguments: { command } }], provider: "anthropic", model: "m", usage: emptyUsage(), stopReason: "toolUse", timestamp: at };
}
function result(toolCallId: string, toolName: string, jobId: string, status: string): Message {
  return { role: "toolResult", toolCallId, toolName, content: "", details: { jobId, status, pid: 1 }, isError: false, timestamp: at };
}
function notice(text: string): Message {
  return { role: "user", content: `[pitwall notice]\n${text}`, origin: "notice", timestamp: at };
}

describe("jobs of an earlier run", () => {
  test("the jobs last known to be running, the agent's and the person's; finished, stopped and removed ones are not", () => {
    const messages: Message[] = [
      streamCall("c1", "npm run dev"),
      result("c1", "bash_stream", "1", "running"),
      streamCall("c2", "npm test"),
      result("c2", "bash_stream", "2", "running"),
      result("c3", "poll_process", "2", "completed"),
      notice("The person started job 3: vitest --watch\nThe person started job 4: tail -f log"),
      notice("Job 1 (npm run dev) exited with code 1 after 4.0s. Last lines:\nboom"),
      streamCall("c4", "npm run dev -- --port 3001"),
      result("c4", "bash_stream", "5", "running"),
      notice("The person stopped job 4 (tail -f log)."),
    ];
    expect(earlierRunningJobs(messages)).toEqual([
      { id: "3", command: "vitest --watch" },
      { id: "5", command: "npm run dev -- --port 3001" },
    ]);
    const text = earlierJobsNotice(earlierRunningJobs(messages))!;
    expect(text).toContain("job 3 (vitest --watch), job 5 (npm run dev -- --port 3001)");
    expect(text).toContain("Job ids start again at 1");
    // While the folder's job host still runs jobs, ids go on: the notice must not say they restart.
    const hostRuns = earlierJobsNotice([{ id: "5", command: "npm run dev -- --port 3001" }], { idsContinue: true })!;
    expect(hostRuns).toContain("Job ids go on from the jobs still running");
    expect(hostRuns).not.toContain("start again at 1");
  });

  test("a second resume counts from the notice of the first; no running job, no notice", () => {
    const first = [streamCall("c1", "npm run dev"), result("c1", "bash_stream", "1", "running")];
    const told = notice(earlierJobsNotice(earlierRunningJobs(first))!);
    expect(earlierRunningJobs([...first, told])).toEqual([]);
    expect(earlierJobsNotice([])).toBeUndefined();
  });
});
