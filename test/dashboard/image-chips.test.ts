// Image attachments in the input: which pasted texts are image paths, how @path becomes a chip,
// a chip deleted whole, and the images taken at submit in the order of their chips.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { imageFileAt, pastedImageFiles } from "../../app/image-attachments.js";
import { DashboardView } from "../../panes/dashboard-view.js";
import { headlessScreen, type HeadlessScreen } from "../helpers/headless-screen.js";

let cwd: string;
let h: HeadlessScreen | undefined;
beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "pitwall-chips-"));
  for (const name of ["a.png", "b c.jpg", "d.webp"]) writeFileSync(join(cwd, name), "");
  writeFileSync(join(cwd, "notes.txt"), "");
});
afterEach(() => {
  h?.destroy();
  h = undefined;
  rmSync(cwd, { recursive: true, force: true });
});

function input() {
  h = headlessScreen(80, 20);
  const view = new DashboardView(h.screen, {
    cwd,
    requestFrame: () => undefined,
    jobScreens: () => undefined,
    images: { at: (path) => imageFileAt(path, cwd), pasted: (text) => pastedImageFiles(text, cwd) },
  });
  return view.input;
}

describe("pasted paths", () => {
  test("one path, quoted, escaped, relative or a file:// URL; several separated by spaces", () => {
    expect(pastedImageFiles(`'${cwd}/b c.jpg'`, cwd)).toEqual([{ name: "b c.jpg", path: join(cwd, "b c.jpg") }]);
    expect(pastedImageFiles(`${cwd}/b\\ c.jpg\n`, cwd)?.map((i) => i.name)).toEqual(["b c.jpg"]);
    expect(pastedImageFiles("a.png", cwd)?.map((i) => i.path)).toEqual([join(cwd, "a.png")]);
    expect(pastedImageFiles(`file://${cwd}/b%20c.jpg`, cwd)?.map((i) => i.name)).toEqual(["b c.jpg"]);
    expect(pastedImageFiles(`a.png "b c.jpg" d.webp`, cwd)?.map((i) => i.name)).toEqual(["a.png", "b c.jpg", "d.webp"]);
  });

  test("anything else is ordinary text: prose, other files, missing files, unbalanced quotes", () => {
    expect(pastedImageFiles("look at a.png please", cwd)).toBeUndefined();
    expect(pastedImageFiles("notes.txt", cwd)).toBeUndefined();
    expect(pastedImageFiles("missing.png", cwd)).toBeUndefined();
    expect(pastedImageFiles("'a.png", cwd)).toBeUndefined();
    expect(pastedImageFiles("   ", cwd)).toBeUndefined();
  });
});

describe("chips in the input", () => {
  test("a pasted image path becomes a chip; other pastes stay text", () => {
    const i = input();
    i.paste(`'${cwd}/b c.jpg'`);
    i.paste("what about a.png?");
    expect(i.buffer.text).toBe("[image: b c.jpg] what about a.png?");
    expect(i.takeImages().map((x) => x.name)).toEqual(["b c.jpg"]);
  });

  test("@path turns into a chip when a space follows, or at submit; unknown paths stay", () => {
    const i = input();
    i.type("see @a.png");
    expect(i.buffer.text).toBe("see @a.png");
    i.type(" and @nope.png and @d.webp");
    expect(i.buffer.text).toBe("see [image: a.png] and @nope.png and @d.webp");
    expect(i.buffer.col).toBe(i.buffer.text.length);
    expect(i.takeImages().map((x) => x.name)).toEqual(["a.png", "d.webp"]);
    expect(i.buffer.text).toBe("see [image: a.png] and @nope.png and [image: d.webp]");
  });

  test("backspace after a chip removes it whole, and its image is no longer taken", () => {
    const i = input();
    i.type("@a.png x");
    i.buffer.left();
    i.buffer.left();
    i.backspace();
    expect(i.buffer.text).toBe(" x");
    expect(i.takeImages()).toEqual([]);
    i.backspace();
    expect(i.buffer.text).toBe(" x");
  });

  test("the same name from two folders gets two chips; text recalled later brings its image back", () => {
    const i = input();
    mkdirSync(join(cwd, "sub"));
    writeFileSync(join(cwd, "sub", "a.png"), "");
    i.paste("a.png sub/a.png");
    expect(i.buffer.text).toBe("[image: a.png] [image: a.png (2)] ");
    const text = i.buffer.text;
    i.reset();
    expect(i.takeImages()).toEqual([]);
    i.setText(text);
    expect(i.takeImages().map((x) => x.path)).toEqual([join(cwd, "a.png"), join(cwd, "sub", "a.png")]);
  });

  test("a queued message taken back gets its images, already read, behind its chips", () => {
    const i = input();
    const read = (name: string) => ({ type: "image" as const, mimeType: "image/png" as const, data: name, name });
    i.restore("compare [image: x.png] with [image: x.png (2)]", [read("x.png"), read("x.png")]);
    expect(i.takeImages().map((x) => x.image?.data)).toEqual(["x.png", "x.png"]);
  });
});
