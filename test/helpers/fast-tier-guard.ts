// Runs before every file of the fast tier (test/vitest.config.ts): that tier is for tests that
// start no process, no pty and no socket, so that it runs in seconds on any machine. A file that
// starts one anyway fails here, saying which and where it belongs, rather than slowing the tier
// down unnoticed. Worker threads are allowed: they are neither a process nor a socket.
import childProcess, { ChildProcess } from "node:child_process";
import { createRequire, syncBuiltinESMExports } from "node:module";
import net from "node:net";

class FastTierError extends Error {
  constructor(what: string) {
    super(
      `${what}: the fast tier runs no process, no pty and no socket. ` +
        "Move this test file out of FAST in test/vitest.config.ts (or the part of it that needs one into a file of the full tier).",
    );
  }
}

const refuse = (what: string) => (): never => {
  throw new FastTierError(what);
};

// Every asynchronous way to start a process (spawn, exec, execFile, fork) goes through ChildProcess.spawn.
(ChildProcess.prototype as unknown as { spawn: unknown }).spawn = refuse("A child process was started");
for (const name of ["spawnSync", "execSync", "execFileSync"] as const) {
  (childProcess as Record<typeof name, unknown>)[name] = refuse(`A child process was started (${name})`);
}
// `import { spawnSync } from "node:child_process"` sees the change too.
syncBuiltinESMExports();

// Servers (http, the fake LLM, a job host's socket) listen; clients (fetch, a job host's client) connect.
net.Server.prototype.listen = refuse("A server was started");
net.Socket.prototype.connect = refuse("A socket was connected");

// node-pty starts its process natively; its one entry is replaced before any test file imports it.
const pty = createRequire(import.meta.url)("node-pty") as { spawn: unknown };
pty.spawn = refuse("A pty was started");
