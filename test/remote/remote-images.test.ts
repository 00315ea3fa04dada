// `read` of an image in a remote session: the remote's host (which has no image library) reads the
// file's bytes where the file lives, with the same checks as a local read, and this machine prepares
// them (measured, turned, scaled, re-encoded): the model gets the same content, image and details as
// from a local read of the same file. An image larger than one message crosses in pieces, read from
// the file the remote opened and checked; the cap is a local read's.
// The remote is this machine under the test sshd's HOME; every file is in a folder the test made.
import { mkdirSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as Jobs from "../../tools/jobs/index.js";
import type * as ReadTool from "../../tools/read-tool.js";
import type * as Sandbox from "../../tools/sandbox/index.js";
import type { ToolResult } from "../../tools/tool.js";
import { assertBuilt, REPO_ROOT } from "../helpers/cli-process.js";
import { makeImage, makeNoise } from "../helpers/image-fixtures.js";
import { remoteServiceOn } from "../helpers/remote-service.js";
import { startTestSshd, type TestSshd } from "../helpers/test-sshd.js";
import { tempDir } from "../helpers/temp-dir.js";

let jobs: typeof Jobs;
let readTool: typeof ReadTool;
let sshd: TestSshd;
let service: Jobs.RemoteJobService;
/** The same remote folder under the workspace sandbox: its file tools follow the remote's FileFence. */
let fenced: Jobs.RemoteJobService;

beforeAll(async () => {
  assertBuilt();
  jobs = (await import(join(REPO_ROOT, "dist", "tools", "jobs", "index.js"))) as typeof Jobs;
  readTool = (await import(join(REPO_ROOT, "dist", "tools", "read-tool.js"))) as typeof ReadTool;
  sshd = await startTestSshd();
  service = remoteServiceOn(jobs, sshd);
  const sandbox = (await import(join(REPO_ROOT, "dist", "tools", "sandbox", "index.js"))) as typeof Sandbox;
  const localHome = tempDir("local-home");
  fenced = remoteServiceOn(jobs, sshd, {
    sandbox: { policy: sandbox.sandboxPolicy({ profile: "workspace", home: localHome, pitwallHome: join(localHome, ".pitwall") }), personProfile: "off" },
  });
});
afterAll(async () => {
  await fenced?.shutdown();
  await service?.shutdown();
  await sshd?.stop();
});

const noSignal = (): AbortSignal => new AbortController().signal;

function readThere(filePath: string, through: Jobs.RemoteJobService = service): Promise<ToolResult> {
  return through.runTool({ tool: "read", toolCallId: "r", params: { file_path: filePath }, signal: noSignal(), onUpdate: () => undefined, context: { yieldSignal: noSignal() } });
}

function readHere(cwd: string, filePath: string): Promise<ToolResult> {
  return readTool.createReadTool(cwd).execute("r", { file_path: filePath }, noSignal(), () => undefined, { yieldSignal: noSignal() });
}

/** The same file in a local folder and in a folder on the remote. */
function placeBoth(name: string, bytes: Buffer): { local: string; remote: string } {
  const local = join(tempDir("local-images"), "p");
  const remote = join(sshd.remoteProject, `images-${Math.random().toString(36).slice(2)}`);
  for (const dir of [local, remote]) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, name), bytes);
  }
  return { local, remote };
}

describe("read of an image in a remote session", () => {
  it("gives the model a screenshot on the remote scaled as a local read of the same file gives it, with the same details", async () => {
    const { local, remote } = placeBoth("shot.png", await makeImage(3136, 1960, "png"));
    const here = await readHere(local, "shot.png");
    const there = await readThere(join(remote, "shot.png"));

    expect(there.isError).toBeUndefined();
    expect(there.content).toBe(`[Image ${join(remote, "shot.png")}: 3136×1960 PNG, sent scaled to 1568×980 (multiply coordinates in it by 2.00 for the original's pixels)]`);
    expect(here.content).toBe("[Image shot.png: 3136×1960 PNG, sent scaled to 1568×980 (multiply coordinates in it by 2.00 for the original's pixels)]");
    // The image the model gets: the same bytes, size and name as the local read's.
    expect(there.images).toEqual(here.images);
    expect(there.images?.[0]).toMatchObject({ type: "image", mimeType: "image/png", name: "shot.png", width: 1568, height: 980, original: { width: 3136, height: 1960 } });
    // What the tool-output pane shows: the same details, the file's path being the remote's.
    expect(there.details).toEqual({ ...(here.details as object), path: join(remote, "shot.png") });
    // Nothing of the unprepared bytes is left for the agent or the session.
    expect(there).not.toHaveProperty("unpreparedImage");
  });

  it("reads a small JPEG by a path relative to the remote folder, sent as it is", async () => {
    const bytes = await makeImage(640, 400, "jpeg");
    const { local, remote } = placeBoth("photo.jpg", bytes);
    const relative = join(remote.slice(sshd.remoteProject.length + 1), "photo.jpg");
    const here = await readHere(local, "photo.jpg");
    const there = await readThere(relative);
    expect(there.content).toBe(`[Image ${relative}: 640×400 JPEG]`);
    expect(there.images).toEqual(here.images);
    expect(Buffer.from(there.images![0]!.data, "base64").equals(bytes)).toBe(true);
    expect(there.details).toEqual({ ...(here.details as object), path: join(remote, "photo.jpg") });
  });

  it("reads an image larger than one message in pieces from the file it checked, as a local read takes it", async () => {
    // Noise compresses badly: a PNG of about 6 MB, two pieces of at most 4 MiB.
    const bytes = await makeNoise(1450, 1450, "png");
    expect(bytes.length).toBeGreaterThan(jobs.REMOTE_IMAGE_PIECE_BYTES);
    const { local, remote } = placeBoth("noise.png", bytes);
    const here = await readHere(local, "noise.png");
    const there = await readThere(join(remote, "noise.png"));
    expect(there.images).toHaveLength(1);
    expect(there.images).toEqual(here.images);
    expect(there.details).toEqual({ ...(here.details as object), path: join(remote, "noise.png") });
    expect(there).not.toHaveProperty("unpreparedImage");
  });

  it("refuses an image over the 50 MB a local read takes, with the local read's words", async () => {
    const { local, remote } = placeBoth("huge.png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    // Sparse: 51 MiB of file that takes no room on the disk.
    for (const dir of [local, remote]) truncateSync(join(dir, "huge.png"), 51 * 1024 * 1024);
    const message = (outcome: Promise<ToolResult>): Promise<string> =>
      outcome.then(
        () => "",
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      );
    const refusedHere = await message(readHere(local, "huge.png"));
    expect(refusedHere).toBe("huge.png is 51.0 MB: images over 50.0 MB are not sent. Make a smaller copy first.");
    expect(await message(readThere(join(remote, "huge.png")))).toBe(refusedHere);
  });

  it("refuses a FIFO named like an image on the remote, as a local read does, without blocking its host", async () => {
    const { execFileSync } = await import("node:child_process");
    const remote = join(sshd.remoteProject, "fifo-image");
    mkdirSync(remote, { recursive: true });
    execFileSync("mkfifo", [join(remote, "pipe.png")]);
    await expect(readThere(join(remote, "pipe.png"))).rejects.toThrow("pipe.png is not a regular file (a pipe, socket or device)");
    // The host still answers.
    const { remote: after } = placeBoth("tiny.png", await makeImage(10, 10, "png"));
    expect((await readThere(join(after, "tiny.png"))).content).toContain("10×10 PNG");
  });

  it("refuses an image the sandbox hides on the remote (its ~/.ssh), as it refuses any file there", async () => {
    const secrets = join(sshd.remoteHome, ".ssh");
    mkdirSync(secrets, { recursive: true });
    writeFileSync(join(secrets, "hidden.png"), await makeImage(20, 20, "png"));
    const outcome = await readThere(join(secrets, "hidden.png"), fenced).then(
      (result) => result,
      (error: unknown) => ({ content: error instanceof Error ? error.message : String(error), images: undefined, isError: true }),
    );
    expect(outcome.content).toContain("the sandbox (profile workspace) hides it");
    expect(outcome.images).toBeUndefined();
    // The same sandbox reads an image in the folder.
    const { remote } = placeBoth("shown.png", await makeImage(30, 20, "png"));
    expect((await readThere(join(remote, "shown.png"), fenced)).content).toContain("30×20 PNG");
  });
});
