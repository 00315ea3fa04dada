// What pitwall takes its terminal to draw beyond xterm-256color, for a job's 24-bit colours and
// underline styles: from the environment, and for 24-bit colour from the terminal's own answer.
import { describe, expect, test } from "vitest";
import { answersTruecolor, extraCapabilities, truecolorQuery } from "../../panes/screen/outer-terminal.js";

describe("the outer terminal's extras", () => {
  test("24-bit colour from COLORTERM, a -direct TERM, Windows Terminal, VTE and terminals known by name; tmux takes both", () => {
    expect(extraCapabilities({ TERM: "xterm-256color" })).toEqual({ truecolor: false, styledUnderline: false });
    expect(extraCapabilities({ TERM: "xterm-256color", COLORTERM: "truecolor" }).truecolor).toBe(true);
    expect(extraCapabilities({ TERM: "xterm-256color", COLORTERM: "24bit" }).truecolor).toBe(true);
    expect(extraCapabilities({ TERM: "xterm-direct" }).truecolor).toBe(true);
    expect(extraCapabilities({ TERM: "xterm-256color", WT_SESSION: "x" }).truecolor).toBe(true);
    expect(extraCapabilities({ TERM: "xterm-256color", VTE_VERSION: "7600" })).toEqual({ truecolor: true, styledUnderline: true });
    expect(extraCapabilities({ TERM: "xterm-kitty" })).toEqual({ truecolor: true, styledUnderline: true });
    expect(extraCapabilities({ TERM: "tmux-256color", TERM_PROGRAM: "tmux" })).toEqual({ truecolor: true, styledUnderline: true });
    expect(extraCapabilities({ TERM: "screen-256color", TMUX: "/tmp/tmux-0/default,1,0" })).toEqual({ truecolor: true, styledUnderline: true });
    // The Linux console: neither, whatever else is set.
    expect(extraCapabilities({ TERM: "linux", COLORTERM: "truecolor" })).toEqual({ truecolor: false, styledUnderline: false });
  });

  test("the query is asked only where the answer is not known and the terminal would not print it", () => {
    expect(truecolorQuery({ TERM: "xterm-256color" })).toBe("\x1b[0;48;2;1;2;3m\x1bP$qm\x1b\\\x1b[0m");
    expect(truecolorQuery({ TERM: "xterm-256color", COLORTERM: "truecolor" })).toBeUndefined();
    expect(truecolorQuery({ TERM: "linux" })).toBeUndefined();
    expect(truecolorQuery({})).toBeUndefined();
  });

  test("an answer that kept the 24-bit background says yes; one that rounded it, or knows no DECRQSS, says no", () => {
    expect(answersTruecolor("1$r0;48:2::1:2:3m")).toBe(true);
    expect(answersTruecolor("1$r0;48;2;1;2;3m")).toBe(true);
    expect(answersTruecolor("1$r0;48:5:16m")).toBe(false);
    expect(answersTruecolor("1$r0m")).toBe(false);
    expect(answersTruecolor("0$r")).toBe(false);
  });
});
