// A job's log as the model reads it is capped in bytes as well as in characters: 30 000 characters
// of two-byte text would be 60 KB, past the 50 KB any one result may hold. (The other tools' caps
// are in result-caps.test.ts; this one runs a job.)
import { afterEach, describe, expect, it } from "vitest";
import { createJobTools, JobRegistry } from "../../tools/jobs/index.js";
import type { AgentTool } from "../../tools/tool.js";
import { callTool, makeTempDir } from "./harness.js";

const KB50 = 50 * 1024;
const bytes = (text: string): number => Buffer.byteLength(text);
const registries: JobRegistry[] = [];
afterEach(async () => {
  await Promise.all(registries.splice(0).map((r) => r.shutdown()));
});

describe("byte caps", () => {
  it("job logs: 30 000 characters of multibyte output are cut to 50 KB", async () => {
    const registry = new JobRegistry({ cwd: await makeTempDir(), env: process.env });
    registries.push(registry);
    const tools = new Map(createJobTools(registry).map((t) => [t.name, t as AgentTool]));
    // 2 000 lines of 100 two-byte characters: 200 KB.
    await callTool(tools.get("bash_stream")!, { command: `yes "$(printf 'é%.0s' $(seq 1 100))" | head -n 2000`, stdinMode: "pipe" });
    const log = await callTool(tools.get("get_process_log")!, { jobId: "1", limit: 2000, digest: false });
    expect(log.content).toContain("Lines 1–2000 of 2000");
    expect(bytes(log.content)).toBeLessThanOrEqual(KB50); // the cut lines, and the header and notes around them
    expect(log.content).toContain("cut to head and tail");
    // Without digest: false, that much text comes as a digest: the 2 000 same lines are one.
    const digest = await callTool(tools.get("get_process_log")!, { jobId: "1", limit: 2000 });
    expect(digest.content).toContain("Lines 1–2000 of 2000, 202,000 characters, more than the 30000-character cap, so as a digest:");
    expect(digest.content).toContain("… ×2,000 (lines 1–2000)");
    expect(bytes(digest.content)).toBeLessThan(2_000);
  }, 30_000);
});
