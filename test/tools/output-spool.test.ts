import { existsSync, rmSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { capOutput } from "../../tools/output-cap.js";
import { OutputSpool } from "../../tools/output-spool.js";
import { processTempFolder } from "../../tools/process/temp-folder.js";

const files: string[] = [];
afterEach(async () => {
  for (const file of files.splice(0)) await rm(file, { force: true });
});

function spoolInChunks(text: string, maxChars: number, chunkSize: number) {
  const spool = new OutputSpool(maxChars, { filePrefix: "spool-test-" });
  for (let i = 0; i < text.length; i += chunkSize) spool.write(text.slice(i, i + chunkSize));
  const result = spool.finish();
  if (result.fullOutputPath) files.push(result.fullOutputPath);
  return result;
}

describe("output spool", () => {
  it("keeps short output whole, in memory, with no temp file", () => {
    const result = spoolInChunks("a\nb\nc\n", 100, 2);
    expect(result).toEqual({ text: "a\nb\nc\n", truncated: false, totalChars: 6, omittedChars: 0, omittedLines: 0 });
  });

  it("shows long output exactly as capOutput would, whatever the chunking, and saves all of it", async () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i + 1}${i % 7 === 0 ? " with some more text" : ""}`);
    const text = lines.join("\n") + "\n";
    for (const chunkSize of [1_000, 4_096, 65_536, text.length]) {
      const result = spoolInChunks(text, 5_000, chunkSize);
      const expected = capOutput(text, 5_000);
      expect(result.text).toBe(expected.text);
      expect(result.omittedChars).toBe(expected.omittedChars);
      expect(result.omittedLines).toBe(expected.omittedLines);
      expect(result.totalChars).toBe(text.length);
      expect(result.truncated).toBe(true);
      const path = result.fullOutputPath ?? "";
      expect(existsSync(path)).toBe(true);
      expect(await readFile(path, "utf8")).toBe(text);
    }
  });

  it("names the first omitted line of the full output", () => {
    const text = Array.from({ length: 1_000 }, (_, i) => String(i + 1)).join("\n");
    const result = spoolInChunks(text, 500, 100);
    const headLines = result.text.split("\n... [")[0]?.split("\n") ?? [];
    expect(result.firstOmittedLine).toBe(Number(headLines.at(-1)) + 1);
  });

  it("caps output just over the limit without the head and tail overlapping", () => {
    const text = "x".repeat(1_001);
    const result = spoolInChunks(text, 1_000, 10);
    expect(result.text).toBe(capOutput(text, 1_000).text);
    expect(result.omittedChars).toBe(1);
  });
});

describe("the full-output file", () => {
  it("is still saved when the process's temp folder was removed meanwhile (a temp cleaner): the folder is made again", async () => {
    const first = processTempFolder();
    rmSync(first, { recursive: true, force: true });
    const spool = new OutputSpool(100, { filePrefix: "spool-test-" });
    spool.write("x".repeat(1_000));
    const result = spool.finish();
    files.push(result.fullOutputPath!);
    expect(dirname(result.fullOutputPath!)).toBe(processTempFolder());
    expect(processTempFolder()).not.toBe(first);
    expect(await readFile(result.fullOutputPath!, "utf8")).toBe("x".repeat(1_000));
  });

  it("lives in the process's own temp folder and keeps head + tail within the budget, saying what was dropped", async () => {
    const spool = new OutputSpool(1_000, { filePrefix: "spool-test-", fileMaxChars: 100_000 });
    const line = (i: number): string => `line ${String(i).padStart(7, "0")}\n`; // 13 chars
    let text = "";
    for (let i = 1; i <= 200_000; i++) {
      const l = line(i);
      text += l;
      spool.write(l);
    }
    const result = spool.finish();
    const path = result.fullOutputPath!;
    files.push(path);
    expect(dirname(path)).toBe(processTempFolder());
    expect(basename(dirname(path))).toMatch(new RegExp(`^pitwall-${process.pid}-`));
    const saved = await readFile(path, "utf8");
    expect(saved.length).toBeLessThan(100_000 + 300);
    expect(saved.startsWith(text.slice(0, 50_000))).toBe(true);
    expect(saved.endsWith(text.slice(-50_000))).toBe(true);
    const dropped = text.length - 100_000;
    expect(saved).toContain(`[... pitwall dropped ${dropped} characters`);
    // The model's view is unchanged by the file's bound.
    expect(result.totalChars).toBe(text.length);
  });

  it("redacts secrets in the file, even one cut between two chunks", async () => {
    const key = "sk-ant-api03-SECRETSECRETSECRET";
    const spool = new OutputSpool(100, { filePrefix: "spool-test-", secrets: [key, "short"] });
    const text = `${"x".repeat(200)}\nANTHROPIC_API_KEY=${key}\nagain ${key} short\n`;
    const cutInsideKey = text.indexOf(key) + 10;
    spool.write(text.slice(0, cutInsideKey));
    spool.write(text.slice(cutInsideKey, cutInsideKey + 3));
    spool.write(text.slice(cutInsideKey + 3));
    const result = spool.finish();
    files.push(result.fullOutputPath!);
    const saved = await readFile(result.fullOutputPath!, "utf8");
    expect(saved).not.toContain("SECRETSECRET");
    expect(saved).toContain("ANTHROPIC_API_KEY=[redacted]\nagain [redacted] short\n");
  });
});
