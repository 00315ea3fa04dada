// The input's editing model, history, and wrapping of long lines by character.
import { describe, expect, test } from "vitest";
import { InputHistory } from "../../panes/input/input-history.js";
import { charWrap } from "../../panes/input/input-pane.js";
import { TextBuffer } from "../../panes/input/text-buffer.js";

describe("text buffer", () => {
  test("inserting text with newlines puts the cursor after it", () => {
    const b = new TextBuffer();
    b.insert("hello");
    b.home();
    b.insert("a\nb\n");
    expect(b.lines).toEqual(["a", "b", "hello"]);
    expect([b.row, b.col]).toEqual([2, 0]);
  });

  test("moves and deletes by grapheme, so an emoji or an accent goes whole", () => {
    const b = new TextBuffer();
    b.insert("a👍🏽e\u0301z");
    b.left();
    b.left();
    expect(b.col).toBe("a👍🏽".length);
    b.backspace();
    expect(b.text).toBe("ae\u0301z");
    b.deleteForward();
    expect(b.text).toBe("az");
  });

  test("backspace at the start of a line joins it to the one above", () => {
    const b = new TextBuffer();
    b.text = "one\ntwo";
    b.home();
    b.backspace();
    expect(b.text).toBe("onetwo");
    expect([b.row, b.col]).toEqual([0, 3]);
  });

  test("up and down report the edges (where history takes over)", () => {
    const b = new TextBuffer();
    b.text = "first line\nsecond";
    expect(b.down()).toBe(false);
    expect(b.up()).toBe(true);
    expect(b.row).toBe(0);
    expect(b.col).toBe(6);
    expect(b.up()).toBe(false);
  });

  test("word moves and word/line kills", () => {
    const b = new TextBuffer();
    b.insert("git commit -m message");
    b.wordLeft();
    expect(b.col).toBe("git commit -m ".length);
    b.deleteWordBack();
    expect(b.text).toBe("git commit message");
    b.deleteToLineStart();
    expect(b.text).toBe("message");
    b.end();
    b.wordLeft();
    b.deleteToLineEnd();
    expect(b.text).toBe("");
  });
});

describe("input history", () => {
  test("Up goes back, Down comes forward to the draft", () => {
    const h = new InputHistory();
    h.add("one");
    h.add("two");
    expect(h.previous("draft")).toBe("two");
    expect(h.previous("two")).toBe("one");
    expect(h.previous("one")).toBeUndefined();
    expect(h.next()).toBe("two");
    expect(h.next()).toBe("draft");
    expect(h.next()).toBeUndefined();
  });
});

describe("character wrap of the input", () => {
  test("ASCII and wide characters wrap to the width", () => {
    expect(charWrap("abcdefgh", 3)).toEqual([{ start: 0, end: 3 }, { start: 3, end: 6 }, { start: 6, end: 8 }]);
    const rows = charWrap("中文中文", 5);
    expect(rows.map((r) => "中文中文".slice(r.start, r.end))).toEqual(["中文", "中文"]);
  });
});
