import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { PlainTextLog } from "../../tools/jobs/log/plain-text-log.js";

function plain(...chunks: string[]): string {
  const log = new PlainTextLog();
  for (const chunk of chunks) log.write(chunk);
  return log.keptText();
}

describe("PlainTextLog escapes and control characters", () => {
  it("drops colours, cursor moves, OSC titles and DCS strings", () => {
    expect(plain("\x1b[1;31mred\x1b[0m plain\n")).toBe("red plain\n");
    expect(plain("\x1b]0;my title\x07after\n")).toBe("after\n");
    expect(plain("\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\\n")).toBe("link\n");
    expect(plain("\x1bPq#0;2;0;0;0\x1b\\text\n")).toBe("text\n");
    expect(plain("\x1b[?25l\x1b[?2004hshown\x1b(B\x1b7\x1b8\n")).toBe("shown\n");
  });

  it("handles sequences split across chunks", () => {
    expect(plain("a\x1b", "[3", "2mb\x1b]0;ti", "tle\x07c\n")).toBe("abc\n");
  });

  it("collapses carriage-return progress lines to their final state", () => {
    expect(plain("10%\r20%\r100%\n")).toBe("100%\n");
    expect(plain("progress [##   ]\rprogress [#####]\ndone\n")).toBe("progress [#####]\ndone\n");
    // \r\n is a newline, not an erase.
    expect(plain("one\r\ntwo\r\n")).toBe("one\ntwo\n");
    // A terminal overwrites only what is written again.
    expect(plain("downloading\rdone\n")).toBe("doneloading\n");
  });

  it("honours erase-line, backspace and column moves", () => {
    expect(plain("downloading\r\x1b[Kdone\n")).toBe("done\n");
    expect(plain("keep this\x1b[4D\x1b[0Kgone\n")).toBe("keep gone\n");
    expect(plain("abc\x1b[2K\rxyz\n")).toBe("xyz\n");
    expect(plain("abc\b\bX\n")).toBe("aXc\n");
    expect(plain("abcdef\x1b[3GZ\n")).toBe("abZdef\n");
    expect(plain("a\x1b[3Cb\n")).toBe("a   b\n");
  });

  it("keeps tabs and unicode, drops other controls", () => {
    expect(plain("a\tb\x07\x00c 漢字 😀\n")).toBe("a\tbc 漢字 😀\n");
  });
});

describe("PlainTextLog bounds", () => {
  it("keeps the last lines with absolute numbers", () => {
    const log = new PlainTextLog({ maxLines: 5 });
    for (let i = 1; i <= 12; i++) log.write(`line ${i}\n`);
    expect(log.lineCount).toBe(12);
    expect(log.firstKeptLine).toBe(8);
    expect(log.lineAt(7)).toBeUndefined();
    expect(log.lineAt(8)).toBe("line 8");
    expect(log.range(1, 10)).toEqual(["line 8", "line 9"]);
    expect(log.dropped).toBe(true);
  });

  it("keeps lines under a character budget", () => {
    const log = new PlainTextLog({ maxChars: 100 });
    for (let i = 0; i < 50; i++) log.write(`${String(i).padStart(9, "0")}\n`);
    expect(log.retainedChars - 0).toBeLessThanOrEqual(100 + 50 * 10);
    expect(log.keptText().length).toBeLessThanOrEqual(100);
    expect(log.lineAt(50)).toBe("000000049");
  });

  it("wraps a line that never ends", () => {
    const log = new PlainTextLog({ maxLineChars: 100 });
    log.write("x".repeat(1050));
    expect(log.lineCount).toBe(10);
    expect(log.partialLine.length).toBe(50);
    expect(log.lineAt(1)).toBe("x".repeat(100));
  });

  it("tail includes the line being written", () => {
    const log = new PlainTextLog();
    log.write("a\nb\nc\nprompt> ");
    expect(log.tail(2)).toEqual(["c", "prompt> "]);
  });

  it("reports each completed line with its number", () => {
    const log = new PlainTextLog();
    const seen: [string, number][] = [];
    log.onLine((line, n) => seen.push([line, n]));
    log.write("one\ntw");
    log.write("o\n");
    expect(seen).toEqual([
      ["one", 1],
      ["two", 2],
    ]);
  });

  it("caps the whole output with head and tail when everything is still in memory", () => {
    const log = new PlainTextLog();
    for (let i = 1; i <= 1000; i++) log.write(`line ${i}\n`);
    const capped = log.capped(500);
    expect(capped.truncated).toBe(true);
    expect(capped.text.length).toBeLessThanOrEqual(600);
    expect(capped.text.startsWith("line 1\n")).toBe(true);
    expect(capped.text.endsWith("line 1000")).toBe(true);
    expect(capped.text).toMatch(/characters, \d+ lines omitted/);
  });

  it("caps with the kept head once early lines have left memory", () => {
    const log = new PlainTextLog({ maxLines: 100, headChars: 200 });
    for (let i = 1; i <= 5000; i++) log.write(`line ${i}\n`);
    log.write("partial");
    const capped = log.capped(1000);
    expect(capped.truncated).toBe(true);
    expect(capped.text.startsWith("line 1\nline 2\n")).toBe(true);
    expect(capped.text.endsWith("line 5000\npartial")).toBe(true);
    expect(capped.text.length).toBeLessThanOrEqual(1100);
    const marker = capped.text.match(/\[(\d+) characters, (\d+) lines omitted\]/);
    expect(marker).not.toBeNull();
    const shownLines = capped.text.split("\n").length - 1; // minus the marker line
    expect(Number(marker![2]) + shownLines).toBe(5001);
  });

  it("does not keep the large chunks its lines came from alive", () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const log = new PlainTextLog({ maxLines: 5_000, maxChars: 10_000_000, maxLineChars: 100_000 });
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 3_000; i++) {
      // Each chunk is 64 KB of a redrawn progress line whose final state is short.
      log.write("#".repeat(65_000) + `\r\x1b[Kprogress line number ${String(i).padStart(6, "0")}\n`);
    }
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    expect(log.lineAt(3_000)).toBe("progress line number 002999");
    // Retaining the chunks would cost 3000 × 64 KB ≈ 195 MB.
    expect(grown).toBeLessThan(40 * 1024 * 1024);
  });

  it("gives the same text whether plain chunks take the fast path or the state machine", () => {
    // Seeded so a failure can be reproduced.
    let seed = 42;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const pieces = ["log line", " words", "\n", "\r\n", "\r", "50%", "\r100%", "\x1b[32mgreen\x1b[0m", "\x1b[K", "\t", "日本", "\b"];
    for (let round = 0; round < 200; round++) {
      let text = "";
      for (let i = 0; i < 40; i++) text += pieces[random(pieces.length)];
      const fast = new PlainTextLog();
      for (let at = 0, size = 1; at < text.length; at += size) {
        size = 1 + random(12);
        fast.write(text.slice(at, at + size));
      }
      // A leading BEL prints nothing but sends the whole text through the state machine.
      const slow = new PlainTextLog();
      slow.write(`\x07${text}`);
      expect(fast.keptText()).toBe(slow.keptText());
      expect(fast.lineCount).toBe(slow.lineCount);
    }
  });
});

describe("PlainTextLog while no one listens: a flood counted instead of read", () => {
  /** Everything a reader can ask of a log. */
  function observe(log: PlainTextLog): unknown {
    return {
      lineCount: log.lineCount,
      firstKept: log.firstKeptLine,
      dropped: log.dropped,
      atLineStart: log.atLineStart,
      partial: log.partialLine,
      total: log.totalChars,
      kept: log.keptText(),
      tail: log.tail(7),
      range: log.range(log.lineCount - 20, log.lineCount - 3),
      capped: log.capped(600),
    };
  }

  /** A flood mixing what is counted (plain CR LF lines) with what must be read (colours, progress bars, long lines). */
  function flood(lines: number): string {
    let out = "";
    for (let i = 0; i < lines; i++) {
      if (i % 997 === 0) out += `\x1b[32mgreen ${i}\x1b[0m\r\n`;
      else if (i % 1499 === 0) out += `progress 10%\rprogress 100% ${i}\r\n`;
      else if (i % 2011 === 0) out += `${"long ".repeat(60)}${i}\r\n`;
      else if (i % 2503 === 0) out += `tab\there, form\x0cfeed ${i}\r\n`;
      else out += `2026-11-23 line ${i} ünïcode ✓ status=200\r\n`;
    }
    return out + "no newline yet";
  }

  /**
   * Writes `text` in chunks of `size` to a log no one listens to (it may count) and to one that
   * reads everything; every answer must be the same. Returns the lines the first one counted.
   */
  function countedAgainstRead(text: string, size: number): number {
    const options = { maxLines: 200, maxChars: 20_000, headChars: 500, maxLineChars: 200 };
    const counting = new PlainTextLog(options);
    const reading = new PlainTextLog(options);
    reading.onLine(() => undefined);
    for (let i = 0; i < text.length; i += size) {
      counting.write(text.slice(i, i + size));
      reading.write(text.slice(i, i + size));
    }
    expect(observe(counting), `chunks of ${size}`).toEqual(observe(reading));
    expect(reading.countedLines).toBe(0);
    return counting.countedLines;
  }

  it("answers exactly as a log that read everything, whatever the chunking", () => {
    const text = flood(30_000);
    for (const size of [4096, 1000, 65_536, 37]) {
      const counted = countedAgainstRead(text, size);
      // A chunk with a colour or a progress bar in it is read whole (large chunks here all have one),
      // and a chunk of less than a line has nothing to count.
      if (size >= 1000 && size <= 4096) expect(counted, `chunks of ${size}`).toBeGreaterThan(20_000);
    }
  });

  it("counts coloured lines too, colours split across chunks included, and answers the same", () => {
    // A logger's coloured levels: SGR sequences only, with every kind of reset and colour form.
    const levels = ["\x1b[32mINFO\x1b[0m", "\x1b[1;33mWARN\x1b[22;39m", "\x1b[38;5;208mNOTE\x1b[m", "\x1b[38:2::255:0:0mFAIL\x1b[39m", "\x1b[44mBG\x1b[49m"];
    let text = "";
    for (let i = 0; i < 30_000; i++) text += `2026-11-23 ${levels[i % levels.length]} request ${i} status=200\r\n`;
    text += "\x1b[31mstill red";
    for (const size of [4096, 333, 65_536]) {
      const counted = countedAgainstRead(text, size);
      // A chunk larger than the log's character budget is read whole, as with plain lines.
      if (size <= 4096) expect(counted, `chunks of ${size}`).toBeGreaterThan(20_000);
    }
  });

  it("keeps what waits bounded, and reads it before answering", () => {
    const log = new PlainTextLog({ maxLines: 100, maxChars: 10_000, headChars: 1000 });
    for (let i = 0; i < 50_000; i++) log.write(`line ${i}\r\n`);
    // The head, the kept lines and what waits: about twice the kept lines, not the 600 KB written.
    expect(log.retainedChars).toBeLessThan(5_000);
    expect(log.countedLines).toBeGreaterThan(49_000);
    expect(log.lineCount).toBe(50_000);
    expect(log.tail(2)).toEqual(["line 49998", "line 49999"]);
  });

  it("a listener hears only lines written after it came, and while it wants them every line is read", () => {
    const log = new PlainTextLog({ maxLines: 10 });
    let wanted = false;
    const heard: number[] = [];
    log.onLine((_line, n) => heard.push(n), () => wanted);
    for (let i = 0; i < 1000; i++) log.write(`before ${i}\n`);
    wanted = true;
    log.write("after 1\nafter 2\n");
    expect(heard).toEqual([1001, 1002]);
    for (let i = 0; i < 1000; i++) log.write(`more ${i}\n`);
    expect(heard).toHaveLength(1002);
    expect(log.lineCount).toBe(2002);
  });
});
