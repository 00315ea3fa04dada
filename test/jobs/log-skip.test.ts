// countableLines decides which stretches of a flood the plain-text log counts instead of reading.
// A caller that counted the line feeds already passes the count; the answer must not change. The
// log asks countableRun of the chunks as they came: the answer must be the joined text's.
import { describe, expect, test } from "vitest";
import { countableLines, countableRun } from "../../tools/jobs/log/log-skip.js";
import { countNewlines } from "../../tools/output-cap.js";
import { sgrChars } from "../../tools/jobs/log/sgr-scan.js";

/** Both ways of asking, for the whole text (which starts at a line start and ends with a line feed). */
function ask(text: string, maxLineChars = 64): ReturnType<typeof countableLines> {
  const counted = countableLines(text, 0, text.length, maxLineChars);
  // A caller that counted the line feeds vouches for the line lengths only when the stretch is short.
  if (text.length <= maxLineChars) expect(countableLines(text, 0, text.length, maxLineChars, countNewlines(text))).toEqual(counted);
  return counted;
}

describe("countableLines", () => {
  test("CR LF lines: the lines, and their characters without the carriage returns", () => {
    expect(ask("one\r\ntwo\r\n\r\n")).toEqual({ lines: 3, chars: 9 });
    expect(ask("bare\nand crlf\r\n")).toEqual({ lines: 2, chars: 14 });
  });

  test("a carriage return that does not end its line rewrites it: not countable", () => {
    expect(ask("50%\r100%\r\n")).toBeUndefined();
    expect(ask("twice\r\r\n")).toBeUndefined();
  });

  test("colour sequences count as nothing; any other escape is not countable", () => {
    expect(ask("\x1b[32mINFO\x1b[0m ok\r\n")).toEqual({ lines: 1, chars: 8 });
    expect(ask("\x1b[2Jcleared\r\n")).toBeUndefined();
  });

  test("a line longer than the log wraps is not countable, whether or not the count is given", () => {
    const long = `${"x".repeat(100)}\r\nshort\r\n`;
    expect(ask(long, 64)).toBeUndefined();
    // A given count is trusted: the caller knows the lines are short.
    expect(countableLines(long, 0, long.length, 64, 2)).toEqual({ lines: 2, chars: 107 });
  });

  test("vertical tab, form feed, backspace and DEL end or rewrite lines: not countable", () => {
    for (const control of ["\x0b", "\x0c", "\b", "\x7f"]) expect(ask(`a${control}b\n`)).toBeUndefined();
  });
});

describe("countableRun: the chunks of a stretch as they came, unjoined", () => {
  const stretches = [
    "one\r\ntwo\r\n\r\n",
    "\x1b[32mINFO\x1b[0m ok\r\n\x1b[38;5;208mNOTE\x1b[m two\r\n",
    "50%\r100%\r\nafter\r\n",
    "\x1b[2Jcleared\r\nnext\r\n",
    `${"x".repeat(40)}\r\n${"y".repeat(40)}\r\n`,
    "a\bb\ndone\n",
    "caf\u00e9 \u0085 C1\r\nok\r\n",
  ];

  /**
   * The stretch in `cuts.length + 1` chunks; from and end at its ends, with a partial line before
   * and after. `scanned`: with each chunk's sgrChars, as a job's writer hands them on.
   */
  function split(text: string, cuts: number[], scanned = false): Parameters<typeof countableRun>[0] {
    // Colours outside the stretch: a writer's scan of a whole chunk counts them, the stretch does not.
    const before = "\x1b[1mbefore\n";
    const after = "\x1b[2mafter";
    const padded = `${before}${text}${after}`;
    const at = [0, ...cuts.map((cut) => cut + before.length), padded.length];
    const chunks = at.slice(1).map((end, i) => padded.slice(at[i], end));
    const last = chunks.length - 1;
    return { chunks, first: 0, from: before.length, last, end: chunks[last]!.length - after.length, ...(scanned ? { colourChars: chunks.map((chunk) => sgrChars(chunk)) } : {}) };
  }

  test("two chunks, cut anywhere: the joined text's answer (a colour sequence cut in two included)", () => {
    for (const text of stretches) {
      for (let cut = 1; cut < text.length; cut++) {
        for (const max of [64, 30]) {
          const joined = countableLines(text, 0, text.length, max);
          expect(countableRun(split(text, [cut]), max), `${JSON.stringify(text)} cut at ${cut}, lines up to ${max}`).toEqual(joined);
          expect(countableRun(split(text, [cut], true), max), `${JSON.stringify(text)} cut at ${cut}, scanned, lines up to ${max}`).toEqual(joined);
        }
      }
    }
  });

  test("three chunks: never counts what the joined text would not, and counts the same when it does", () => {
    for (const text of stretches) {
      const joined = countableLines(text, 0, text.length, 64);
      let counted = 0;
      let cuts = 0;
      for (let one = 1; one < text.length; one++) {
        for (let two = one + 1; two < text.length; two++) {
          const run = countableRun(split(text, [one, two]), 64);
          if (run !== undefined) expect(run, `${JSON.stringify(text)} cut at ${one} and ${two}`).toEqual(joined);
          // The writer's scans of the chunks change nothing.
          expect(countableRun(split(text, [one, two], true), 64), `${JSON.stringify(text)} cut at ${one} and ${two}, scanned`).toEqual(run);
          counted += run === undefined ? 0 : 1;
          cuts++;
        }
      }
      // Only a colour sequence over all three chunks is read rather than counted.
      if (joined !== undefined && !text.includes("\x1b")) expect(counted, JSON.stringify(text)).toBe(cuts);
      if (joined !== undefined) expect(counted, JSON.stringify(text)).toBeGreaterThan(cuts * 0.8);
    }
  });
});
