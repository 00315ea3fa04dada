// Escape attempts, each made as the model would make it (a tool call through the agent), against
// folders the test made outside the working directory: each must fail, the model must read that it
// was the sandbox, and the same work inside the working directory must succeed.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";
import { call, FAKE_KEY, fencedAgent, requireBubblewrap, type FencedAgent } from "./sandbox-fixture.js";

const llm = useFakeLlm();
let agent: FencedAgent;

beforeAll(async () => {
  await requireBubblewrap();
  agent = fencedAgent(llm);
});

afterAll(async () => {
  await agent?.coding.dispose();
});

const bash = (command: string, extra: Record<string, unknown> = {}) => call(llm, agent, "bash", { command, ...extra });

describe("a write through bash", () => {
  it("outside the working directory fails, and the model reads that the sandbox stopped it; inside it is written", async () => {
    const intoHome = await bash(`echo escaped > ${agent.home}/escaped.txt`);
    expect(intoHome.isError).toBe(true);
    expect(intoHome.content).toContain("Read-only file system");
    expect(intoHome.content).toContain(`[sandbox] The sandbox (profile workspace) stopped writing ${agent.home}/escaped.txt (outside the writable roots)`);
    expect(intoHome.content).toContain("not a bug in the command");
    expect(existsSync(join(agent.home, "escaped.txt"))).toBe(false);

    // A folder under the real /tmp is not even there: the sandbox's /tmp is its own.
    const intoOutside = await bash(`echo escaped > ${agent.outside}/escaped.txt`);
    expect(intoOutside.isError).toBe(true);
    expect(intoOutside.content).toContain(`[sandbox] The sandbox (profile workspace) stopped reaching ${agent.outside}`);
    expect(existsSync(join(agent.outside, "escaped.txt"))).toBe(false);

    const inside = await bash("echo kept > inside.txt && cat inside.txt");
    expect(inside.isError).toBe(false);
    expect(inside.content).toBe("kept");
    expect(inside.content).not.toContain("[sandbox]");
    expect(readFileSync(join(agent.cwd, "inside.txt"), "utf8")).toBe("kept\n");
  });

  it("through a symlink in the working directory that points out fails; one that points inside works", async () => {
    const out = await bash(`ln -s ${agent.home} home-link && echo escaped > home-link/escaped-link.txt`);
    expect(out.isError).toBe(true);
    expect(out.content).toContain("[sandbox]");
    expect(existsSync(join(agent.home, "escaped-link.txt"))).toBe(false);
    const inside = await bash("mkdir -p sub && ln -s sub sub-link && echo fine > sub-link/via-link.txt && cat sub/via-link.txt");
    expect(inside).toMatchObject({ isError: false, content: "fine" });
  });

  it("through `..` fails; `..` that stays inside works", async () => {
    const out = await bash("echo escaped > ../home/escaped-dots.txt");
    expect(out.isError).toBe(true);
    expect(out.content).toContain(`stopped writing ${agent.home}/escaped-dots.txt (outside the writable roots)`);
    expect(existsSync(join(agent.home, "escaped-dots.txt"))).toBe(false);
    const inside = await bash("mkdir -p a && echo fine > a/../dots.txt && cat dots.txt");
    expect(inside).toMatchObject({ isError: false, content: "fine" });
  });

  it("through a hard link fails (it cannot be made across the fence) and the file outside is unchanged; inside, links work", async () => {
    const out = await bash(`ln ${agent.home}/target.txt hard-link && echo changed >> hard-link`);
    expect(out.isError).toBe(true);
    expect(out.content).toContain("Invalid cross-device link");
    expect(out.content).toContain(`[sandbox] The sandbox (profile workspace) stopped hard-linking ${agent.home}/target.txt`);
    expect(readFileSync(join(agent.home, "target.txt"), "utf8")).toBe("keep me\n");
    const inside = await bash("echo one > own.txt && ln own.txt own-link && echo two >> own-link && cat own.txt");
    expect(inside).toMatchObject({ isError: false, content: "one\ntwo" });
  });
});

describe("git's own files", () => {
  it("a hook cannot be written, nor .git/config; commits still work", async () => {
    const hook = await bash("printf '#!/bin/sh\\necho pwned\\n' > .git/hooks/pre-commit");
    expect(hook.isError).toBe(true);
    expect(hook.content).toContain(".git/hooks stays read-only");
    expect(existsSync(join(agent.cwd, ".git", "hooks", "pre-commit"))).toBe(false);
    const config = await bash("git config core.hooksPath ../home");
    expect(config.isError).toBe(true);
    expect(readFileSync(join(agent.cwd, ".git", "config"), "utf8")).not.toContain("hooksPath");
    const commit = await bash("echo change >> README.md && git -c user.name=agent -c user.email=agent@example.com commit -qam change && git log --oneline | wc -l");
    expect(commit).toMatchObject({ isError: false, content: "2" });
  });

  it("a submodule's hook and config (in .git/modules) cannot be written either; its objects can", async () => {
    // A submodule's git folder as `git submodule add` leaves it, made from outside the sandbox.
    const submodule = join(agent.cwd, ".git", "modules", "vendor", "lib");
    mkdirSync(join(submodule, "hooks"), { recursive: true });
    mkdirSync(join(submodule, "objects"), { recursive: true });
    writeFileSync(join(submodule, "HEAD"), "ref: refs/heads/main\n");
    writeFileSync(join(submodule, "config"), "[core]\n");
    const hook = await bash("printf '#!/bin/sh\\necho pwned\\n' > .git/modules/vendor/lib/hooks/post-checkout");
    expect(hook.isError).toBe(true);
    expect(hook.content).toContain(".git/hooks stays read-only");
    expect(existsSync(join(submodule, "hooks", "post-checkout"))).toBe(false);
    const config = await bash("printf '[core]\\n\\tfsmonitor = touch pwned\\n' >> .git/modules/vendor/lib/config");
    expect(config.isError).toBe(true);
    expect(readFileSync(join(submodule, "config"), "utf8")).toBe("[core]\n");
    expect(await bash("echo x > .git/modules/vendor/lib/objects/new && cat .git/modules/vendor/lib/objects/new")).toMatchObject({ isError: false, content: "x" });
  });
});

describe("pitwall's own files", () => {
  it("a command cannot loosen the sandbox through config.json or reach the job hosts, even inside the working directory", async () => {
    const inside = fencedAgent(llm, "workspace", { pitwallHomeInCwd: true });
    try {
      const config = join(inside.cwd, ".pitwall", "config.json");
      mkdirSync(join(inside.cwd, ".pitwall", "hosts", "abc"), { recursive: true });
      writeFileSync(config, '{ "sandbox": "workspace" }\n');
      writeFileSync(join(inside.cwd, ".pitwall", "hosts", "abc", "host.pid"), "1\n");
      const loosen = await call(llm, inside, "bash", { command: `echo '{ "sandbox": "off" }' > .pitwall/config.json` });
      expect(loosen.isError).toBe(true);
      expect(loosen.content).toContain(`stopped writing ${config} (pitwall's own files`);
      const write = await call(llm, inside, "write", { file_path: ".pitwall/config.json", content: '{ "sandbox": "off" }\n' });
      expect(write.isError).toBe(true);
      expect(write.content).toContain("pitwall's own files (config, sessions, job hosts) stay read-only");
      expect(readFileSync(config, "utf8")).toBe('{ "sandbox": "workspace" }\n');
      expect(await call(llm, inside, "bash", { command: "ls -A .pitwall/hosts | wc -l" })).toMatchObject({ isError: false, content: "0" });
      expect(await call(llm, inside, "bash", { command: "echo kept > settings.json && cat settings.json" })).toMatchObject({ isError: false, content: "kept" });
    } finally {
      await inside.coding.dispose();
    }
  });
});

describe("secrets", () => {
  it("a fake ~/.ssh/id_rsa under the test HOME cannot be read, by bash or by read; other files of HOME can", async () => {
    const catKey = await bash("cat ~/.ssh/id_rsa");
    expect(catKey.isError).toBe(true);
    expect(catKey.content).not.toContain(FAKE_KEY);
    expect(catKey.content).toContain(`stopped reaching ${agent.home}/.ssh/id_rsa (hidden: secrets`);
    const readKey = await call(llm, agent, "read", { file_path: join(agent.home, ".ssh", "id_rsa") });
    expect(readKey.isError).toBe(true);
    expect(readKey.content).not.toContain(FAKE_KEY);
    expect(readKey.content).toContain("the sandbox (profile workspace) hides it");
    expect(readKey.content).toContain("--sandbox off");
    expect(await bash("cat ~/notes.txt")).toMatchObject({ isError: false, content: "notes of the person" });
    const readNotes = await call(llm, agent, "read", { file_path: join(agent.home, "notes.txt") });
    expect(readNotes.isError).toBe(false);
    expect(readNotes.content).toContain("notes of the person");
  });
});

describe("write and edit", () => {
  it("refuse a file outside the writable roots, with the profile and what the person can do; inside they work", async () => {
    const write = await call(llm, agent, "write", { file_path: join(agent.outside, "written.txt"), content: "escaped\n" });
    expect(write.isError).toBe(true);
    expect(write.content).toContain("the sandbox (profile workspace) keeps it read-only (outside the writable roots)");
    expect(write.content).toContain("sandboxWritable in ~/.pitwall/config.json");
    expect(write.details).toMatchObject({ fence: [{ kind: "read-only", target: join(agent.outside, "written.txt") }] });
    expect(existsSync(join(agent.outside, "written.txt"))).toBe(false);

    const edit = await call(llm, agent, "edit", { file_path: join(agent.home, "target.txt"), old_string: "keep me", new_string: "edited" });
    expect(edit.isError).toBe(true);
    expect(edit.content).toContain("Cannot edit");
    expect(readFileSync(join(agent.home, "target.txt"), "utf8")).toBe("keep me\n");

    const hook = await call(llm, agent, "write", { file_path: ".git/hooks/post-checkout", content: "#!/bin/sh\n" });
    expect(hook.isError).toBe(true);
    expect(hook.content).toContain(".git/hooks stays read-only");

    expect(await call(llm, agent, "write", { file_path: "notes/written.txt", content: "inside\n" })).toMatchObject({ isError: false });
    expect(await call(llm, agent, "edit", { file_path: "notes/written.txt", old_string: "inside", new_string: "edited inside" })).toMatchObject({ isError: false });
    expect(readFileSync(join(agent.cwd, "notes", "written.txt"), "utf8")).toBe("edited inside\n");
  });
});

describe("strict", () => {
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    server = createServer((_request, response) => response.end("served outside\n"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const connect = (): string => `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && tail -n 1 <&3`;

  it("a connection to a loopback server the test started outside fails, and the model reads why; under workspace it connects", async () => {
    const strict = await bash(connect(), { sandbox: "strict" });
    expect(strict.isError).toBe(true);
    expect(strict.content).toContain("Connection refused");
    expect(strict.content).toContain(`[sandbox] The sandbox (profile strict) stopped connecting to 127.0.0.1:${port}`);
    expect(strict.details).toMatchObject({ sandbox: "strict" });
    expect(await bash(connect())).toMatchObject({ isError: false, content: "served outside" });
  });

  it("keeps a loopback of its own inside: a server the command starts answers it", async () => {
    const script = "const net=require('net');const s=net.createServer(c=>c.end('answered inside')).listen(0,'127.0.0.1',()=>net.connect(s.address().port,'127.0.0.1').on('data',d=>{console.log(String(d));process.exit(0)}))";
    expect(await bash(`node -e "${script}"`, { sandbox: "strict" })).toMatchObject({ isError: false, content: "answered inside" });
  });
});

describe("the model asking for a profile", () => {
  it("is refused a looser one, told to ask the person, and nothing runs; a stricter one is granted", async () => {
    const loosen = await call(llm, agent, "bash_stream", { command: `echo escaped > ${agent.home}/loosened.txt`, sandbox: "off", yieldMs: 5_000 });
    expect(loosen.isError).toBe(true);
    expect(loosen.content).toContain('you asked for sandbox profile "off", which is looser than "workspace"');
    expect(loosen.content).toContain("Only the person can loosen the sandbox");
    expect(agent.events.some((event) => event.type === "job_started" && event.job.command.includes("loosened"))).toBe(false);
    expect(existsSync(join(agent.home, "loosened.txt"))).toBe(false);

    const tighten = await call(llm, agent, "bash_stream", { command: "echo $PITWALL_SANDBOX", sandbox: "strict", yieldMs: 5_000 });
    expect(tighten.isError).toBe(false);
    expect(tighten.content).toContain("strict");
    const started = agent.events.find((event) => event.type === "job_started" && event.job.command === "echo $PITWALL_SANDBOX");
    expect(started?.type === "job_started" && started.job.sandbox).toBe("strict");
    const listed = await call(llm, agent, "list_processes", {});
    expect(listed.content).toMatch(/started by you, sandbox strict, pid \d+: echo \$PITWALL_SANDBOX/);
  });
});
