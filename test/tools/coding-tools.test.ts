import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createCodingTools, createReadOnlyTools, createToolByName, isToolName, TOOL_NAMES } from "../../tools/coding-tools.js";
import { DEFAULT_MAX_OUTPUT_CHARS } from "../../tools/output-cap.js";
import { makeTempDir } from "./harness.js";

const noSignal = () => new AbortController().signal;
const context = () => ({ yieldSignal: noSignal() });

describe("tool sets", () => {
  it("the coding set is read, write, edit, bash; the read-only set is read, grep, find, ls", async () => {
    const cwd = await makeTempDir();
    expect(createCodingTools(cwd).map((tool) => tool.name)).toEqual(["read", "write", "edit", "bash"]);
    expect(createReadOnlyTools(cwd).map((tool) => tool.name)).toEqual(["read", "grep", "find", "ls"]);
  });

  it("every tool has a label, a description and an object schema, and is made by name", async () => {
    const cwd = await makeTempDir();
    for (const name of TOOL_NAMES) {
      const tool = createToolByName(cwd, name);
      expect(tool.name).toBe(name);
      expect(tool.label.length).toBeGreaterThan(0);
      expect(tool.description.length).toBeGreaterThan(40);
      expect(tool.parameters.type).toBe("object");
    }
    expect(isToolName("bash")).toBe(true);
    expect(isToolName("bash_stream")).toBe(false);
  });

  it("tools made for different folders work in their own folder, not the process's", async () => {
    const first = await makeTempDir();
    const second = await makeTempDir();
    const [, write] = createCodingTools(first);
    const [, writeElsewhere] = createCodingTools(second);
    await write?.execute("1", { file_path: "note.txt", content: "first" }, noSignal(), () => undefined, context());
    await writeElsewhere?.execute("2", { file_path: "note.txt", content: "second" }, noSignal(), () => undefined, context());
    expect(await readFile(join(first, "note.txt"), "utf8")).toBe("first");
    expect(await readFile(join(second, "note.txt"), "utf8")).toBe("second");
  });

  it("the bash description states the output cap, the full-output file, the timeout default and bash_stream", async () => {
    const bash = createToolByName(await makeTempDir(), "bash");
    const cap = String(DEFAULT_MAX_OUTPUT_CHARS).replace(/\B(?=(\d{3})+$)/g, " ");
    expect(bash.description).toContain(`Output is capped at ${cap} characters`);
    expect(bash.description).toContain("full output is saved to a temp file");
    expect(bash.description).toContain("No timeout by default");
    expect(bash.description).toContain("bash_stream");
  });
});
