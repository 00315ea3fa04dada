// The bash tool's plain-text stream: its fast path for plain lines must give exactly what the
// renderer gives, wherever the pipe happens to cut the output.
import { describe, expect, it } from "vitest";
import { PlainTextStream } from "../../tools/jobs/log/plain-text-stream.js";

function streamed(chunks: string[]): string {
  let out = "";
  const stream = new PlainTextStream((text) => (out += text));
  for (const chunk of chunks) stream.write(chunk);
  stream.end();
  return out;
}

/** A deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

function cutAtRandom(text: string, next: () => number): string[] {
  const chunks: string[] = [];
  for (let i = 0; i < text.length; ) {
    const size = 1 + Math.floor(next() * 40);
    chunks.push(text.slice(i, i + size));
    i += size;
  }
  return chunks;
}

describe("PlainTextStream", () => {
  it("passes plain lines through whole, however the chunks cut them", () => {
    const text = Array.from({ length: 2_000 }, (_, i) => `line ${i}`).join("\n") + "\nlast";
    const next = random(1);
    for (let round = 0; round < 20; round++) expect(streamed(cutAtRandom(text, next))).toBe(text);
  });

  it("gives the same text chunk by chunk as all at once, with progress frames and colours mixed in", () => {
    const pieces = ["plain line\n", "\x1b[32mgreen\x1b[0m\n", "10%\r50%\r100%\n", "abc\r\x1b[Kdone\n", "tab\there\n", "half "];
    const next = random(7);
    const parts: string[] = [];
    for (let i = 0; i < 400; i++) parts.push(pieces[Math.floor(next() * pieces.length)]!);
    const text = parts.join("");
    const whole = streamed([text]);
    expect(whole).not.toMatch(/\x1b|\r/);
    for (let round = 0; round < 20; round++) expect(streamed(cutAtRandom(text, next))).toBe(whole);
  });

  it("keeps a progress bar's last frame when the frames arrive across plain chunks", () => {
    expect(streamed(["start\nprogress 1%", "\rprogress 2%", "\rprogress 3%\nend\n"])).toBe("start\nprogress 3%\nend\n");
  });
});
