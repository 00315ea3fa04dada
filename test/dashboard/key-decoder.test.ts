// The key decoder turns terminal bytes into keys, text, pastes and mouse events.
import { describe, expect, test, vi } from "vitest";
import { KeyDecoder, type InputEvent } from "../../app/keys/key-decoder.js";

function decode(...chunks: string[]): Promise<InputEvent[]> {
  vi.useFakeTimers();
  try {
    const events: InputEvent[] = [];
    const decoder = new KeyDecoder((e) => events.push(e), { escapeTimeoutMs: 5 });
    for (const c of chunks) decoder.feed(c);
    // A lone ESC waits this long for the rest of a sequence, then counts as the Escape key.
    vi.advanceTimersByTime(5);
    return Promise.resolve(events);
  } finally {
    vi.useRealTimers();
  }
}

const keys = (events: InputEvent[]): string[] => events.map((e) => (e.type === "key" ? e.name : `${e.type}:${"text" in e ? e.text : ""}`));

describe("key decoder", () => {
  test("control keys, Enter versus Ctrl+J, Tab, Backspace", async () => {
    expect(keys(await decode("\r\n\t\x7f\x03\x04"))).toEqual(["enter", "ctrl+j", "tab", "backspace", "ctrl+c", "ctrl+d"]);
  });

  test("a run of typed characters is one text event, wide characters included", async () => {
    expect(keys(await decode("héllo 👍🏽 中"))).toEqual(["text:héllo 👍🏽 中"]);
  });

  test("Shift+Enter in the kitty protocol and in xterm's modifyOtherKeys; Alt+Enter", async () => {
    expect(keys(await decode("\x1b[13;2u", "\x1b[27;2;13~", "\x1b\r"))).toEqual(["shift+enter", "shift+enter", "alt+enter"]);
  });

  test("kitty's encoding of Ctrl+C and Escape", async () => {
    expect(keys(await decode("\x1b[99;5u", "\x1b[27u"))).toEqual(["ctrl+c", "escape"]);
  });

  test("arrows, modified arrows, function keys (CSI and SS3), PageUp, Shift+Tab", async () => {
    expect(keys(await decode("\x1b[A\x1b[1;3B\x1b[1;5C\x1bOP\x1b[15~\x1b[5~\x1b[Z\x1b[H\x1b[F"))).toEqual(["up", "alt+down", "ctrl+right", "f1", "f5", "pageup", "shift+tab", "home", "end"]);
  });

  test("a lone Escape is a key after a short wait; ESC followed by a letter is Alt", async () => {
    expect(keys(await decode("\x1b"))).toEqual(["escape"]);
    expect(keys(await decode("\x1bz"))).toEqual(["alt+z"]);
    expect(keys(await decode("\x1b\x1b"))).toEqual(["escape", "escape"]);
  });

  test("an escape sequence split across reads is put together", async () => {
    expect(keys(await decode("\x1b[", "1;3", "A"))).toEqual(["alt+up"]);
  });

  test("a bracketed paste arrives whole, across reads, with its newlines", async () => {
    const big = "line\r\n".repeat(20_000);
    const events = await decode("\x1b[200~", big.slice(0, 50_000), big.slice(50_000), "\x1b[20", "1~x");
    expect(events).toHaveLength(2);
    expect(events[0]).toEqual({ type: "paste", text: "line\n".repeat(20_000) });
    expect(events[1]).toEqual({ type: "text", text: "x" });
  });

  test("SGR mouse: wheel and press with 0-based cells", async () => {
    expect(await decode("\x1b[<64;10;5M\x1b[<65;1;1M\x1b[<0;3;4M")).toEqual([
      { type: "mouse", action: "wheelup", button: 0, code: 64, x: 9, y: 4 },
      { type: "mouse", action: "wheeldown", button: 1, code: 65, x: 0, y: 0 },
      { type: "mouse", action: "press", button: 0, code: 0, x: 2, y: 3 },
    ]);
  });

  test("SGR mouse: release, drag and bare motion, the sideways wheel, and the button code kept with its modifiers", async () => {
    const events = await decode("[<2;5;6m[<32;7;8M[<35;9;9M[<66;1;1M[<67;1;1M[<20;2;2M");
    expect(events.map((e) => (e.type === "mouse" ? [e.action, e.button, e.code] : e.type))).toEqual([
      ["release", 2, 2],
      ["motion", 0, 32],
      ["motion", 3, 35],
      ["wheelleft", 2, 66],
      ["wheelright", 3, 67],
      // Ctrl+Shift and the left button.
      ["press", 0, 20],
    ]);
  });

  test("the terminal's DCS answers (DECRQSS, XTGETTCAP) are replies, never keys; Alt+Shift+P alone stays a key", async () => {
    expect(await decode("\x1bP1$r0;48:2::1:2:3m\x1b\\x")).toEqual([
      { type: "reply", text: "1$r0;48:2::1:2:3m" },
      { type: "text", text: "x" },
    ]);
    // Split across reads, and ended with BEL.
    expect(await decode("\x1bP", "1+r524742", "\x07")).toEqual([{ type: "reply", text: "1+r524742" }]);
    expect(keys(await decode("\x1bP"))).toEqual(["alt+P"]);
    expect(keys(await decode("\x1bPx"))).toEqual(["alt+P", "text:x"]);
  });

  test("8-bit Alt (xterm without metaSendsEscape): C1 characters are Alt with a control key; Latin-1 letters stay text", async () => {
    expect(keys(await decode("\u008d", "\u0088"))).toEqual(["alt+enter", "alt+backspace"]);
    expect(keys(await decode("a\u008db"))).toEqual(["text:a", "alt+enter", "text:b"]);
    expect(keys(await decode("±é"))).toEqual(["text:±é"]);
  });

  test("Esc and Ctrl+] in one read decode as Alt+Ctrl+] (the attached mode detaches on it)", async () => {
    expect(keys(await decode("\x1b\x1d"))).toEqual(["ctrl+alt+]"]);
  });
});
