// The assembled coding agent: job events on the bus, job exits told to the model with its next
// request, and nothing a tool started left running after dispose.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LocalJobService } from "../../tools/jobs/index.js";
import { codingAgentFor } from "../helpers/agent-harness.js";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";
import { waitFor } from "../helpers/conditions.js";

const llm = useFakeLlm();

const codingAgent = () => codingAgentFor(llm, "coding");

const liveArgs = (): string[] =>
  execFileSync("ps", ["-eo", "stat,args"], { encoding: "utf8" })
    .split("\n")
    .filter((line) => !line.trim().startsWith("Z"))
    .map((line) => line.trim());

describe("the coding agent", () => {
  it("tells the model, with its next request, that a job exited on its own", async () => {
    const { coding, events, cwd } = codingAgent();
    // The job crashes once the first turn is over (a flag file in its folder), not after a second that a loaded machine may outrun.
    llm.enqueue(
      { kind: "reply", toolCalls: [{ name: "bash_stream", arguments: { command: "echo ready; while [ ! -f crash-now ]; do sleep 0.05; done; echo crashing; exit 3", readyPattern: "ready" } }] },
      { kind: "reply", text: "The server is up." },
      { kind: "reply", text: "I see it crashed." },
    );
    await coding.agent.prompt("start the server");
    expect(events.some((e) => e.type === "job_started")).toBe(true);
    expect(llm.requests[1]!.transcript).toMatch(/running/i);
    writeFileSync(join(cwd, "crash-now"), "");
    await waitFor(() => events.some((e) => e.type === "job_exited"), "the job to exit", 15_000);
    await coding.agent.prompt("how is it going?");
    const notice = llm.requests[2]!.transcript;
    expect(notice).toContain("[pitwall notice]");
    expect(notice).toMatch(/exited with code 3/);
    expect(notice).toContain("crashing");
    await coding.dispose();
  });

  it("gets the job service ready for bash once the model's answer begins, after the request went out", async () => {
    const requestsAtPrepare: number[] = [];
    const { coding } = codingAgentFor(llm, "coding", (inputs) => {
      const service = new LocalJobService(inputs);
      service.prepare = () => {
        requestsAtPrepare.push(llm.requests.length);
        return Promise.resolve();
      };
      return service;
    });
    llm.enqueue({ kind: "reply", toolCalls: [{ name: "bash", arguments: { command: "echo hi" } }] }, { kind: "reply", text: "done" });
    await coding.agent.prompt("say hi");
    // Once for each answer: the first when the first request had been sent.
    expect(requestsAtPrepare).toEqual([1, 2]);
    await coding.dispose();
  });

  it("ends what a bash call left in the background when disposed", async () => {
    const { coding } = codingAgent();
    // A length of its own: ps lists the whole machine's processes, a second npm test's copy of this test's too.
    const sleeper = `sleep 293.${process.pid}`;
    llm.enqueue({ kind: "reply", toolCalls: [{ name: "bash", arguments: { command: `${sleeper} & echo started` } }] }, { kind: "reply", text: "ok" });
    await coding.agent.prompt("start a background sleep");
    expect(liveArgs().some((a) => a.includes(sleeper))).toBe(true);
    await coding.dispose();
    expect(liveArgs().some((a) => a.includes(sleeper))).toBe(false);
  });
});
