// Slash commands: parsing, completion, and unknown commands answered without reaching the model.
import { describe, expect, test } from "vitest";
import type { ThinkingLevel } from "../../agent/messages.js";
import { completeSlash, describeCandidate, parseSlash, runSlash, type SlashContext } from "../../app/slash-commands.js";

function context(): SlashContext & { log: string[] } {
  const log: string[] = [];
  return {
    log,
    notice: (level, text) => log.push(`${level}: ${text}`),
    showHelp: () => log.push("help"),
    setModel: (spec) => log.push(`model ${spec}`),
    setThinking: (level: ThinkingLevel) => log.push(`thinking ${level}`),
    quit: () => log.push("quit"),
    agentCommand: (args) => log.push(`agent [${args}]`),
    showAgents: () => log.push("agents"),
    agentNames: () => ["main", "tests"],
    stopTurn: () => log.push("stop"),
    showSession: () => log.push("session"),
    newSession: () => log.push("new"),
    showContext: () => log.push("context"),
    compact: (instructions) => log.push(`compact [${instructions}]`),
    rewind: () => log.push("rewind"),
    showTree: () => log.push("tree"),
    fork: () => log.push("fork"),
    exportBranch: (file) => log.push(`export [${file}]`),
    showSkills: () => log.push("skills"),
    promptCommands: () => [
      { name: "review", description: "Review the given file for bugs" },
      { name: "release", description: "Cut a release" },
      { name: "skill:deploy", description: "Deploy the app" },
    ],
    modelIds: () => ["claude-sonnet-5-5", "claude-opus-5", "gpt-5.4"],
    currentModel: () => "anthropic/claude-sonnet-5-5",
    currentThinking: () => "off",
  };
}

describe("slash commands", () => {
  test("/compact passes its instructions, or none", () => {
    const ctx = context();
    runSlash("/compact", ctx);
    runSlash("/compact  keep the API decisions ", ctx);
    expect(ctx.log).toEqual(["compact []", "compact [keep the API decisions]"]);
  });

  test("/stop stops the turn, /quit quits", () => {
    const ctx = context();
    runSlash("/stop", ctx);
    runSlash("/quit", ctx);
    expect(ctx.log).toEqual(["stop", "quit"]);
  });

  test("/rewind, /tree, /fork and /export [file] reach the session's branches", () => {
    const ctx = context();
    for (const text of ["/rewind", "/tree", "/fork", "/export", "/export notes/session.md"]) runSlash(text, ctx);
    expect(ctx.log).toEqual(["rewind", "tree", "fork", "export []", "export [notes/session.md]"]);
  });

  test("a path is not a command", () => {
    expect(parseSlash("/usr/bin/env is odd")).toBeUndefined();
    expect(parseSlash("/model  gpt-5.4 ")).toEqual({ name: "model", args: "gpt-5.4" });
  });

  test("commands run through the context; unknown ones get an answer and are not sent", () => {
    const ctx = context();
    expect(runSlash("/thinking HIGH", ctx)).toBe(true);
    expect(runSlash("/thinking loud", ctx)).toBe(true);
    expect(runSlash("/modle x", ctx)).toBe(true);
    expect(runSlash("plain prompt", ctx)).toBe(false);
    for (const name of ["help", "clear", "quit", "session", "new", "context"]) runSlash(`/${name}`, ctx);
    expect(ctx.log[0]).toBe("thinking high");
    expect(ctx.log[1]).toMatch(/^error: "loud" is not a thinking level/);
    expect(ctx.log[2]).toMatch(/^warning: Unknown command \/modle \(did you mean \/model\?\).*not sent to the model/);
    // /clear starts a new conversation, as /new does.
    expect(ctx.log.slice(3)).toEqual(["help", "new", "quit", "session", "new", "context"]);
  });

  test("Tab completes prompt templates and /skill:name too, each with its description", () => {
    const ctx = context();
    expect(completeSlash("/rev", ctx)).toEqual({ text: "/review ", candidates: ["/review"] });
    expect(completeSlash("/re", ctx)?.candidates).toEqual(["/rewind", "/restart", "/review", "/release"]);
    expect(completeSlash("/skill:", ctx)).toEqual({ text: "/skill:deploy ", candidates: ["/skill:deploy"] });
    expect(describeCandidate("/review", ctx)).toBe("Review the given file for bugs");
    expect(describeCandidate("/skills", ctx)).toMatch(/^List the skills and prompt templates/);
    expect(describeCandidate("claude-opus-5", ctx)).toBeUndefined();
  });

  test("Tab completes names, then arguments", () => {
    const ctx = context();
    expect(completeSlash("/mo", ctx)).toEqual({ text: "/model ", candidates: ["/model"] });
    expect(completeSlash("/", ctx)?.candidates.length).toBeGreaterThan(5);
    expect(completeSlash("/model claude-s", ctx)).toEqual({ text: "/model claude-sonnet-5-5", candidates: ["claude-sonnet-5-5"] });
    expect(completeSlash("/model claude", ctx)).toEqual({ text: "/model claude-", candidates: ["claude-sonnet-5-5", "claude-opus-5"] });
    expect(completeSlash("/thinking m", ctx)).toEqual({ text: "/thinking m", candidates: ["minimal", "medium"] });
    expect(completeSlash("hello", ctx)).toBeUndefined();
  });

  test("the job commands check their arguments and act through the job control; ids complete", () => {
    const ctx = context();
    runSlash("/tail 2", ctx);
    expect(ctx.log.at(-1)).toMatch(/^warning: Jobs are not available yet/);
    ctx.jobControl = {
      focus: () => ctx.log.push("focus jobs"),
      tail: (id, count) => ctx.log.push(`tail ${id} ${count ?? "default"}`),
      stop: (id) => ctx.log.push(`stop ${id}`),
      restart: (id) => ctx.log.push(`restart ${id}`),
      run: (command) => ctx.log.push(`run ${command}`),
      ids: () => ["1", "2", "12"],
      watch: (id, pattern, action) => ctx.log.push(`watch ${id} [${pattern}] ${action}`),
      unwatch: (id, n) => ctx.log.push(`unwatch ${id} ${n ?? "all"}`),
      listWatches: (id) => ctx.log.push(`list watches ${id ?? "all"}`),
    };
    const start = ctx.log.length;
    for (const text of ["/jobs", "/tail 2", "/tail 12 100", "/kill 1", "/restart 12", "/run npm run dev -- --port 3000"]) runSlash(text, ctx);
    expect(ctx.log.slice(start)).toEqual(["focus jobs", "tail 2 default", "tail 12 100", "stop 1", "restart 12", "run npm run dev -- --port 3000"]);
    for (const bad of ["/tail", "/tail 1 0", "/tail 1 x", "/tail 1 2 3", "/kill", "/kill 1 2", "/restart", "/run"]) {
      const before = ctx.log.length;
      runSlash(bad, ctx);
      expect(ctx.log.slice(before), bad).toHaveLength(1);
      expect(ctx.log.at(-1), bad).toMatch(/^error: Usage: /);
    }
    expect(completeSlash("/kill 1", ctx)).toEqual({ text: "/kill 1", candidates: ["1", "12"] });
    expect(completeSlash("/watch 1", ctx)).toEqual({ text: "/watch 1", candidates: ["1", "12"] });
  });

  test("/watch takes a pattern with spaces and an optional last-word action (wake by default); /unwatch one trigger or all", () => {
    const ctx = context();
    ctx.jobControl = {
      focus: () => 0,
      tail: () => 0,
      stop: () => 0,
      restart: () => 0,
      run: () => 0,
      ids: () => ["2"],
      watch: (id, pattern, action) => ctx.log.push(`watch ${id} [${pattern}] ${action}`),
      unwatch: (id, n) => ctx.log.push(`unwatch ${id} ${n ?? "all"}`),
      listWatches: (id) => ctx.log.push(`list watches ${id ?? "all"}`),
    };
    for (const text of ["/watch 2 FAIL", "/watch 2 Tests: \\d+ failed steer", "/watch 2 error|panic NOTIFY", "/watch 2 follow-up", "/watch 2  x  follow-up", "/watch", "/watch 2", "/unwatch 2", "/unwatch 2 3"]) {
      runSlash(text, ctx);
    }
    expect(ctx.log).toEqual([
      "watch 2 [FAIL] wake",
      "watch 2 [Tests: \\d+ failed] steer",
      "watch 2 [error|panic] notify",
      "watch 2 [follow-up] wake",
      "watch 2 [x] follow-up",
      "list watches all",
      "list watches 2",
      "unwatch 2 all",
      "unwatch 2 3",
    ]);
    for (const bad of ["/unwatch", "/unwatch 2 x", "/unwatch 2 0", "/unwatch 2 1 1"]) {
      const before = ctx.log.length;
      runSlash(bad, ctx);
      expect(ctx.log.slice(before), bad).toEqual([expect.stringMatching(/^error: Usage: \/unwatch <job id> \[trigger number\]/)]);
    }
    expect(completeSlash("/tail 2", ctx)).toEqual({ text: "/tail 2", candidates: ["2"] });
  });
});
