// `read` on an image: the image itself for the model (PNG, JPEG, GIF, WebP, known by their bytes),
// scaled to at most 1568 px on the longest side and 1.5 MiB, with the size stated in the text.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { IMAGE_LIMITS, prepareImage } from "../../tools/images/image-prepare.js";
import { createReadTool } from "../../tools/read-tool.js";
import { makeImage, makeNoise } from "../helpers/image-fixtures.js";
import { callTool, makeTempDir } from "./harness.js";

async function sizeOf(base64: string): Promise<{ width: number; height: number; format: string }> {
  const meta = await sharp(Buffer.from(base64, "base64")).metadata();
  return { width: meta.width, height: meta.height, format: meta.format };
}

describe("read on an image", () => {
  it.each(["png", "jpeg", "gif", "webp"] as const)("returns a small %s as it is, with its size in the text", async (format) => {
    const cwd = await makeTempDir();
    const bytes = await makeImage(640, 400, format);
    // A misleading name: the bytes decide.
    await writeFile(join(cwd, "picture.bin"), bytes);
    const result = await callTool(createReadTool(cwd), { file_path: "picture.bin" });
    expect(result.isError).toBeUndefined();
    expect(result.content).toBe(`[Image picture.bin: 640×400 ${format.toUpperCase()}]`);
    expect(result.images).toHaveLength(1);
    const image = result.images![0]!;
    expect(image).toMatchObject({ type: "image", mimeType: `image/${format}`, name: "picture.bin", width: 640, height: 400 });
    expect(Buffer.from(image.data, "base64").equals(bytes)).toBe(true);
    expect(result.details?.image).toEqual({ width: 640, height: 400, originalWidth: 640, originalHeight: 400, mimeType: `image/${format}`, bytes: bytes.length });
  });

  it("scales a large screenshot down to 1568 px on the longest side and says how to map coordinates", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "shot.png"), await makeImage(3136, 1960, "png"));
    const result = await callTool(createReadTool(cwd), { file_path: "shot.png" });
    expect(result.content).toBe("[Image shot.png: 3136×1960 PNG, sent scaled to 1568×980 (multiply coordinates in it by 2.00 for the original's pixels)]");
    expect(await sizeOf(result.images![0]!.data)).toEqual({ width: 1568, height: 980, format: "png" });
  });

  it("still refuses other binary files", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "app.bin"), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1]));
    await expect(callTool(createReadTool(cwd), { file_path: "app.bin" })).rejects.toThrow(/Cannot read binary file 'app.bin'/);
  });

  it("reports an image whose bytes do not decode, even one whose header is whole", async () => {
    const cwd = await makeTempDir();
    const png = await makeNoise(64, 64, "png");
    await writeFile(join(cwd, "broken.png"), png.subarray(0, 20));
    await expect(callTool(createReadTool(cwd), { file_path: "broken.png" })).rejects.toThrow(/broken.png could not be decoded as PNG/);
    // The header (and the size in it) is intact; the pixel data stops half way.
    await writeFile(join(cwd, "cut.png"), png.subarray(0, Math.floor(png.length / 2)));
    await expect(callTool(createReadTool(cwd), { file_path: "cut.png" })).rejects.toThrow(/cut.png could not be decoded as PNG/);
  });
});

describe("preparing an image", () => {
  it("re-encodes one over the byte cap as JPEG, smaller, until it fits", { timeout: 20_000 }, async () => {
    const noise = await makeNoise(1100, 800, "png");
    expect(noise.length).toBeGreaterThan(IMAGE_LIMITS.maxBytes);
    const prepared = await prepareImage(noise, "noise.png");
    expect(prepared.image.mimeType).toBe("image/jpeg");
    expect(Buffer.from(prepared.image.data, "base64").length).toBeLessThanOrEqual(IMAGE_LIMITS.maxBytes);
    expect(prepared.original).toMatchObject({ width: 1100, height: 800, mimeType: "image/png" });
  });

  it("turns a photo upright by its EXIF orientation and reports the upright size", async () => {
    // Stored 300×200, EXIF orientation 6: shown rotated 90°, so 200×300.
    const sideways = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#123456" } }).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const prepared = await prepareImage(sideways, "phone.jpg");
    expect(prepared.original).toMatchObject({ width: 200, height: 300 });
    expect(await sizeOf(prepared.image.data)).toMatchObject({ width: 200, height: 300 });
  });

  it("sends an animated GIF as a PNG of its first frame", async () => {
    const red = await makeImage(40, 30, "png", "#ff0000");
    const green = await makeImage(40, 30, "png", "#00ff00");
    const animated = await sharp([red, green], { join: { animated: true } }).gif().toBuffer();
    const prepared = await prepareImage(animated, "spinner.gif");
    expect(prepared.original).toMatchObject({ width: 40, height: 30, frames: 2, mimeType: "image/gif" });
    expect(prepared.image.mimeType).toBe("image/png");
    const out = await sharp(Buffer.from(prepared.image.data, "base64")).metadata();
    expect([out.format, out.width, out.height, out.pages ?? 1]).toEqual(["png", 40, 30, 1]);
    const { data } = await sharp(Buffer.from(prepared.image.data, "base64")).raw().toBuffer({ resolveWithObject: true });
    expect([data[0], data[1], data[2]]).toEqual([255, 0, 0]);
  });
});
