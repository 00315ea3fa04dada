// The remote tests' own sshd (test/helpers/test-sshd.ts): it lets the test's key in on loopback, gives
// the session the test's remote HOME, and its client config checks the host key as ssh always does.
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSshd, type TestSshd } from "../helpers/test-sshd.js";

describe("the test sshd", () => {
  let sshd: TestSshd;
  beforeAll(async () => {
    sshd = await startTestSshd();
  });
  afterAll(async () => {
    await sshd?.stop();
  });

  it("logs the test key in, with the remote HOME of the test", () => {
    const out = execFileSync("ssh", ["-F", sshd.sshConfig, "box", 'echo "$HOME"; command -v node'], { encoding: "utf8" }).split("\n");
    expect(out[0]).toBe(sshd.remoteHome);
    expect(out[1]).toMatch(/node$/);
  });

  it("refuses a host whose key is not known", () => {
    const config = sshd.clientConfig("unknown-key", ["  UserKnownHostsFile /dev/null"]);
    let message = "";
    try {
      execFileSync("ssh", ["-F", config, "box", "true"], { stdio: "pipe", encoding: "utf8" });
    } catch (error) {
      message = String((error as { stderr?: string }).stderr);
    }
    expect(message).toMatch(/Host key verification failed/);
  });
});
