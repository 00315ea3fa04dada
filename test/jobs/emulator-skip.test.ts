// Skipping a flood's lines that can never be seen must not change what can be: the same output fed
// through the EmulatorFeed (which skips) and written whole to another emulator (which parses all)
// leaves the same screen, scrollback, attributes and cursor.
import type { Terminal } from "@xterm/headless";
import { afterEach, describe, expect, test } from "vitest";
import { queuedOutput, skippableRun, skippedColours } from "../../tools/jobs/terminal/emulator-skip.js";
import { resetsAll } from "../../tools/jobs/log/sgr-scan.js";
import { createJobTerminal, EmulatorFeed } from "../../tools/jobs/terminal/job-terminal.js";
import { waitFor } from "../helpers/conditions.js";

const terminals: Terminal[] = [];
afterEach(() => {
  for (const t of terminals.splice(0)) t.dispose();
});

function terminal(convertEol: boolean): Terminal {
  const t = createJobTerminal({ cols: 40, rows: 10, scrollback: 100, convertEol });
  terminals.push(t);
  return t;
}

/** Every line of the buffer (scrollback and screen) with each cell's colours and bold flag, and the cursor. */
function snapshot(t: Terminal): string {
  const buffer = t.buffer.active;
  const out: string[] = [`cursor ${buffer.cursorX},${buffer.cursorY} base ${buffer.baseY} length ${buffer.length} type ${buffer.type}`];
  for (let y = 0; y < buffer.length; y++) {
    const line = buffer.getLine(y)!;
    let attrs = "";
    for (let x = 0; x < t.cols; x++) {
      const cell = line.getCell(x)!;
      attrs += `${cell.getFgColorMode()}:${cell.getFgColor()}/${cell.getBgColorMode()}:${cell.getBgColor()}/${cell.isBold()}${cell.isDim()}${cell.isItalic()}${cell.isUnderline()}${cell.isInverse()} `;
    }
    out.push(`${line.isWrapped ? "w" : "-"}|${line.translateToString()}|${attrs}`);
  }
  return out.join("\n");
}

/** Feeds `stream` through a skipping feed in pty-sized chunks, and whole into a reference emulator. */
async function compare(stream: string, convertEol: boolean, chunkSize = 4096, paced = false): Promise<{ skipped: number }> {
  const fed = terminal(convertEol);
  const reference = terminal(convertEol);
  const feed = new EmulatorFeed(fed, { pause: () => undefined, resume: () => undefined }, 64 * 1024 * 1024, 1024 * 1024);
  for (let i = 0; i < stream.length; i += chunkSize) {
    feed.write(stream.slice(i, i + chunkSize));
    // Paced: the feed gets turns of the event loop between chunks, as it does reading a pty, so
    // batches are parsed, skipped and held back while more output arrives.
    if (paced && (i / chunkSize) % 4 === 3) await new Promise((resolve) => setImmediate(resolve));
  }
  await new Promise<void>((resolve) => reference.write(stream, resolve));
  await waitFor(() => feed.pending === 0, "the feed to parse everything", 10_000);
  // What is written next takes the colours the output left set: a skip must not lose them.
  for (const t of [fed, reference]) await new Promise<void>((resolve) => t.write("Z", resolve));
  expect(snapshot(fed)).toBe(snapshot(reference));
  const skipped = feed.skipped;
  feed.dispose();
  return { skipped };
}

function lines(count: number, eol: string, make: (i: number) => string = (i) => `log line ${i} ${"x".repeat(i % 50)}`): string {
  let out = "";
  for (let i = 0; i < count; i++) out += make(i) + eol;
  return out;
}

describe("skipping lines a flood pushes out of the scrollback", () => {
  test("CR LF lines (a pty), lines wider than the terminal included: skipped, and the same screen and scrollback", async () => {
    const { skipped } = await compare(lines(20_000, "\r\n") + "partial at the end", false);
    expect(skipped).toBeGreaterThan(100_000);
  });

  test("a flood arriving while the feed parses (batches held back and skipped across chunks): the same", async () => {
    const { skipped } = await compare(lines(30_000, "\r\n") + "still typing", false, 4096, true);
    expect(skipped).toBeGreaterThan(500_000);
  });

  test("bare LF lines with convertEol (a pipe job): skipped, the same", async () => {
    const { skipped } = await compare(lines(20_000, "\n") + "tail", true);
    expect(skipped).toBeGreaterThan(100_000);
  });

  test("colours, progress bars (\\r), tabs and backspaces in the flood: the same", async () => {
    // A coloured line now and then breaks the plain runs: only what lies between them can be skipped.
    const stream = lines(40_000, "\r\n", (i) => (i % 3001 === 0 ? `\x1b[3${i % 8}mcoloured ${i}\x1b[0m` : i % 89 === 0 ? `progress 10%\rprogress 100%\tdone\bD` : `plain ${i}`));
    const { skipped } = await compare(stream, false);
    expect(skipped).toBeGreaterThan(0);
  });

  test("a colour left on across plain lines is not lost, nor a colour or the alternate screen turned on mid-flood", async () => {
    await compare("\x1b[31m" + lines(20_000, "\r\n") + "\x1b[0m" + lines(5, "\r\n"), false);
    // The state changes sit in the middle of chunks deep in the queue.
    await compare(lines(10_000, "\r\n") + "\x1b[32mgreen from here\r\n" + lines(10_000, "\r\n"), false);
    await compare(lines(10_000, "\r\n") + "\x1b[?1049halternate from here\r\n" + lines(10_000, "\r\n"), false);
    // A charset shift, a tab stop set by a C1 control, a title whose string runs over many chunks.
    // (G1 is the line-drawing set, so what follows SO is drawn as lines: "lqk" is "┌─┐".)
    await compare("\x1b)0" + lines(10_000, "\r\n") + "\x0eshifted\r\n" + lines(10_000, "\r\n", (i) => `lqk ${i}`), false);
    await compare(lines(10_000, "\r\n") + "ab\x88cd\r\n" + lines(10_000, "\r\n", (i) => `\tcol ${i}`), false);
    await compare(lines(10_000, "\r\n") + "\x1b]2;" + lines(10_000, "\r\n") + "\x07after the title\r\n" + lines(50, "\r\n"), false);
  });

  test("coloured log lines (SGR only) are skipped too, and the colours they leave set are kept", async () => {
    const levels = ["\x1b[32mINFO\x1b[0m", "\x1b[1;33mWARN\x1b[22;39m", "\x1b[38;5;208mNOTE\x1b[m", "\x1b[38:2::255:0:0mFAIL\x1b[39m", "\x1b[44mBG\x1b[49m"];
    const coloured = lines(30_000, "\r\n", (i) => `${levels[i % levels.length]} request ${i}`);
    // Pty-sized chunks and small ones, both of which cut many sequences in two, and a paced flood.
    for (const [size, paced] of [[4096, false], [333, false], [4096, true]] as const) {
      const { skipped } = await compare(coloured + "tail", false, size, paced);
      // As much as from the same lines without colours: most of it (the rest is the screen and scrollback they leave).
      expect(skipped / coloured.length, `chunks of ${size}`).toBeGreaterThan(paced ? 0.6 : 0.9);
    }
    // Colours left on over the skipped lines: a background (which also fills the lines scrolled
    // in), bold, then a foreground set mid-flood and never reset.
    await compare("\x1b[41;1m" + lines(20_000, "\r\n") + "\x1b[0m" + lines(5, "\r\n"), false);
    await compare(lines(10_000, "\r\n") + "\x1b[35mmagenta from here\r\n" + lines(10_000, "\r\n", (i) => `\x1b[1mbold ${i}\x1b[22m`) + "end", false);
  });

  test("random colour sequences, full resets among them, cut anywhere by the chunks: the same", async () => {
    // A skip replays what its stretch left set, read back to the stretch's last full reset: the
    // sequences here mix full resets (first parameter 0 or none) with partial ones and settings.
    const pool = ["0", "", "0;31", "00;1", ";4", "1", "4", "7", "22", "24", "39", "49", "31", "44", "38;5;208", "48;2;1;2;3", "38:2::9:8:7"];
    let seed = 20261128;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    // Few enough that what a stretch left set lasts into the lines that stay visible after it.
    const text = lines(24_000, "\r\n", (i) => {
      let line = `r${i}`;
      if (next(40) === 0) for (let k = 1 + next(3); k > 0; k--) line += `\x1b[${pool[next(pool.length)]}m${"w".repeat(next(6))}`;
      return line;
    });
    for (const [size, paced] of [[4096, false], [333, true], [1000, false]] as const) {
      const { skipped } = await compare(text + "end", false, size, paced);
      expect(skipped, `chunks of ${size}`).toBeGreaterThan(0);
    }
  });

  test("small chunks: the last lines skipped are exactly those the lines after them push out", async () => {
    for (const size of [64, 200, 333]) {
      const { skipped } = await compare(lines(3_000, "\r\n", (i) => `n${i}`), false, size);
      expect(skipped).toBeGreaterThan(0);
    }
  });

  test("a scroll region, the alternate screen and raw LF without CR: the same", async () => {
    const region = "\x1b[1;5r" + lines(5_000, "\r\n") + "\x1b[r" + lines(5_000, "\r\n");
    await compare(region, false);
    const alternate = lines(3_000, "\r\n") + "\x1b[?1049h" + lines(5_000, "\r\n") + "\x1b[?1049l" + lines(3_000, "\r\n");
    await compare(alternate, false);
    const rawLf = lines(20_000, "\n", (i) => `r${i}`);
    await compare(rawLf, false);
  });

  test("a skip runs from line end to line end, across chunks, only in plain text, only with enough plain lines after it", () => {
    const ctx = { rows: 10, scrollback: 100, convertEol: false, following: true, fullScrollRegion: true, parserInGround: true };
    // 120 line feeds must follow what is skipped.
    const chunk = queuedOutput("end of a line\r\nfull line\r\nanother\r\npartial");
    const plenty = queuedOutput("l\r\n".repeat(200));
    // From after the first line end to after the 80th line of `plenty`: its last 120 lines stay.
    expect(skippableRun([chunk, plenty], 0, ctx)).toEqual({ start: 15, end: { chunk: 1, offset: 240 } });
    expect(skippableRun([chunk, queuedOutput("l\r\n".repeat(100))], 0, ctx)).toBeUndefined();
    expect(skippableRun([chunk, queuedOutput("\x1b[2J"), plenty], 0, ctx)).toBeUndefined();
    expect(skippableRun([queuedOutput("a\r\n\x1b[?25lb\r\nc\r\n"), plenty], 0, ctx)).toBeUndefined();
    // Colours (complete SGR sequences) are all the escapes a skippable chunk may hold.
    expect(skippableRun([queuedOutput("a\r\n\x1b[1mb\r\nc\r\n"), plenty], 0, ctx)).toEqual({ start: 3, end: { chunk: 1, offset: 240 } });
    expect(queuedOutput("\x1b[38;5;208mx\x1b[0m\r\n")).toMatchObject({ plain: true, coloured: true });
    for (const other of ["\x1b[>4;2m", "\x1b[2J", "\x1b[3", "\x1b", "\x1b(0"]) expect(queuedOutput(`a\r\n${other}`).plain, JSON.stringify(other)).toBe(false);
    expect(skippableRun([chunk, plenty], 0, { ...ctx, following: false })).toBeUndefined();
    expect(skippableRun([chunk, plenty], 0, { ...ctx, fullScrollRegion: false })).toBeUndefined();
    expect(skippableRun([chunk, plenty], 0, { ...ctx, parserInGround: false })).toBeUndefined();
    // Charset shifts and C1 controls change state; a bell or a form feed does not.
    for (const stateful of ["\x0e", "\x0f", "\x9b", "\x88"]) expect(queuedOutput(`a\r\n${stateful}b\r\n`).plain).toBe(false);
    for (const harmless of ["\x07", "\x0c", "\t", "\b", "é ✓ 中"]) expect(queuedOutput(`a\r\n${harmless}b\r\n`)).toMatchObject({ plain: true, coloured: false });
    expect(skippableRun([queuedOutput("a\nb\nc\n"), plenty], 0, ctx)).toBeUndefined();
    expect(skippableRun([queuedOutput("a\nb\nc\n"), plenty], 0, { ...ctx, convertEol: true })).toEqual({ start: 2, end: { chunk: 1, offset: 240 } });
    // Many small chunks make one run; the end lands in the chunk that leaves exactly 120 lines after it.
    const small = Array.from({ length: 300 }, () => queuedOutput("x\r\n"));
    expect(skippableRun(small, 0, ctx)).toEqual({ start: 3, end: { chunk: 179, offset: 3 } });
    // A bare LF (no CR before it) is not a line end on a pty: the skip ends at the line end before it.
    const bare = queuedOutput("l\r\n".repeat(10) + "x\n" + "l\r\n".repeat(120));
    expect(skippableRun([queuedOutput("a\r\nb\r\n"), bare], 0, ctx)).toEqual({ start: 3, end: { chunk: 1, offset: 30 } });
  });

  test("what a skipped stretch replays: each colour sequence once, in the order it last appeared", () => {
    const queue = [queuedOutput("keep\x1b[31m\r\n\x1b[1mA\x1b[32mB\x1b[0m\r\n"), queuedOutput("\x1b[32mC\x1b[1m\r\nD\x1b[44m\r\nafter\x1b[35m")];
    // From after the first line end to after "D\x1b[44m\r\n": [1m, [32m, [0m, [32m, [1m, [44m.
    expect(skippedColours(queue, 0, 11, { chunk: 1, offset: 21 })).toBe("\x1b[0m\x1b[32m\x1b[1m\x1b[44m");
    expect(skippedColours([queuedOutput("plain\r\nlines\r\n")], 0, 7, { chunk: 0, offset: 14 })).toBe("");
    // Nothing before the last full reset survives it, so nothing before it is replayed (or read):
    // here the reset is ESC [ ; 4 m, and the last sequence is cut in two by the chunks' boundary.
    const reset = [queuedOutput("x\r\n\x1b[1;31mA\x1b[4mB\r\n\x1b[;4mC\x1b[3"), queuedOutput("2mD\r\n\x1b[0m\x1b[1mE\r\n")];
    expect(skippedColours(reset, 0, 3, { chunk: 1, offset: 5 })).toBe("\x1b[;4m\x1b[32m");
    expect(skippedColours(reset, 0, 3, { chunk: 1, offset: 17 })).toBe("\x1b[0m\x1b[1m");
    expect(skippedColours(reset, 0, 3, { chunk: 0, offset: 20 })).toBe("\x1b[1;31m\x1b[4m");
  });

  test("which colour sequences reset every attribute first: a first parameter of 0 or none", () => {
    for (const reset of ["\x1b[m", "\x1b[0m", "\x1b[00m", "\x1b[0;31m", "\x1b[;1m"]) expect(resetsAll(reset), JSON.stringify(reset)).toBe(true);
    for (const other of ["\x1b[1m", "\x1b[01m", "\x1b[31;0m", "\x1b[0:3m", "\x1b[39m"]) expect(resetsAll(other), JSON.stringify(other)).toBe(false);
  });

  test("no screen shows lines that never stood together: whenever the feed yields, the rows on screen are consecutive lines of the output", async () => {
    for (const convertEol of [false, true]) {
      const fed = terminal(convertEol);
      const feed = new EmulatorFeed(fed, { pause: () => undefined, resume: () => undefined }, 64 * 1024 * 1024, 1024 * 1024);
      const problems: string[] = [];
      let looks = 0;
      // What a screen update would send: the rows on screen, read after every parse and every turn of the event loop.
      const look = (): void => {
        looks++;
        const buffer = fed.buffer.active;
        const rows: string[] = [];
        for (let y = buffer.baseY; y < buffer.baseY + fed.rows; y++) rows.push(buffer.getLine(y)!.translateToString(true));
        const shown = rows.filter((text) => text !== "");
        const numbers = shown.map((text) => Number(/^line (\d+)$/.exec(text)?.[1] ?? NaN));
        // The line being written may be cut short where a chunk ended: the start of the next one.
        const last = shown.length - 1;
        if (last > 0 && `line ${numbers[last - 1]! + 1}`.startsWith(shown[last]!)) numbers[last] = numbers[last - 1]! + 1;
        for (let i = 1; i < numbers.length; i++) if (numbers[i] !== numbers[i - 1]! + 1) problems.push(shown.join(" | "));
      };
      feed.onWrite(look);
      const stream = lines(60_000, convertEol ? "\n" : "\r\n", (i) => `line ${i}`);
      for (let i = 0; i < stream.length; i += 4096) {
        feed.write(stream.slice(i, i + 4096));
        if ((i / 4096) % 4 === 3) {
          await new Promise((resolve) => setImmediate(resolve));
          look();
        }
      }
      await waitFor(() => feed.pending === 0, "the feed to parse everything", 10_000);
      look();
      expect(feed.skipped).toBeGreaterThan(0);
      expect(looks).toBeGreaterThan(10);
      expect(problems.slice(0, 3)).toEqual([]);
      feed.dispose();
    }
  });
});

