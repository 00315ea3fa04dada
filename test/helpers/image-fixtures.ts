// Small real images for tests, made with sharp: a solid-colour PNG/JPEG/GIF/WebP of a given size,
// written to a folder when a test needs a file.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";

export type FixtureFormat = "png" | "jpeg" | "gif" | "webp";

export async function makeImage(width: number, height: number, format: FixtureFormat = "png", colour = "#3366cc"): Promise<Buffer> {
  const base = sharp({ create: { width, height, channels: 3, background: colour } });
  return base.toFormat(format).toBuffer();
}

/** A photo-like image (noise) that compresses badly, to push past byte caps. */
export async function makeNoise(width: number, height: number, format: FixtureFormat = "png"): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 60 } } })
    .toFormat(format)
    .toBuffer();
}

export async function writeImage(folder: string, name: string, width: number, height: number, format: FixtureFormat = "png"): Promise<string> {
  const path = join(folder, name);
  writeFileSync(path, await makeImage(width, height, format));
  return path;
}
