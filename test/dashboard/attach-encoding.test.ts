// What an attached job receives for each key (the classic xterm bytes, whatever protocol the
// person's terminal speaks to pitwall) and for the mouse (xterm's reports, in the tracking and
// encoding the job asked for), and the clipboard sequence (OSC 52).
import { describe, expect, test } from "vitest";
import { osc52 } from "../../app/osc52.js";
import { key } from "../../app/keys/key-names.js";
import { encodeKey, encodePaste } from "../../app/keys/pty-keys.js";
import { encodeMouse } from "../../app/keys/pty-mouse.js";
import type { MouseEvent } from "../../app/keys/key-decoder.js";

const APP = { applicationCursorKeys: true, bracketedPaste: true };

describe("keys for a job's pty", () => {
  test("printable keys, Enter, Backspace, Tab, Esc and Space", () => {
    expect(encodeKey(key("y"))).toBe("y");
    expect(encodeKey(key("Y"))).toBe("Y");
    expect(encodeKey(key("?"))).toBe("?");
    expect(encodeKey(key("enter"))).toBe("\r");
    expect(encodeKey(key("backspace"))).toBe("\x7f");
    expect(encodeKey(key("tab"))).toBe("\t");
    expect(encodeKey(key("shift+tab"))).toBe("\x1b[Z");
    expect(encodeKey(key("escape"))).toBe("\x1b");
    expect(encodeKey(key("space"))).toBe(" ");
  });

  test("Ctrl with letters and punctuation, Alt as an ESC prefix", () => {
    expect(encodeKey(key("ctrl+c"))).toBe("\x03");
    expect(encodeKey(key("ctrl+d"))).toBe("\x04");
    expect(encodeKey(key("ctrl+a"))).toBe("\x01");
    expect(encodeKey(key("ctrl+z"))).toBe("\x1a");
    expect(encodeKey(key("ctrl+j"))).toBe("\n");
    expect(encodeKey(key("ctrl+space"))).toBe("\x00");
    expect(encodeKey(key("ctrl+\\"))).toBe("\x1c");
    expect(encodeKey(key("ctrl+]"))).toBe("\x1d");
    expect(encodeKey(key("alt+x"))).toBe("\x1bx");
    expect(encodeKey(key("alt+enter"))).toBe("\x1b\r");
    expect(encodeKey(key("ctrl+alt+c"))).toBe("\x1b\x03");
  });

  test("cursor keys follow the job's cursor-key mode; modifiers use xterm's parameters", () => {
    expect(encodeKey(key("up"))).toBe("\x1b[A");
    expect(encodeKey(key("up"), APP)).toBe("\x1bOA");
    expect(encodeKey(key("left"), APP)).toBe("\x1bOD");
    expect(encodeKey(key("home"))).toBe("\x1b[H");
    expect(encodeKey(key("end"), APP)).toBe("\x1bOF");
    expect(encodeKey(key("ctrl+right"))).toBe("\x1b[1;5C");
    expect(encodeKey(key("shift+up"), APP)).toBe("\x1b[1;2A");
    expect(encodeKey(key("alt+down"))).toBe("\x1b[1;3B");
  });

  test("editing and function keys", () => {
    expect(encodeKey(key("delete"))).toBe("\x1b[3~");
    expect(encodeKey(key("insert"))).toBe("\x1b[2~");
    expect(encodeKey(key("pageup"))).toBe("\x1b[5~");
    expect(encodeKey(key("pagedown"))).toBe("\x1b[6~");
    expect(encodeKey(key("f1"))).toBe("\x1bOP");
    expect(encodeKey(key("f4"))).toBe("\x1bOS");
    expect(encodeKey(key("f5"))).toBe("\x1b[15~");
    expect(encodeKey(key("f10"))).toBe("\x1b[21~");
    expect(encodeKey(key("f12"))).toBe("\x1b[24~");
    expect(encodeKey(key("shift+f5"))).toBe("\x1b[15;2~");
    expect(encodeKey(key("ctrl+f1"))).toBe("\x1b[1;5P");
    expect(encodeKey(key("ctrl+pageup"))).toBe("\x1b[5;5~");
  });

  test("a paste: line breaks as Enter, bracketed only when the program asked for it", () => {
    expect(encodePaste("a\nb\r\nc")).toBe("a\rb\rc");
    expect(encodePaste("a\nb", APP)).toBe("\x1b[200~a\rb\x1b[201~");
    // A paste cannot end the bracket early.
    expect(encodePaste("x\x1b[201~y", APP)).toBe("\x1b[200~xy\x1b[201~");
  });
});

describe("mouse reports for a job's pty", () => {
  /** A mouse event as the decoder makes it from the person's terminal (SGR button code `code`). */
  const mouse = (action: MouseEvent["action"], code: number): MouseEvent => ({ type: "mouse", action, button: code & 3, code, x: 0, y: 0 });
  const SGR = { mouseEncoding: "sgr", mouseTracking: "vt200" } as const;
  const X10 = { mouseEncoding: "default", mouseTracking: "vt200" } as const;

  test("SGR 1006: the button code as sent, the job's 1-based cell, M for a press and m for a release", () => {
    expect(encodeMouse(mouse("press", 0), 5, 3, SGR)).toBe("[<0;5;3M");
    expect(encodeMouse(mouse("release", 2), 5, 3, SGR)).toBe("[<2;5;3m");
    expect(encodeMouse(mouse("wheeldown", 65), 300, 90, SGR)).toBe("[<65;300;90M");
    // Ctrl+Shift with the left button.
    expect(encodeMouse(mouse("press", 20), 1, 1, SGR)).toBe("[<20;1;1M");
  });

  test("X10's bytes: code, column and row each plus 32; a release as button 3; nothing past column 223", () => {
    expect(encodeMouse(mouse("press", 0), 5, 3, X10)).toBe("[M %#");
    expect(encodeMouse(mouse("release", 2), 5, 3, X10)).toBe("[M#%#");
    expect(encodeMouse(mouse("wheelup", 64), 1, 1, X10)).toBe("[M`!!");
    expect(encodeMouse(mouse("press", 0), 224, 1, X10)).toBeUndefined();
  });

  test("the job's tracking decides what it gets: 9 presses only and no modifiers, 1000 no motion, 1002 drags, 1003 any motion", () => {
    const as = (mouseTracking: "none" | "x10" | "vt200" | "drag" | "any") => ({ mouseEncoding: "sgr", mouseTracking }) as const;
    const drag = mouse("motion", 32);
    const hover = mouse("motion", 35);
    expect(encodeMouse(mouse("press", 0), 1, 1, as("none"))).toBeUndefined();
    expect(encodeMouse(mouse("press", 20), 1, 1, as("x10"))).toBe("[<0;1;1M");
    expect([mouse("release", 0), mouse("wheelup", 64), drag].map((e) => encodeMouse(e, 1, 1, as("x10")))).toEqual([undefined, undefined, undefined]);
    expect([mouse("release", 0), mouse("wheelup", 64), drag].map((e) => encodeMouse(e, 1, 1, as("vt200")))).toEqual(["[<0;1;1m", "[<64;1;1M", undefined]);
    expect([drag, hover].map((e) => encodeMouse(e, 1, 1, as("drag")))).toEqual(["[<32;1;1M", undefined]);
    expect(encodeMouse(hover, 1, 1, as("any"))).toBe("[<35;1;1M");
  });

  test("SGR pixels (1016) is never guessed at", () => {
    expect(encodeMouse(mouse("press", 0), 1, 1, { mouseEncoding: "sgr-pixels", mouseTracking: "vt200" })).toBeUndefined();
  });
});

describe("OSC 52", () => {
  test("the text base64-encoded in ESC ] 52 ; c ; … BEL", () => {
    const payload = osc52("héllo\nworld");
    expect(payload.sequence).toBe(`\x1b]52;c;${Buffer.from("héllo\nworld").toString("base64")}\x07`);
    expect(payload.cut).toBe(false);
    expect(payload.bytes).toBe(Buffer.byteLength("héllo\nworld"));
  });

  test("inside tmux, also wrapped in tmux's passthrough with each ESC doubled", () => {
    const payload = osc52("hi", { tmux: true });
    const plain = `\x1b]52;c;${Buffer.from("hi").toString("base64")}\x07`;
    expect(payload.sequence).toBe(`${plain}\x1bPtmux;\x1b${plain}\x1b\\`);
  });

  test("past the cap only the end is copied, never starting mid-character", () => {
    const payload = osc52("ab€cd", { maxBytes: 4 });
    // "€" is three bytes: the last 4 bytes start inside it, so it is dropped whole.
    expect(payload.cut).toBe(true);
    const text = Buffer.from(/52;c;([^\x07]*)/.exec(payload.sequence)![1]!, "base64").toString("utf8");
    expect(text).toBe("cd");
  });
});
