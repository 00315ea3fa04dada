// Digests of job output as the model gets them: what a person reading CI logs all day would want
// on top (errors, then warnings, each once with a count; stack traces whole), repeats folded, every
// line numbered so the raw text can be fetched, and always within the budget.
import { describe, expect, it } from "vitest";
import { buildDigest } from "../../tools/jobs/digest/log-digest.js";
import { findStackTraces } from "../../tools/jobs/digest/stack-traces.js";
import { lineKind, similarityKey } from "../../tools/jobs/digest/line-kinds.js";

const NODE_TRACE = [
  "Error: connect ECONNREFUSED 127.0.0.1:5432",
  "    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)",
  "    at Pool.connect (/app/node_modules/pg-pool/index.js:45:11)",
  "    at async main (/app/src/server.js:12:3) {",
  "  errno: -111,",
  "  code: 'ECONNREFUSED'",
  "}",
];
const PYTHON_TRACE = [
  "Traceback (most recent call last):",
  '  File "/app/manage.py", line 22, in <module>',
  "    main()",
  '  File "/app/manage.py", line 18, in main',
  "    execute_from_command_line(sys.argv)",
  "ValueError: invalid literal for int() with base 10: 'x'",
];
const JAVA_TRACE = [
  'Exception in thread "main" java.lang.IllegalStateException: pool closed',
  "\tat com.example.db.Pool.take(Pool.java:88)",
  "\tat com.example.App.main(App.java:12)",
  "Caused by: java.io.IOException: broken pipe",
  "\tat com.example.db.Conn.write(Conn.java:40)",
  "\t... 2 more",
];
const GO_TRACE = [
  "panic: runtime error: index out of range [5] with length 3",
  "",
  "goroutine 1 [running]:",
  "main.pick(...)",
  "\t/app/main.go:14",
  "main.main()",
  "\t/app/main.go:8 +0x1d",
  "exit status 2",
];
const RUST_TRACE = [
  "thread 'main' panicked at src/main.rs:2:5:",
  "called `Option::unwrap()` on a `None` value",
  "stack backtrace:",
  "   0: rust_begin_unwind",
  "             at /rustc/abc/library/std/src/panicking.rs:645:5",
  "   1: app::main",
  "             at ./src/main.rs:2:5",
  "note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.",
];

describe("a log digest", () => {
  it("folds 10,000 repeated lines into one line with its count and keeps a stack trace whole", () => {
    const lines = ["server starting", ...Array.from({ length: 10_000 }, () => "GET /health 200"), ...NODE_TRACE, "server stopped"];
    const digest = buildDigest(lines, { firstLine: 501, maxChars: 30_000 });
    expect(digest.text.length).toBeLessThan(3_000);
    expect(digest.text).toContain("502 | GET /health 200\n      | … ×10,000 (lines 502–10501)");
    expect(digest.text.match(/GET \/health 200/g)).toHaveLength(1);
    // The trace, every line in order, under Problems; a pointer to it in the output.
    const traceRows = NODE_TRACE.map((line, i) => `${10_502 + i} | ${line}`).join("\n");
    expect(digest.text).toContain(`✗ line 10502: stack trace (javascript), lines 10502–10508:\n${traceRows.replace(/^/gm, "    ")}`);
    expect(digest.text).toContain("10502 | [stack trace, lines 10502–10508: Error: connect ECONNREFUSED 127.0.0.1:5432]");
    expect(digest.text).toContain("10509 | server stopped");
    expect(digest.stats).toMatchObject({ lines: 10_009, traces: 1, folded: 9_999 });
  });

  it("keeps Python, JVM, Go and Rust traces whole and names what failed", () => {
    const lines = ["boot", ...PYTHON_TRACE, "--", ...JAVA_TRACE, "--", ...GO_TRACE, "--", ...RUST_TRACE, "end"];
    const traces = findStackTraces(lines);
    expect(traces.map((t) => [t.language, lines.slice(t.start, t.end)])).toEqual([
      ["python", PYTHON_TRACE],
      ["jvm", JAVA_TRACE],
      ["go", GO_TRACE],
      ["rust", RUST_TRACE],
    ]);
    expect(traces.map((t) => t.headline)).toEqual([
      "ValueError: invalid literal for int() with base 10: 'x'",
      'Exception in thread "main" java.lang.IllegalStateException: pool closed',
      "panic: runtime error: index out of range [5] with length 3",
      "thread 'main' panicked at src/main.rs:2:5: called `Option::unwrap()` on a `None` value",
    ]);
    const digest = buildDigest(lines, { firstLine: 1, maxChars: 30_000 });
    for (const trace of [PYTHON_TRACE, JAVA_TRACE, GO_TRACE, RUST_TRACE]) {
      for (const line of trace) if (line.trim()) expect(digest.text).toContain(`| ${line}`);
    }
  });

  it("lists errors first, then warnings, each distinct one once with how often and where else it occurred", () => {
    const lines = [
      "compiling",
      "warning: `foo` is deprecated",
      "✓ handles errors gracefully",
      "Tests: 12 passed, 0 failed",
      "0 errors, 0 warnings",
      "FAIL src/a.test.ts > adds",
      "GET /users/17 500 Internal Server Error in 3ms",
      "GET /users/4 500 Internal Server Error in 12ms",
      "FAIL src/b.test.ts > subtracts",
      "GET /users/230 500 Internal Server Error in 1ms",
      "npm ERR! code ELIFECYCLE",
    ];
    const digest = buildDigest(lines, { firstLine: 40, maxChars: 30_000 });
    const problems = digest.text.slice(digest.text.indexOf("Problems"), digest.text.indexOf("Output, folded"));
    expect(problems.split("\n").slice(1, -1)).toEqual([
      "✗ line 45: FAIL src/a.test.ts > adds",
      "✗ line 46 (×3; also 47, 49): GET /users/17 500 Internal Server Error in 3ms",
      "✗ line 48: FAIL src/b.test.ts > subtracts",
      "✗ line 50: npm ERR! code ELIFECYCLE",
      "! line 41: warning: `foo` is deprecated",
    ]);
    expect(digest.stats).toMatchObject({ errors: 6, warnings: 1 });
    expect(lineKind("Tests: 12 passed, 0 failed")).toBeUndefined();
    expect(lineKind("no errors found")).toBeUndefined();
    expect(lineKind("1 error and 0 warnings")).toBe("error");
  });

  it("collapses progress frames and similar lines to the first and last, and folds repeated blocks", () => {
    const progress = Array.from({ length: 50 }, (_, i) => `downloading [${"=".repeat(i)}>${" ".repeat(49 - i)}] ${i * 2}%`);
    const poll = ["waiting for db…", "db not ready, retrying"];
    const lines = ["start", ...progress, ...poll, ...poll, ...poll, ...poll, "ready"];
    expect(similarityKey(progress[3]!)).toBe(similarityKey(progress[40]!));
    const digest = buildDigest(lines, { firstLine: 1, maxChars: 30_000 });
    const output = digest.text.slice(digest.text.indexOf("Output, folded"));
    expect(output.split("\n").slice(1)).toEqual([
      " 1 | start",
      ` 2 | ${progress[0]}`,
      "   | … 48 similar lines (3–50)",
      `51 | ${progress[49]}`,
      "52 | waiting for db…",
      "53 | db not ready, retrying",
      "   | … these 2 lines ×4 (lines 52–59)",
      "60 | ready",
    ]);
  });

  it("stays within its budget: problems from the start and the end, the output's head and tail, with the line ranges left out", () => {
    const lines: string[] = [];
    // Distinct problems: module names that differ in letters, not only in numbers.
    const name = (i: number): string => (i < 26 ? "" : name(Math.floor(i / 26) - 1)) + String.fromCharCode(97 + (i % 26));
    for (let i = 0; i < 3_000; i++) lines.push(i % 10 === 0 ? `Error: cannot find module '${name(i)}'` : `step ${i} of the build`);
    lines.push("Tests: 300 failed");
    const digest = buildDigest(lines, { firstLine: 1, maxChars: 4_000 });
    expect(digest.text.length).toBeLessThanOrEqual(4_000);
    expect(digest.truncated).toBe(true);
    expect(digest.text).toContain("✗ line 1: Error: cannot find module 'a'");
    expect(digest.text).toMatch(/✗ line 3001: Tests: 300 failed/);
    expect(digest.text).toMatch(/… \d+ more problems not shown \(first lines \d+, \d+/);
    expect(digest.text).toMatch(/… \[lines (\d+)–(\d+) of the output left out here to fit \d+ characters: read them raw with get_process_log, offset \1\]/);
    expect(digest.text.trimEnd().endsWith("3001 | Tests: 300 failed")).toBe(true);
  });

  it("cuts a huge line and never folds an error into a run of ordinary lines", () => {
    const lines = ["x".repeat(20_000), "test 1 ok", "test 2 ok", "test 3 FAILED: expected 2", "test 4 ok", "test 5 ok", "test 6 ok"];
    const digest = buildDigest(lines, { firstLine: 1, maxChars: 30_000 });
    expect(digest.text).toContain("… [20000 chars]");
    expect(digest.text).toContain("4 | test 3 FAILED: expected 2\n");
    expect(digest.text).toContain("5 | test 4 ok\n  | … 1 similar line (6–6)\n7 | test 6 ok");
  });
});
