// The file tools' table, run twice: by the tools in this process on a local folder, and in a remote
// session (over the test sshd) on the remote's folder, where the job host runs the same tools. Each
// case must hold in both places, and both must answer the same words (paths aside): the guarantees
// (atomic replace, special files refused, bytes and line endings kept, .gitignore-aware search,
// byte caps) are the same code's on either side.
import { execFileSync } from "node:child_process";
import { lstatSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as Jobs from "../../tools/jobs/index.js";
import type * as CodingTools from "../../tools/coding-tools.js";
import type { ToolResult } from "../../tools/tool.js";
import { assertBuilt, REPO_ROOT } from "../helpers/cli-process.js";
import { remoteServiceOn } from "../helpers/remote-service.js";
import { startTestSshd, type TestSshd } from "../helpers/test-sshd.js";
import { tempDir } from "../helpers/temp-dir.js";

type Run = (tool: string, params: Record<string, unknown>) => Promise<ToolResult>;

interface Case {
  name: string;
  /** Makes the files the case needs in `dir` (emptied before each case). */
  setup: (dir: string) => void;
  tool: string;
  params: Record<string, unknown>;
  /** What must hold of the answer (`error`: the call was refused with it) and of the files after. */
  check: (outcome: { result?: ToolResult; error?: string }, dir: string) => void;
}

const write = (dir: string, path: string, content: string | Buffer): void => {
  mkdirSync(join(dir, path, ".."), { recursive: true });
  writeFileSync(join(dir, path), content);
};

const CASES: Case[] = [
  {
    name: "read numbers the lines of a CRLF file",
    setup: (dir) => write(dir, "crlf.txt", "one\r\ntwo\r\n"),
    tool: "read",
    params: { file_path: "crlf.txt" },
    check: ({ result }) => expect(result?.content).toMatch(/1\tone[\s\S]*2\ttwo/),
  },
  {
    name: "read refuses a binary file and says how to look at it",
    setup: (dir) => write(dir, "blob.bin", Buffer.from([0, 1, 2, 3, 0, 255])),
    tool: "read",
    params: { file_path: "blob.bin" },
    check: ({ error, result }) => expect(error ?? result?.content).toMatch(/binary/i),
  },
  {
    name: "read caps a long file's answer in bytes and says how to continue",
    setup: (dir) => write(dir, "long.txt", Array.from({ length: 6000 }, (_, i) => `line ${i + 1}`).join("\n")),
    tool: "read",
    params: { file_path: "long.txt" },
    check: ({ result }) => expect(result?.content).toMatch(/^\[Showing lines 1-\d+ of 6000[\s\S]*offset=\d+/),
  },
  {
    name: "read of a missing file is an error",
    setup: () => undefined,
    tool: "read",
    params: { file_path: "nothing-here.txt" },
    check: ({ error, result }) => expect(error ?? (result?.isError ? result.content : "")).toMatch(/nothing-here\.txt/),
  },
  {
    name: "write creates parent folders and replaces a file atomically, keeping its mode",
    setup: (dir) => {
      write(dir, "script.sh", "old\n");
      execFileSync("chmod", ["755", join(dir, "script.sh")]);
    },
    tool: "write",
    params: { file_path: "script.sh", content: "#!/bin/sh\necho new\n" },
    check: ({ result }, dir) => {
      expect(result?.content).toMatch(/script\.sh/);
      expect(readFileSync(join(dir, "script.sh"), "utf8")).toBe("#!/bin/sh\necho new\n");
      expect(statSync(join(dir, "script.sh")).mode & 0o777).toBe(0o755);
      expect(result?.file?.kind).toBe("write");
    },
  },
  {
    name: "write refuses a FIFO and leaves it a FIFO",
    setup: (dir) => execFileSync("mkfifo", [join(dir, "pipe")]),
    tool: "write",
    params: { file_path: "pipe", content: "x" },
    check: ({ error }, dir) => {
      expect(error).toMatch(/Cannot write pipe: it is a FIFO/);
      expect(lstatSync(join(dir, "pipe")).isFIFO()).toBe(true);
    },
  },
  {
    name: "edit keeps CRLF line endings and a BOM, and returns a diff",
    setup: (dir) => write(dir, "win.txt", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("alpha\r\nbeta\r\n")])),
    tool: "edit",
    params: { file_path: "win.txt", old_string: "beta", new_string: "gamma" },
    check: ({ result }, dir) => {
      expect(readFileSync(join(dir, "win.txt")).equals(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("alpha\r\ngamma\r\n")]))).toBe(true);
      expect(result?.file?.kind === "edit" ? result.file.diff : "").toMatch(/-beta\n\+gamma/);
    },
  },
  {
    name: "edit keeps Latin-1 bytes Latin-1",
    setup: (dir) => write(dir, "latin.txt", Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])),
    tool: "edit",
    params: { file_path: "latin.txt", old_string: "caf", new_string: "th" },
    check: (_, dir) => expect(readFileSync(join(dir, "latin.txt")).equals(Buffer.from([0x74, 0x68, 0xe9, 0x0a]))).toBe(true),
  },
  {
    name: "edit refuses an old_string found twice and changes nothing",
    setup: (dir) => write(dir, "twice.txt", "x = 1\nx = 1\n"),
    tool: "edit",
    params: { file_path: "twice.txt", old_string: "x = 1", new_string: "x = 2" },
    check: ({ error }, dir) => {
      expect(error).toMatch(/2 /);
      expect(readFileSync(join(dir, "twice.txt"), "utf8")).toBe("x = 1\nx = 1\n");
    },
  },
  {
    name: "ls lists a folder, folders marked",
    setup: (dir) => {
      write(dir, "src/a.ts", "");
      write(dir, "README.md", "");
    },
    tool: "ls",
    params: {},
    check: ({ result }) => expect(result?.content).toMatch(/README\.md[\s\S]*src\//),
  },
  {
    name: "find leaves out what .gitignore ignores",
    setup: (dir) => {
      execFileSync("git", ["init", "-q", dir]);
      write(dir, ".gitignore", "dist/\n");
      write(dir, "src/thing.ts", "export const thing = 1;\n");
      write(dir, "dist/thing.js", "exports.thing = 1;\n");
    },
    tool: "find",
    params: { pattern: "**/thing.*" },
    check: ({ result }) => {
      expect(result?.content).toMatch(/src\/thing\.ts/);
      expect(result?.content).not.toMatch(/dist\/thing\.js/);
    },
  },
  {
    name: "grep leaves out what .gitignore ignores",
    setup: (dir) => {
      execFileSync("git", ["init", "-q", dir]);
      write(dir, ".gitignore", "*.log\n");
      write(dir, "app.ts", "const needle = 1;\n");
      write(dir, "debug.log", "needle in a log\n");
    },
    tool: "grep",
    params: { pattern: "needle" },
    check: ({ result }) => {
      expect(result?.content).toMatch(/app\.ts/);
      expect(result?.content).not.toMatch(/debug\.log/);
    },
  },
  {
    name: "grep caps what it returns and says so",
    setup: (dir) => write(dir, "many.txt", Array.from({ length: 20_000 }, (_, i) => `hit number ${i}`).join("\n")),
    tool: "grep",
    params: { pattern: "hit" },
    check: ({ result }) => expect(result?.content.length).toBeLessThan(40_000),
  },
];

let jobs: typeof Jobs;
let tools: typeof CodingTools;
let sshd: TestSshd;
let service: Jobs.RemoteJobService;

beforeAll(async () => {
  assertBuilt();
  jobs = (await import(join(REPO_ROOT, "dist", "tools", "jobs", "index.js"))) as typeof Jobs;
  tools = (await import(join(REPO_ROOT, "dist", "tools", "coding-tools.js"))) as typeof CodingTools;
  sshd = await startTestSshd();
  service = remoteServiceOn(jobs, sshd);
});
afterAll(async () => {
  await service?.shutdown();
  await sshd?.stop();
});

function emptied(dir: string): string {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

async function outcome(run: Run, c: Case): Promise<{ result?: ToolResult; error?: string }> {
  try {
    return { result: await run(c.tool, c.params) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

describe("the file tools, locally and on a remote", () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const local = emptied(join(tempDir("local-project"), "p"));
      const runLocal: Run = (tool, params) =>
        tools.createToolByName(local, tool as CodingTools.ToolName).execute("c", params as never, new AbortController().signal, () => undefined, { yieldSignal: new AbortController().signal });
      c.setup(local);
      const here = await outcome(runLocal, c);
      c.check(here, local);

      const remote = emptied(sshd.remoteProject);
      const runRemote: Run = (tool, params) =>
        service.runTool({ tool: tool as Jobs.ServiceToolName, toolCallId: "c", params, signal: new AbortController().signal, onUpdate: () => undefined, context: { yieldSignal: new AbortController().signal } });
      c.setup(remote);
      const there = await outcome(runRemote, c);
      c.check(there, remote);

      const same = (text: string | undefined, dir: string): string | undefined => text?.split(dir).join("<folder>");
      expect(same(there.error, remote)).toBe(same(here.error, local));
      expect(same(there.result?.content, remote)).toBe(same(here.result?.content, local));
    });
  }
});
