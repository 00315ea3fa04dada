// Colour on dark and light terminals: pitwall's own colours are shaded for the background, a
// program's colours are left as they are, the selection is a neutral grey that keeps each row's
// status colour, the terminal's answer to the background query picks the theme (in time, never
// as typed keys), and a theme from the settings wins.
import { connect, createServer, type AddressInfo, type Socket } from "node:net";
import { describe, expect, test, vi } from "vitest";
import { KeyDecoder, type InputEvent } from "../../app/keys/key-decoder.js";
import { TerminalTheme } from "../../app/terminal-theme.js";
import { sgrFor } from "../../panes/screen/blessed-patches/diff-draw.js";
import { BACKGROUND_QUERY, resolveColor, themeForBackground, themeFromEnvironment, type Theme } from "../../panes/screen/palette.js";
import { selectedRow } from "../../panes/text/selection.js";
import { attr, bgOf, Color, DEFAULT_COLOR, fgOf, Palette } from "../../panes/text/styled-text.js";

describe("colours for the theme", () => {
  test("on a light terminal pitwall's yellow, cyan and green are darker shades; on a dark one the terminal's own", () => {
    expect(sgrFor(attr({ fg: Color.yellow }), 256, "dark")).toBe("\x1b[0;33m");
    expect(sgrFor(attr({ fg: Color.yellow }), 256, "light")).toBe("\x1b[0;38;5;136m");
    expect(resolveColor(Color.cyan, "light", 256)).toBe(31);
    expect(resolveColor(Color.green, "light", 256)).toBe(28);
    // Colours that read on white stay the terminal's own.
    expect(resolveColor(Color.red, "light", 256)).toBe(1);
    expect(resolveColor(Color.magenta, "light", 256)).toBe(5);
  });

  test("a program's colours (a job's output) are shown as it sent them, whatever the theme", () => {
    expect(sgrFor(attr({ fg: Palette.yellow }), 256, "light")).toBe("\x1b[0;33m");
    expect(resolveColor(Palette.cyan, "light", 256)).toBe(6);
    expect(resolveColor(200, "light", 256)).toBe(200);
  });

  test("the selection and the status line are greys a shade off the background; on 16 colours or fewer, blue and black as before", () => {
    expect(resolveColor(Color.selection, "dark", 256)).toBe(238);
    expect(resolveColor(Color.selection, "light", 256)).toBe(252);
    expect(resolveColor(Color.bar, "dark", 256)).toBe(235);
    // No black stripe on a light terminal.
    expect(resolveColor(Color.bar, "light", 256)).toBe(254);
    expect(sgrFor(attr({ bg: Color.selection }), 8, "light")).toBe("\x1b[0;44m");
    expect(sgrFor(attr({ bg: Color.bar }), 8, "dark")).toBe("\x1b[0;40m");
    // Without colours, a background is reverse video.
    expect(sgrFor(attr({ bg: Color.selection, bold: true }), 1, "dark")).toBe("\x1b[0;1;7m");
  });

  test("a selected row is one neutral background; its status colours stay, dim text takes the terminal's text colour", () => {
    const row = selectedRow(
      [
        { text: "▶", attr: attr({ fg: Color.cyan }) },
        { text: " 1 npm run dev ", attr: attr({ fg: Color.grey }) },
        { text: "up 46.1s", attr: attr({ fg: Color.green }) },
        { text: " exit 1", attr: attr({ fg: Color.red }) },
      ],
      40,
    );
    expect(new Set(row.map((s) => bgOf(s.attr)))).toEqual(new Set([Color.selection]));
    expect(row.map((s) => fgOf(s.attr))).toEqual([Color.cyan, DEFAULT_COLOR, Color.green, Color.brightRed, DEFAULT_COLOR]);
  });
});

describe("the terminal's background", () => {
  test("the answer to the background query picks dark or light by its brightness", () => {
    expect(themeForBackground("rgb:ffff/ffff/ffff")).toBe("light");
    expect(themeForBackground("rgb:fdfd/f6f6/e3e3")).toBe("light");
    expect(themeForBackground("rgb:0000/0000/0000")).toBe("dark");
    expect(themeForBackground("rgb:1e/1e/2e")).toBe("dark");
    expect(themeForBackground("#fafafa")).toBe("light");
    expect(themeForBackground("?")).toBeUndefined();
  });

  test("COLORFGBG is a first guess: a white background is light", () => {
    expect(themeFromEnvironment({ COLORFGBG: "0;15" })).toBe("light");
    expect(themeFromEnvironment({ COLORFGBG: "0;default;7" })).toBe("light");
    expect(themeFromEnvironment({ COLORFGBG: "15;0" })).toBe("dark");
    expect(themeFromEnvironment({ COLORFGBG: "default;default" })).toBeUndefined();
    expect(themeFromEnvironment({})).toBeUndefined();
  });

  test("the terminal's answer is a report, never typed text; Alt+] is still a key", () => {
    vi.useFakeTimers();
    try {
      const events: InputEvent[] = [];
      const decoder = new KeyDecoder((e) => events.push(e), { escapeTimeoutMs: 5 });
      decoder.feed("a\x1b]11;rgb:ffff/ffff/ffff\x1b\\b");
      decoder.feed("\x1b]11;rgb:0000/");
      decoder.feed("0000/0000\x07");
      decoder.feed("\x1b]");
      vi.advanceTimersByTime(5);
      expect(events).toEqual([
        { type: "text", text: "a" },
        { type: "report", code: 11, value: "rgb:ffff/ffff/ffff" },
        { type: "text", text: "b" },
        { type: "report", code: 11, value: "rgb:0000/0000/0000" },
        { type: "key", name: "alt+]" },
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  function themeFor(env: NodeJS.ProcessEnv = { TERM: "xterm-256color" }): { theme: TerminalTheme; written: string[]; set: Theme[] } {
    const written: string[] = [];
    const set: Theme[] = [];
    const theme = new TerminalTheme({ writer: { setTheme: (t) => set.push(t) }, write: (d) => written.push(d), requestFrame: () => undefined, env, timeoutMs: 500 });
    return { theme, written, set };
  }

  test("asked once after the first frame; an answer in time sets the theme, a late one is ignored", () => {
    vi.useFakeTimers();
    try {
      const inTime = themeFor();
      inTime.theme.ask();
      inTime.theme.ask();
      expect(inTime.written).toEqual([BACKGROUND_QUERY]);
      vi.advanceTimersByTime(200);
      expect(inTime.theme.report({ type: "report", code: 11, value: "rgb:ffff/ffff/ffff" })).toBe(true);
      expect(inTime.set).toEqual(["light"]);
      const late = themeFor();
      late.theme.ask();
      vi.advanceTimersByTime(600);
      late.theme.report({ type: "report", code: 11, value: "rgb:ffff/ffff/ffff" });
      expect(late.set).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  test("an answer that came in time still counts when a busy start reads it only after the timeout", async () => {
    // The answer travels over a real socket, as the terminal's does over stdin.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const accepted = new Promise<Socket>((resolve) => server.once("connection", resolve));
    const terminal = connect(port, "127.0.0.1");
    const pitwallSide = await accepted;
    try {
      const busy = themeFor();
      const reports: string[] = [];
      pitwallSide.on("data", (data: Buffer) => {
        reports.push(data.toString());
        busy.theme.report({ type: "report", code: 11, value: data.toString() });
      });
      busy.theme.ask();
      terminal.write("rgb:ffff/ffff/ffff");
      // The start keeps the event loop busy past the timeout (as loading the settings can).
      const until = Date.now() + 700;
      while (Date.now() < until) {
        /* busy */
      }
      await vi.waitFor(() => expect(reports).toHaveLength(1));
      expect(busy.set).toEqual(["light"]);
      busy.theme.dispose();
    } finally {
      terminal.destroy();
      pitwallSide.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test("a theme in the settings wins over the terminal's answer, whichever comes first; NO_COLOR and the Linux console ask nothing", () => {
    const configured = themeFor();
    configured.theme.ask();
    configured.theme.configure("dark");
    configured.theme.report({ type: "report", code: 11, value: "rgb:ffff/ffff/ffff" });
    expect(configured.set).toEqual(["dark"]);
    const answeredFirst = themeFor();
    answeredFirst.theme.ask();
    answeredFirst.theme.report({ type: "report", code: 11, value: "rgb:ffff/ffff/ffff" });
    answeredFirst.theme.configure("dark");
    expect(answeredFirst.set).toEqual(["light", "dark"]);
    for (const env of [{ NO_COLOR: "1", TERM: "xterm-256color" }, { TERM: "linux" }]) {
      const quiet = themeFor(env);
      quiet.theme.ask();
      expect(quiet.written, JSON.stringify(env)).toEqual([]);
    }
  });
});
