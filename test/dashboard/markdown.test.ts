// Markdown as the chat shows it, and streaming: rendering a reply chunk by chunk gives the same
// rows as rendering it whole, and only the open tail is rendered again.
import { beforeAll, describe, expect, test } from "vitest";
import { backgroundHighlightsDone, highlightCode, loadHighlighter } from "../../panes/markdown/code-highlight.js";
import { SYNC_MAX_CHARS } from "../../panes/markdown/background-highlight.js";
import { renderGeneration } from "../../panes/markdown/render-generation.js";
import { loadMarkdownParser, renderMarkdown } from "../../panes/markdown/markdown-render.js";
import { MarkdownStream } from "../../panes/markdown/markdown-stream.js";
import { MD } from "../../panes/markdown/theme.js";
import { attr, Flag, flagsOf, lineText, type StyledLine } from "../../panes/text/styled-text.js";
import { cpuTimeOf } from "../helpers/cpu-time.js";

beforeAll(async () => {
  await loadMarkdownParser();
  await loadHighlighter();
});

const text = (rows: StyledLine[]): string[] => rows.map(lineText);

const SAMPLE = [
  "# Plan",
  "",
  "I'll **run** the *suite* first, then `npm test`.",
  "",
  "- one",
  "- two",
  "  - nested",
  "",
  "1. first",
  "2. second",
  "",
  "> a quote",
  "",
  "```ts",
  "const a: number = 1; // the answer",
  "```",
  "",
  "| a | b |",
  "|---|---|",
  "| 1 | 2 |",
  "",
  "Done {with braces} and <angles> & ampersands.",
].join("\n");

describe("markdown", () => {
  test("headings, emphasis, inline code, lists, quotes, code and tables", () => {
    const rows = renderMarkdown(SAMPLE, 60);
    expect(text(rows)).toEqual([
      "Plan",
      "",
      "I'll run the suite first, then npm test.",
      "",
      "• one",
      "• two",
      "  • nested",
      "",
      "1. first",
      "2. second",
      "",
      "│ a quote",
      "",
      "│ ts",
      "│ const a: number = 1; // the answer",
      "",
      "a │ b",
      "──┼──",
      "1 │ 2",
      "",
      "Done {with braces} and <angles> & ampersands.",
    ]);
    expect(rows[0]![0]!.attr).toBe(MD.heading1);
    const para = rows[2]!;
    expect(flagsOf(para.find((s) => s.text === "run")!.attr) & Flag.bold).toBeTruthy();
    expect(flagsOf(para.find((s) => s.text === "suite")!.attr) & Flag.italic).toBeTruthy();
    expect(para.find((s) => s.text === "npm test")!.attr).toBe(MD.codespan);
  });

  test("fenced code is highlighted when the language is known", () => {
    const lines = highlightCode("const a = 1; // note", "ts")!;
    expect(lines).toBeDefined();
    expect(new Set(lines[0]!.map((s) => s.attr)).size).toBeGreaterThan(1);
    expect(highlightCode("x", "not-a-language")).toBeUndefined();
  });

  test("wraps paragraphs to the width and indents list continuations", () => {
    const rows = renderMarkdown("- a list item that is long enough to wrap", 20);
    expect(text(rows)).toEqual(["• a list item that", "  is long enough to", "  wrap"]);
  });

  test("streaming in small pieces gives the same rows as the whole text", () => {
    const stream = new MarkdownStream();
    for (let i = 0; i < SAMPLE.length; i += 3) {
      stream.append(SAMPLE.slice(i, i + 3));
      stream.rows(60);
    }
    expect(text(stream.rows(60))).toEqual(text(renderMarkdown(SAMPLE, 60)));
  });

  test("at every point of a stream, the rows are those of the same text given at once", () => {
    const stream = new MarkdownStream();
    const reply = `${SAMPLE}\n\n\`\`\`py\ndef f():\n    return 1\n\`\`\`\n\n- a\n- b`;
    for (let i = 0; i < reply.length; i += 2) {
      stream.append(reply.slice(i, i + 2));
      const prefix = reply.slice(0, i + 2);
      expect(text(stream.rows(60)), JSON.stringify(prefix.slice(-40))).toEqual(text(new MarkdownStream(prefix).rows(60)));
      // The open code block shows its label, each complete line and the line being written.
      if (prefix.endsWith("    retu")) expect(text(stream.rows(60)).slice(-3).map((row) => row.trim())).toEqual(["│ py", "│ def f():", "│     retu"]);
    }
  });

  test("a long reply renders only its tail on each update", () => {
    const paragraph = "word ".repeat(60).trim();
    const perUpdate = (paragraphs: number): { ms: number; rows: number } => {
      const stream = new MarkdownStream();
      for (let i = 0; i < paragraphs; i++) stream.append(`${paragraph}\n\n`);
      stream.rows(80);
      const ms = cpuTimeOf(() => {
        for (let i = 0; i < 200; i++) {
          stream.append("more ");
          stream.rows(80);
        }
      });
      return { ms: ms / 200, rows: stream.rows(80).length };
    };
    const short = perUpdate(20);
    const long = perUpdate(2000);
    expect(long.rows).toBeGreaterThan(2000 * 4);
    // Relative, not absolute: re-rendering all 2000 paragraphs would cost ~100 times the short reply's update.
    expect(long.ms).toBeLessThan(short.ms * 10 + 1);
  });

  test("long code is highlighted in a worker: plain at once, then the same colours as where it is drawn", async () => {
    const code = Array.from({ length: 2000 }, (_, i) => `const value${i} = compute(${i}, "text"); /* a comment\n over lines */`).join("\n");
    expect(code.length).toBeGreaterThan(SYNC_MAX_CHARS);
    const generation = renderGeneration();
    // Not highlighted where it is drawn: plain until the worker answers.
    expect(highlightCode(code, "ts")).toBeUndefined();
    expect(highlightCode(code, "ts")).toBeUndefined();
    await backgroundHighlightsDone();
    expect(renderGeneration()).toBeGreaterThan(generation);
    const lines = highlightCode(code, "ts")!;
    const half = code.slice(0, SYNC_MAX_CHARS - 100);
    const shortLines = highlightCode(half.slice(0, half.lastIndexOf("\n")), "ts")!;
    expect(lines).toHaveLength(2000 * 2);
    // The worker's colours are the ones the same code gets where it is drawn (the theme crosses over).
    expect(lines.slice(0, shortLines.length - 1)).toEqual(shortLines.slice(0, -1));
  });

  test("a 3 000-line code block being written is drawn line by line, then highlighted when it closes", async () => {
    const stream = new MarkdownStream("Here is the file:\n\n```ts\n");
    const code = Array.from({ length: 3000 }, (_, i) => `const value${i} = compute(${i}, "text"); // note`);
    code.forEach((line, i) => {
      stream.append(`${line}\n`);
      if (i % 100 === 0) stream.rows(80);
    });
    for (let i = 0; i < 50; i++) {
      stream.append("x");
      stream.rows(80);
    }
    stream.append("\n```\n\nThat is all.");
    const whole = `Here is the file:\n\n\`\`\`ts\n${code.join("\n")}\n${"x".repeat(50)}\n\`\`\`\n\nThat is all.`;
    expect(text(stream.rows(80))).toEqual(text(renderMarkdown(whole, 80)));
    // Plain until the worker has highlighted it (it is too long to highlight while drawing).
    await backgroundHighlightsDone();
    // Highlighted once closed: the code rows carry more than one colour.
    const codeRow = stream.rows(80).find((r) => lineText(r).includes("value10 "))!;
    expect(new Set(codeRow.map((s) => s.attr)).size).toBeGreaterThan(2);
  }, 30_000);


  test("a streaming table is held back until its separator row has arrived, then shown row by complete row", () => {
    const stream = new MarkdownStream();
    const shows = (): string => text(stream.rows(60)).join("\n");
    stream.append("Here is where things stand:\n\n| file | te");
    expect(shows()).toBe("Here is where things stand:");
    stream.append("sts |\n");
    // A header without its separator row is not shown as a raw "| file | tests |" line.
    expect(shows()).not.toContain("|");
    stream.append("| --- | -");
    expect(shows()).not.toContain("file");
    stream.append("--: |\n");
    expect(shows()).toContain("file │ tests");
    stream.append("| src/components/TaskList.tsx | 1");
    // The row being written waits for its end: the column does not widen cell by cell.
    expect(shows()).not.toContain("TaskList");
    stream.append("2 |\n| src/app.ts | 4 |");
    expect(shows()).toMatch(/src\/components\/TaskList\.tsx │ +12/);
    expect(shows()).not.toContain("src/app.ts");
    // Once the reply is complete, its last row shows too: the same rows as the whole text.
    stream.finish();
    const whole = "Here is where things stand:\n\n| file | tests |\n| --- | ---: |\n| src/components/TaskList.tsx | 12 |\n| src/app.ts | 4 |";
    expect(text(stream.rows(60))).toEqual(text(renderMarkdown(whole, 60)));
  });

  test("a line with a pipe that is no table's header shows once the next line says so", () => {
    const stream = new MarkdownStream();
    stream.append("Use a | b to pipe\n");
    expect(text(stream.rows(60)).join("")).toBe("");
    stream.append("and read the output.\n");
    expect(text(stream.rows(60))).toEqual(["Use a | b to pipe", "and read the output."]);
  });

  test("code blocks have a left rule, and wrapped code lines keep their indent", () => {
    const rows = text(renderMarkdown("```\nfunction f() {\n    return someFunction(argumentOne, argumentTwo, argumentThree);\n}\n```", 40));
    expect(rows.every((r) => r.startsWith("│ "))).toBe(true);
    const at = rows.findIndex((r) => r.includes("return"));
    expect(rows[at]).toMatch(/^│ {5}return \S/);
    expect(rows.slice(at + 1, -1).length).toBeGreaterThan(0);
    // The continuation rows start further in than the line's own indent.
    for (const row of rows.slice(at + 1, -1)) expect(row).toMatch(/^│ {7}\S/);
    expect(rows.slice(at + 1, -1).join(" ")).toContain("argumentThree);");
  });

  test("styles are plain cell attributes", () => {
    expect(MD.strong).toBe(attr({ bold: true }));
  });

  test("a reply that ends with its closing fence (no newline after it) shows the code highlighted, not the fence", () => {
    const reply = "Here is code:\n\n```ts\nconst x: number = 1;\n```";
    const stream = new MarkdownStream();
    for (let i = 0; i < reply.length; i += 7) stream.append(reply.slice(i, i + 7));
    const rows = stream.rows(60);
    expect(text(rows)).toEqual(text(renderMarkdown(reply, 60)));
    expect(text(rows).some((r) => r.includes("```"))).toBe(false);
    expect(rows.find((r) => lineText(r).includes("const"))!.some((s) => s.attr !== MD.code && s.text.includes("const"))).toBe(true);
  });
});
