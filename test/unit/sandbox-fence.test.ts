// The sandbox's rules as the in-process tools and the attribution read them, without starting any
// process: where a path stands (symlinks and `..` resolved first), who may ask for which profile,
// and which output lines are put down to the fence (only those the fence caused).
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FencePlan } from "../../tools/sandbox/fence-plan.js";
import { FenceScanner } from "../../tools/sandbox/fence-scanner.js";
import { FileFence, FenceError } from "../../tools/sandbox/file-fence.js";
import { LoosenRefusedError, modelProfile } from "../../tools/sandbox/model-profile.js";
import { sandboxPolicy, type SandboxPolicy, type SandboxProfile } from "../../tools/sandbox/profiles.js";
import type { CommandFence } from "../../tools/sandbox/command-sandbox.js";
import type { FenceHit } from "../../tools/sandbox/fence-hit.js";
import { tempDir } from "../helpers/temp-dir.js";

/** A working folder with a git repository, a home with a secret and a cache, and a folder outside both. */
function layout() {
  const base = tempDir("fence");
  const cwd = join(base, "work");
  const home = join(base, "home");
  const outside = join(base, "outside");
  for (const dir of [cwd, join(cwd, ".git", "hooks"), join(cwd, ".git", "objects"), join(home, ".ssh"), join(home, ".npm"), outside]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(cwd, ".git", "config"), "[core]\n");
  writeFileSync(join(home, ".ssh", "id_rsa"), "not a real key\n");
  writeFileSync(join(home, ".netrc"), "machine example.com\n");
  writeFileSync(join(outside, "target.txt"), "outside\n");
  symlinkSync(outside, join(cwd, "out-link"));
  const policy = sandboxPolicy({ profile: "workspace", home, pitwallHome: join(cwd, ".pitwall") });
  mkdirSync(join(cwd, ".pitwall"));
  return { base, cwd, home, outside, policy };
}

function fenced(policy: SandboxPolicy, cwd: string, profile: SandboxProfile = policy.profile): CommandFence & { plan: FencePlan } {
  return { profile, state: "fenced", plan: new FencePlan({ cwd, policy }), request: { policy, root: cwd } };
}

function scan(fence: CommandFence & { plan: FencePlan }, ...lines: string[]): Promise<FenceHit[]> {
  const scanner = new FenceScanner(fence);
  scanner.write(lines.map((line) => `${line}\n`).join(""));
  scanner.end();
  return scanner.settled().then(() => scanner.hits);
}

describe("where a path stands in the workspace profile", () => {
  it("the working directory is writable, through `..` and a symlink pointing out it is not", () => {
    const { cwd, outside, policy } = layout();
    const plan = new FencePlan({ cwd, policy });
    expect(plan.placement(join(cwd, "src", "new.ts")).access).toBe("writable");
    expect(plan.placement(join(cwd, "..", "outside", "x")).access).toBe("read-only");
    expect(plan.placement(join(cwd, "out-link", "x"))).toMatchObject({ access: "read-only", why: "outside the writable roots" });
    expect(plan.placement(join(outside, "target.txt")).access).toBe("read-only");
  });

  it("keeps .git/hooks, .git/config and pitwall's own files read-only inside the working directory, the rest of .git writable", () => {
    const { cwd, policy } = layout();
    const plan = new FencePlan({ cwd, policy });
    expect(plan.placement(join(cwd, ".git", "hooks", "pre-commit")).why).toMatch(/^\.git\/hooks stays read-only/);
    expect(plan.placement(join(cwd, ".git", "config")).why).toMatch(/^\.git\/config stays read-only/);
    expect(plan.placement(join(cwd, ".git", "objects", "ab")).access).toBe("writable");
    expect(plan.placement(join(cwd, ".pitwall", "config.json"))).toMatchObject({ access: "read-only", why: expect.stringContaining("pitwall's own files") });
  });

  it("keeps the hooks and config of submodules (.git/modules, names with slashes, nested) read-only too", () => {
    const { cwd, policy } = layout();
    const outer = join(cwd, ".git", "modules", "vendor", "lib");
    const inner = join(outer, "modules", "deep");
    for (const gitDir of [outer, inner]) {
      mkdirSync(join(gitDir, "hooks"), { recursive: true });
      writeFileSync(join(gitDir, "HEAD"), "ref: refs/heads/main\n");
      writeFileSync(join(gitDir, "config"), "[core]\n");
    }
    const plan = new FencePlan({ cwd, policy });
    for (const gitDir of [outer, inner]) {
      expect(plan.placement(join(gitDir, "hooks", "pre-commit")).why).toMatch(/^\.git\/hooks stays read-only/);
      expect(plan.placement(join(gitDir, "config")).why).toMatch(/^\.git\/config stays read-only/);
      expect(plan.placement(join(gitDir, "objects", "ab")).access).toBe("writable");
    }
  });

  it("hides secrets, folders and files alike, and lets builds write the caches that exist", () => {
    const { cwd, home, policy } = layout();
    const plan = new FencePlan({ cwd, policy });
    expect(plan.placement(join(home, ".ssh", "id_rsa")).access).toBe("hidden");
    expect(plan.placement(join(home, ".netrc")).access).toBe("hidden");
    expect(plan.placement(join(home, ".npm", "_cacache", "x")).access).toBe("writable");
    expect(plan.placement(join(home, ".cargo", "registry", "x")).access).toBe("read-only");
    expect(plan.placement(join(home, "notes.txt")).access).toBe("read-only");
  });
});

describe("the file tools' fence", () => {
  it("refuses a write outside the roots, naming the profile and what the person can do; allows it inside", () => {
    const { cwd, outside, policy } = layout();
    const fence = new FileFence(policy, cwd);
    expect(() => fence.checkWrite(join(cwd, "ok.txt"), "ok.txt", "write")).not.toThrow();
    let error: unknown;
    try {
      fence.checkWrite(join(cwd, "out-link", "f.txt"), "out-link/f.txt", "write");
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(FenceError);
    expect((error as Error).message).toContain("the sandbox (profile workspace) keeps it read-only (outside the writable roots)");
    expect((error as Error).message).toContain("sandboxWritable in ~/.pitwall/config.json");
    expect((error as FenceError).hit).toMatchObject({ kind: "read-only", target: join(cwd, "out-link", "f.txt") });
    expect(() => fence.checkWrite(join(outside, "target.txt"), "target.txt", "edit")).toThrow(/Cannot edit target\.txt: the sandbox/);
  });

  it("refuses to read a hidden file, and reads anything else", () => {
    const { cwd, home, policy } = layout();
    const fence = new FileFence(policy, cwd);
    expect(() => fence.checkRead(join(home, ".ssh", "id_rsa"), "~/.ssh/id_rsa")).toThrow(/Cannot read ~\/\.ssh\/id_rsa: the sandbox \(profile workspace\) hides it/);
    expect(() => fence.checkRead(join(home, ".bashrc"), "~/.bashrc")).not.toThrow();
  });

  it("checks nothing under profile off", () => {
    const { cwd, outside, policy } = layout();
    const fence = new FileFence({ ...policy, profile: "off" }, cwd);
    expect(() => fence.checkWrite(join(outside, "target.txt"), "target.txt", "write")).not.toThrow();
  });
});

describe("who may choose the profile of a model's command", () => {
  it("the model may ask for a stricter profile, never a looser one", () => {
    expect(modelProfile(undefined, "workspace")).toBe("workspace");
    expect(modelProfile("strict", "workspace")).toBe("strict");
    expect(() => modelProfile("off", "workspace")).toThrow(LoosenRefusedError);
    expect(() => modelProfile("workspace", "strict")).toThrow(/Only the person can loosen the sandbox/);
  });
});

describe("what is put down to the fence", () => {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
  });

  it("a read-only write outside the roots and to .git/hooks, not a failure of the command's own", async () => {
    const { cwd, outside, policy } = layout();
    const hits = await scan(
      fenced(policy, cwd),
      `touch: cannot touch '${join(outside, "new.txt")}': Read-only file system`,
      "/bin/bash: line 1: .git/hooks/pre-commit: Read-only file system",
      `cat: ${join(cwd, "missing.txt")}: No such file or directory`,
      "ls: cannot access 'nothere': No such file or directory",
    );
    expect(hits.map((hit) => [hit.kind, hit.target])).toEqual([
      ["read-only", join(outside, "new.txt")],
      ["read-only", join(cwd, ".git", "hooks", "pre-commit")],
    ]);
    expect(hits[1]!.why).toMatch(/^\.git\/hooks stays read-only/);
  });

  it("a hidden file only when it exists outside, each path once", async () => {
    const { cwd, home, policy } = layout();
    const hits = await scan(
      fenced(policy, cwd),
      `cat: ${join(home, ".ssh", "id_rsa")}: No such file or directory`,
      `cat: ${join(home, ".ssh", "id_rsa")}: No such file or directory`,
      `cat: ${join(home, ".ssh", "id_ed25519")}: No such file or directory`,
    );
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ kind: "hidden", target: join(home, ".ssh", "id_rsa"), profile: "workspace" });
  });

  it("a hard link across the fence, between places on one file system", async () => {
    const { cwd, home, policy } = layout();
    writeFileSync(join(home, "notes.txt"), "notes\n");
    const hits = await scan(fenced(policy, cwd), `ln: failed to create hard link 'hl' => '${join(home, "notes.txt")}': Invalid cross-device link`);
    expect(hits).toMatchObject([{ kind: "link", target: join(home, "notes.txt") }]);
  });

  it("under strict, a refused loopback port only when something listens on it outside", async () => {
    const { cwd, policy } = layout();
    const server = createServer();
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    const free = createServer();
    await new Promise<void>((resolve) => free.listen(0, "127.0.0.1", resolve));
    const freePort = (free.address() as { port: number }).port;
    await new Promise((resolve) => free.close(resolve));
    const lines = [`curl: (7) Failed to connect to 127.0.0.1 port ${port} after 0 ms: Couldn't connect to server`, `Error: connect ECONNREFUSED 127.0.0.1:${freePort}`];
    expect(await scan(fenced(policy, cwd, "strict"), ...lines)).toMatchObject([{ kind: "network", target: `127.0.0.1:${port}` }]);
    expect(await scan(fenced(policy, cwd, "workspace"), ...lines)).toEqual([]);
  });

  it("pieces together a line cut between two chunks of output", () => {
    const { cwd, outside, policy } = layout();
    const scanner = new FenceScanner(fenced(policy, cwd));
    scanner.write(`first line\ntouch: cannot touch '${join(outside, "cut.txt")}': Read-only fi`);
    scanner.write("le system\nlast line\n");
    expect(scanner.hits.map((hit) => hit.target)).toEqual([join(outside, "cut.txt")]);
  });

  it("reads a flood in part, within its budget, rather than slow it down", () => {
    const { cwd, outside, policy } = layout();
    let now = 0;
    const scanner = new FenceScanner(fenced(policy, cwd), () => undefined, { bytesPerSecond: 1_000, burstBytes: 1_000, now: () => now });
    const filler = `${"x".repeat(98)}\n`.repeat(10);
    scanner.write(filler);
    scanner.write(`touch: cannot touch '${join(outside, "a")}': Read-only file system\n`);
    expect(scanner.hits).toHaveLength(0);
    now += 2_000;
    scanner.write(`touch: cannot touch '${join(outside, "b")}': Read-only file system\n`);
    expect(scanner.hits.map((hit) => hit.target)).toEqual([join(outside, "b")]);
  });
});
