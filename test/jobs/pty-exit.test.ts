// A pty job hears of its process's exit from node-pty at once, while it still holds the pty's slave
// side (onProcessExit); node-pty itself reports the exit only once the pty has closed, which the
// held slave puts off. This is node-pty's internal behaviour: an upgrade that changes it fails here.
import { closeSync } from "node:fs";
import { spawn } from "node-pty";
import { describe, expect, it } from "vitest";
import { holdSlave, onProcessExit } from "../../tools/jobs/process/pty-process.js";
import { waitFor } from "../helpers/conditions.js";

describe("a pty's exit", () => {
  it("is heard while the slave is held, before node-pty reports it, which it does once the slave is let go", async () => {
    const pty = spawn("/bin/sh", ["-c", "exit 3"], { cols: 80, rows: 24, env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } });
    const slave = holdSlave(pty);
    expect(slave).toBeDefined();
    const events: string[] = [];
    expect(onProcessExit(pty, () => events.push("heard"))).toBe(true);
    pty.onExit(({ exitCode }) => events.push(`reported ${exitCode}`));
    await waitFor(() => events.includes("heard"), "the exit to be heard");
    // node-pty waits for the pty to close (or for its own fallback, 200 ms after the exit).
    expect(events).toEqual(["heard"]);
    closeSync(slave!);
    await waitFor(() => events.length === 2, "node-pty to report the exit");
    expect(events).toEqual(["heard", "reported 3"]);
  });
});
