// The job host's framing (tools/jobs/wire/framing.ts), used by the host reading its clients and by
// a client reading the host: messages are lines; a line arrives whole however the stream cuts it; a
// line past the cap is refused as soon as it passes the cap, not when (or if) its newline comes; and
// the work is linear in what arrives, so a long line trickling in byte by byte costs no more than
// the same line in one piece. (What the host does with an answer too large for a frame, over a real
// socket, is in framing-socket.test.ts.)
import { describe, expect, it } from "vitest";
import { decodeOutputFrame, encodeMessage, encodeOutputFrame, FrameTooLongError, LineSplitter, MAX_FRAME_CHARS, outputFrameLength } from "../../tools/jobs/wire/framing.js";
import { cpuTimeOf } from "../helpers/cpu-time.js";

function collect(maxChars?: number): { lines: string[]; splitter: LineSplitter } {
  const lines: string[] = [];
  return { lines, splitter: new LineSplitter((line) => lines.push(line), maxChars) };
}

describe("the job host's framing", () => {
  it("delivers each message whole, however the stream cuts it, and skips empty lines", () => {
    const { lines, splitter } = collect();
    const text = encodeMessage({ type: "call", id: 1, method: "status", args: {} }) + "\n" + encodeMessage({ type: "signal", id: 1, signal: "yield" }) + encodeMessage({ note: "é ✓ 🎉" });
    // Every cut: one chunk, two pieces at each position, and one character at a time.
    splitter.push(text);
    for (let cut = 0; cut <= text.length; cut++) {
      splitter.push(text.slice(0, cut));
      splitter.push(text.slice(cut));
    }
    for (const char of text) splitter.push(char);
    const once = text.split("\n").filter((line) => line.length > 0);
    expect(once).toHaveLength(3);
    expect(lines).toEqual(Array.from({ length: text.length + 3 }, () => once).flat());
    expect(lines.map((line) => JSON.parse(line) as unknown)[2]).toEqual({ note: "é ✓ 🎉" });
  });

  it("accepts a line of exactly the cap, and refuses one that passes it as soon as it does, newline or not", () => {
    const cap = 1000;
    const atCap = collect(cap);
    atCap.splitter.push("a".repeat(cap) + "\n");
    expect(atCap.lines).toEqual(["a".repeat(cap)]);

    // No newline ever comes: refused by the chunk that passes the cap.
    const endless = collect(cap);
    for (let i = 0; i < 9; i++) endless.splitter.push("x".repeat(100));
    endless.splitter.push("x".repeat(100));
    expect(() => endless.splitter.push("x")).toThrow(FrameTooLongError);
    // What follows is ignored: the connection is being ended.
    expect(() => endless.splitter.push("y\nok\n")).not.toThrow();
    expect(endless.lines).toEqual([]);

    // A whole line past the cap in one chunk, after a good one: the good one is delivered first.
    const whole = collect(cap);
    expect(() => whole.splitter.push(`ok\n${"z".repeat(cap + 1)}\nlater\n`)).toThrow(/a message longer than 1000 characters/);
    expect(whole.lines).toEqual(["ok"]);
  });

  it("refuses at 8 MiB by default: far above the largest message pitwall sends, far below what hurts", () => {
    expect(MAX_FRAME_CHARS).toBe(8 * 1024 * 1024);
    const { lines, splitter } = collect();
    const chunk = "x".repeat(64 * 1024);
    let pushed = 0;
    let refusedAt: number | undefined;
    while (refusedAt === undefined && pushed < 100 * 1024 * 1024) {
      try {
        splitter.push(chunk);
        pushed += chunk.length;
      } catch (error) {
        expect(error).toBeInstanceOf(FrameTooLongError);
        refusedAt = pushed + chunk.length;
      }
    }
    expect(refusedAt).toBe(MAX_FRAME_CHARS + chunk.length);
    expect(lines).toEqual([]);
  });

  it("does work linear in what arrives: a line four times as long, fed a character at a time, takes about four times as long", () => {
    // A splitter that scanned its whole buffer again for every chunk would take sixteen times as long
    // (and seconds): the ratio tells the two apart with room for a noisy machine. The loop is
    // synchronous, so it checks its own time rather than leave a quadratic splitter to block the run.
    const feed = (chars: number): number => {
      const { lines, splitter } = collect();
      const started = performance.now();
      const took = cpuTimeOf(() => {
        for (let i = 0; i < chars; i++) {
          splitter.push("x");
          if (i % 4096 === 0 && performance.now() - started > 5_000) throw new Error(`${i} one-character chunks took over 5 s: the splitter is not linear`);
        }
        splitter.push("\n");
      });
      expect(lines[0]).toHaveLength(chars);
      return took;
    };
    const fastest = (chars: number): number => Math.min(feed(chars), feed(chars), feed(chars));
    fastest(64 * 1024); // warm up the JIT
    const short = fastest(64 * 1024);
    const long = fastest(256 * 1024);
    expect(long / short, `64 Ki characters took ${short.toFixed(1)} ms, 256 Ki took ${long.toFixed(1)} ms`).toBeLessThan(8);
  }, 30_000);

  describe("a job's output as an output frame (a header line, then the text as it is)", () => {
    function collectFrames(maxChars?: number): { got: unknown[]; splitter: LineSplitter } {
      const got: unknown[] = [];
      const splitter = new LineSplitter((line, text) => got.push(text === undefined ? JSON.parse(line) : decodeOutputFrame(line, text)), maxChars, outputFrameLength);
      return { got, splitter };
    }

    it("carries any text exactly, newlines, the frame mark and surrogate pairs included, however the stream cuts it, between JSON messages", () => {
      const events = [
        { type: "job_output", jobId: "3", stream: "pty", chunk: "line one\nline two\r\n\x1e not a header\n\n", offset: 120 },
        { type: "job_output", jobId: "12", stream: "stderr", chunk: "é ✓ 🎉 \u{1F680}\n{\"type\":\"event\"}\n" },
        { type: "job_output", jobId: "3", stream: "pty", chunk: "", offset: 150 },
      ];
      const text =
        encodeMessage({ type: "result", id: 1, value: ["before"] }) +
        encodeOutputFrame(events[0]!) +
        encodeOutputFrame(events[1]!) +
        encodeMessage({ type: "event", event: { type: "job_exited", jobId: "3" } }) +
        encodeOutputFrame(events[2]!) +
        encodeMessage({ type: "result", id: 2, value: ["after"] });
      const want = [
        { type: "result", id: 1, value: ["before"] },
        ...events.slice(0, 2).map((event) => ({ type: "event", event })),
        { type: "event", event: { type: "job_exited", jobId: "3" } },
        { type: "event", event: events[2] },
        { type: "result", id: 2, value: ["after"] },
      ];
      const whole = collectFrames();
      whole.splitter.push(text);
      expect(whole.got).toEqual(want);
      for (let cut = 0; cut <= text.length; cut++) {
        const cutOnce = collectFrames();
        cutOnce.splitter.push(text.slice(0, cut));
        cutOnce.splitter.push(text.slice(cut));
        expect(cutOnce.got, `cut at ${cut}`).toEqual(want);
      }
      const byChar = collectFrames();
      for (let i = 0; i < text.length; i++) byChar.splitter.push(text[i]!);
      expect(byChar.got).toEqual(want);
      // The fields come in the order the host's events have them (JSON mode prints them so).
      expect(Object.keys((whole.got[1] as { event: object }).event)).toEqual(["type", "jobId", "stream", "chunk", "offset"]);
    });

    it("refuses a text past the cap as soon as its header says so, and a header without a length", () => {
      const capped = collectFrames(1000);
      expect(() => capped.splitter.push(encodeOutputFrame({ jobId: "1", stream: "pty", chunk: "x".repeat(1001) }))).toThrow(FrameTooLongError);
      expect(() => capped.splitter.push(encodeMessage({ type: "result", id: 1, value: [] }))).not.toThrow();
      expect(capped.got).toEqual([]);
      const atCap = collectFrames(1000);
      atCap.splitter.push(encodeOutputFrame({ jobId: "1", stream: "pty", chunk: "x".repeat(1000) }));
      expect(atCap.got).toHaveLength(1);
      const garbled = collectFrames();
      expect(() => garbled.splitter.push('\x1e {"jobId":"1"}\nabc')).toThrow(/no length/);
      expect(() => garbled.splitter.push(encodeMessage({ type: "result", id: 1, value: [] }))).not.toThrow();
      expect(garbled.got).toEqual([]);
    });

    it("does work linear in what arrives: a text four times as long, fed a character at a time, takes about four times as long", () => {
      const feed = (chars: number): number => {
        const { got, splitter } = collectFrames();
        const frame = encodeOutputFrame({ jobId: "1", stream: "pty", chunk: "x\n".repeat(chars / 2) });
        const started = performance.now();
        const took = cpuTimeOf(() => {
          for (let i = 0; i < frame.length; i++) {
            splitter.push(frame[i]!);
            if (i % 4096 === 0 && performance.now() - started > 5_000) throw new Error(`${i} one-character chunks took over 5 s: the splitter is not linear`);
          }
        });
        expect(got).toHaveLength(1);
        return took;
      };
      const fastest = (chars: number): number => Math.min(feed(chars), feed(chars), feed(chars));
      fastest(64 * 1024);
      const short = fastest(64 * 1024);
      const long = fastest(256 * 1024);
      expect(long / short, `64 Ki characters took ${short.toFixed(1)} ms, 256 Ki took ${long.toFixed(1)} ms`).toBeLessThan(8);
    }, 30_000);
  });
});
