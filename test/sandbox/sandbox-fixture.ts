// A coding agent whose commands run in the sandbox, talking to the fake LLM: a working folder that is
// a git repository, a test HOME with a fake ~/.ssh/id_rsa and a file of its own, and a folder outside
// both (all made by the test, under its temp folder: never a system path). `call` runs one tool call
// through the agent as the model would make it and returns what the model read.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { createCodingAgent, type CodingAgent } from "../../agent/coding-agent.js";
import type { PitwallEvent } from "../../agent/events.js";
import { resolveModel } from "../../agent/models.js";
import { bwrapAvailability, sandboxPolicy, type SandboxPolicy, type SandboxProfile } from "../../tools/sandbox/index.js";
import type { FakeLlm } from "../fake-llm/index.js";
import { tempDir } from "../helpers/temp-dir.js";

export const FAKE_KEY = "-----BEGIN OPENSSH PRIVATE KEY----- fake test key";

export interface FencedAgent {
  coding: CodingAgent;
  events: PitwallEvent[];
  policy: SandboxPolicy;
  /** The working directory (a git repository with one commit). */
  cwd: string;
  /** The test's HOME: .ssh/id_rsa (fake), notes.txt, target.txt. */
  home: string;
  /** A folder the test made outside the working directory and HOME. */
  outside: string;
}

/** Fails with what to do when this machine cannot make a sandbox (CI installs bubblewrap: .ci/run). */
export async function requireBubblewrap(): Promise<void> {
  const available = await bwrapAvailability();
  if (!available.ok) throw new Error(`These tests need a working bubblewrap: ${available.reason}; ${available.fix}.`);
}

export interface FencedAgentOptions {
  personProfile?: SandboxProfile;
  required?: boolean;
  bwrap?: string;
  /** pitwall's home (config.json, hosts/) inside the working directory rather than in the test HOME. */
  pitwallHomeInCwd?: boolean;
}

export function fencedAgent(llm: FakeLlm, profile: SandboxProfile = "workspace", options: FencedAgentOptions = {}): FencedAgent {
  const base = tempDir("sandbox");
  const cwd = join(base, "work");
  const home = join(base, "home");
  const outside = tempDir("outside");
  mkdirSync(join(home, ".ssh"), { recursive: true });
  mkdirSync(cwd);
  writeFileSync(join(home, ".ssh", "id_rsa"), `${FAKE_KEY}\n`);
  writeFileSync(join(home, "notes.txt"), "notes of the person\n");
  writeFileSync(join(home, "target.txt"), "keep me\n");
  writeFileSync(join(outside, "target.txt"), "keep me too\n");
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=test", "-c", "user.email=test@example.com", ...args], { cwd, stdio: "ignore" });
  git("init", "-q");
  writeFileSync(join(cwd, "README.md"), "# a project\n");
  git("add", "README.md");
  git("commit", "-q", "-m", "first");
  const pitwallHome = options.pitwallHomeInCwd ? join(cwd, ".pitwall") : join(home, ".pitwall");
  const policy = sandboxPolicy({ profile, required: options.required ?? false, home, pitwallHome, ...(options.bwrap ? { bwrap: options.bwrap } : {}) });
  const coding = createCodingAgent({
    cwd,
    model: resolveModel(undefined, "anthropic", "anthropic"),
    connections: { anthropic: { apiKey: "sk-test-0123456789", baseUrl: llm.anthropicBaseUrl }, openai: {} },
    pitwallHome,
    settings: {
      retry: { baseDelayMs: 5 },
      env: { ...process.env, HOME: home },
      sandbox: { policy, personProfile: options.personProfile ?? "off" },
    },
  });
  const events: PitwallEvent[] = [];
  coding.bus.subscribe((event) => events.push(event));
  return { coding, events, policy, cwd, home, outside };
}

export interface CallResult {
  content: string;
  isError: boolean;
  details: Record<string, unknown> | undefined;
}

/** One tool call as the model makes it, through the agent; what the model read back. */
export async function call(llm: FakeLlm, agent: FencedAgent, name: string, args: Record<string, unknown>): Promise<CallResult> {
  llm.enqueue({ kind: "reply", toolCalls: [{ name, arguments: args }] }, { kind: "reply", text: "noted" });
  const before = agent.events.length;
  await agent.coding.agent.prompt(`run ${name}`);
  const end = agent.events.slice(before).find((event) => event.type === "tool_execution_end");
  expect(end, `the ${name} call's result`).toBeDefined();
  if (end?.type !== "tool_execution_end") throw new Error("no tool result");
  return { content: end.content, isError: end.isError, details: end.details as Record<string, unknown> | undefined };
}
