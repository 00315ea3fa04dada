// countableLines decides which stretches of a flood the plain-text log counts instead of reading.
// A caller that counted the line feeds already passes the count; the answer must not change.
import { describe, expect, test } from "vitest";
import { countableLines } from "../../tools/jobs/log/log-skip.js";
import { countNewlines } from "../../tools/output-cap.js";

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
