// The file tools meet files that are not regular files: a FIFO (named pipe) would block a read or
// a write forever, and a socket is no file to write. They are refused, and left as they were. Making
// a FIFO takes mkfifo and a socket a listening server, so these run in the full tier.
import { execFileSync } from "node:child_process";
import { lstat, symlink } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createEditTool } from "../../tools/edit-tool.js";
import { createReadTool } from "../../tools/read-tool.js";
import { createWriteTool } from "../../tools/write-tool.js";
import { callTool, makeTempDir } from "./harness.js";

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

async function makeFifo(path: string): Promise<void> {
  execFileSync("mkfifo", [path]);
  expect((await lstat(path)).isFIFO()).toBe(true);
}

async function makeSocket(path: string): Promise<void> {
  const server = createServer();
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(path, resolve));
  expect((await lstat(path)).isSocket()).toBe(true);
}

describe("write and edit refuse what is not a regular file", () => {
  it("write refuses a FIFO and leaves it a FIFO", async () => {
    const cwd = await makeTempDir();
    await makeFifo(join(cwd, "pipe"));
    await expect(callTool(createWriteTool(cwd), { file_path: "pipe", content: "x" })).rejects.toThrow(
      "Cannot write pipe: it is a FIFO (named pipe), not a regular file. Nothing was changed",
    );
    expect((await lstat(join(cwd, "pipe"))).isFIFO()).toBe(true);
  });

  it("write refuses a FIFO reached through a symlink", async () => {
    const cwd = await makeTempDir();
    await makeFifo(join(cwd, "pipe"));
    await symlink("pipe", join(cwd, "link"));
    await expect(callTool(createWriteTool(cwd), { file_path: "link", content: "x" })).rejects.toThrow("it is a FIFO");
    expect((await lstat(join(cwd, "pipe"))).isFIFO()).toBe(true);
    expect((await lstat(join(cwd, "link"))).isSymbolicLink()).toBe(true);
  });

  it("edit refuses a FIFO without blocking on it", async () => {
    const cwd = await makeTempDir();
    await makeFifo(join(cwd, "pipe"));
    await expect(callTool(createEditTool(cwd), { file_path: "pipe", old_string: "a", new_string: "b" })).rejects.toThrow(
      "Cannot edit pipe: it is a FIFO (named pipe), not a regular file.",
    );
    expect((await lstat(join(cwd, "pipe"))).isFIFO()).toBe(true);
  });

  it("write and edit refuse a socket", async () => {
    const cwd = await makeTempDir();
    await makeSocket(join(cwd, "app.sock"));
    await expect(callTool(createWriteTool(cwd), { file_path: "app.sock", content: "x" })).rejects.toThrow("it is a socket");
    await expect(callTool(createEditTool(cwd), { file_path: "app.sock", old_string: "a", new_string: "b" })).rejects.toThrow(
      "Cannot edit app.sock: it is a socket",
    );
    expect((await lstat(join(cwd, "app.sock"))).isSocket()).toBe(true);
  });
});

describe("read", () => {
  it("refuses a named pipe instead of blocking on it", async () => {
    const cwd = await makeTempDir();
    await makeFifo(join(cwd, "pipe"));
    await expect(callTool(createReadTool(cwd), { file_path: "pipe" })).rejects.toThrow("pipe is not a regular file");
  });
});
