// Makes an image file fit to send to a model: decoded and measured with sharp (libvips, shipped as
// npm packages with prebuilt binaries), turned upright by its EXIF orientation, scaled so its longest
// side is at most 1568 px (what Claude uses without scaling it down again; OpenAI scales to 768 px on
// the short side anyway) and re-encoded until it is at most 1.5 MiB. sharp is imported on the first
// image only: it costs a few hundred milliseconds, which startup must never pay.
import { readFile, stat } from "node:fs/promises";
import type { Sharp, SharpOptions } from "sharp";
import { readFileHead } from "../binary-file.js";
import { formatName, IMAGE_SNIFF_BYTES, sniffImageType, type ImageContent, type ImageMimeType } from "./image-content.js";

export interface ImageLimits {
  /** Longest side, pixels. */
  maxSide: number;
  /** Encoded size, bytes (the base64 sent is a third larger). */
  maxBytes: number;
}

export const IMAGE_LIMITS: ImageLimits = { maxSide: 1568, maxBytes: 1.5 * 1024 * 1024 };

/** Files larger than this are not decoded at all. */
export const IMAGE_MAX_FILE_BYTES = 50 * 1024 * 1024;

export interface PreparedImage {
  image: ImageContent & { width: number; height: number };
  original: { width: number; height: number; bytes: number; mimeType: ImageMimeType; frames: number };
  /** The pixel size changed. */
  resized: boolean;
}

export class ImageError extends Error {}

type SharpFactory = (input: Buffer, options?: SharpOptions) => Sharp;
let sharpLoading: Promise<SharpFactory> | undefined;

function loadSharp(): Promise<SharpFactory> {
  sharpLoading ??= import("sharp").then(
    (module) => module.default as SharpFactory,
    (error: unknown) => {
      sharpLoading = undefined;
      const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
      throw new ImageError(`Images need the sharp library, which did not load (${reason}). Reinstall pitwall's dependencies with npm install.`);
    },
  );
  return sharpLoading;
}

/** The image format of a file by its first bytes, or undefined for anything else. */
export async function imageTypeOfFile(path: string): Promise<ImageMimeType | undefined> {
  return sniffImageType(await readFileHead(path, IMAGE_SNIFF_BYTES));
}

/** Refuses an image file over IMAGE_MAX_FILE_BYTES: it is not decoded at all. */
export function checkImageFileSize(size: number, name: string): void {
  if (size > IMAGE_MAX_FILE_BYTES) {
    throw new ImageError(`${name} is ${formatBytes(size)}: images over ${formatBytes(IMAGE_MAX_FILE_BYTES)} are not sent. Make a smaller copy first.`);
  }
}

/** Reads an image file and prepares it (see prepareImage). `name` defaults to the path. */
export async function loadImageFile(path: string, name = path, limits: ImageLimits = IMAGE_LIMITS): Promise<PreparedImage> {
  checkImageFileSize((await stat(path)).size, name);
  return prepareImage(await readFile(path), name, limits);
}

/**
 * Measures and, when needed, resizes and re-encodes an image. The original bytes go as they are
 * when they already fit and need no turning; an animated GIF becomes a PNG of its first frame
 * (OpenAI refuses animated ones). Over the byte cap, JPEG at falling quality, then smaller sizes.
 */
export async function prepareImage(bytes: Buffer, name: string, limits: ImageLimits = IMAGE_LIMITS): Promise<PreparedImage> {
  const mimeType = sniffImageType(bytes);
  if (!mimeType) throw new ImageError(`${name} is not a PNG, JPEG, GIF or WebP image.`);
  const sharp = await loadSharp();
  try {
    return await fitImage(sharp, bytes, mimeType, name, limits);
  } catch (error) {
    if (error instanceof ImageError) throw error;
    throw new ImageError(`${name} could not be decoded as ${formatName(mimeType)}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function fitImage(sharp: SharpFactory, bytes: Buffer, mimeType: ImageMimeType, name: string, limits: ImageLimits): Promise<PreparedImage> {
  const meta = await sharp(bytes).metadata();
  const width = meta.autoOrient.width;
  const height = meta.autoOrient.height;
  const frames = meta.pages ?? 1;
  const original = { width, height, bytes: bytes.length, mimeType, frames };
  const turned = (meta.orientation ?? 1) !== 1;
  const animated = frames > 1;
  const fits = Math.max(width, height) <= limits.maxSide && bytes.length <= limits.maxBytes;
  if (fits && !turned && !animated) {
    // Decoded once all the same: a damaged file sent as it is would be refused by the provider on
    // every later request of the conversation.
    await sharp(bytes, { pages: 1 }).raw().toBuffer();
    return { image: { type: "image", mimeType, data: bytes.toString("base64"), name, width, height }, original, resized: false };
  }

  const scale = Math.min(1, limits.maxSide / Math.max(width, height));
  const encodeAt = async (factor: number, format: "keep" | "jpeg", quality = 80): Promise<{ data: Buffer; width: number; height: number; mimeType: ImageMimeType }> => {
    // Only the longest side is given: sharp keeps the aspect ratio without rounding it twice.
    const target = width >= height ? { width: Math.max(1, Math.round(width * factor)) } : { height: Math.max(1, Math.round(height * factor)) };
    let pipeline = sharp(bytes, { pages: 1 }).autoOrient().resize(target);
    let outType: ImageMimeType;
    if (format === "jpeg" || mimeType === "image/jpeg") {
      // JPEG has no transparency: lay it on white rather than black.
      pipeline = pipeline.flatten({ background: "#ffffff" }).jpeg({ quality });
      outType = "image/jpeg";
    } else if (mimeType === "image/webp") {
      pipeline = pipeline.webp({ quality });
      outType = "image/webp";
    } else {
      pipeline = pipeline.png({ compressionLevel: 9, adaptiveFiltering: true });
      outType = "image/png";
    }
    const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, mimeType: outType };
  };

  const attempts: Array<[number, "keep" | "jpeg", number?]> = [
    [scale, "keep"],
    [scale, "jpeg", 80],
    [scale, "jpeg", 60],
    [scale * 0.75, "jpeg", 60],
    [scale * 0.5, "jpeg", 60],
    [scale * 0.35, "jpeg", 50],
  ];
  let best: Awaited<ReturnType<typeof encodeAt>> | undefined;
  for (const [factor, format, quality] of attempts) {
    const out = await encodeAt(factor, format, quality);
    if (!best || out.data.length < best.data.length) best = out;
    if (out.data.length <= limits.maxBytes) break;
  }
  const result = best!;
  if (result.data.length > limits.maxBytes) {
    throw new ImageError(`${name} is still ${formatBytes(result.data.length)} at ${result.width}×${result.height}: too large to send (limit ${formatBytes(limits.maxBytes)}).`);
  }
  const resized = result.width !== width || result.height !== height;
  const image: PreparedImage["image"] = { type: "image", mimeType: result.mimeType, data: result.data.toString("base64"), name, width: result.width, height: result.height };
  if (resized) image.original = { width, height };
  return { image, original, resized };
}

/** What the model reads beside the image: its size, and how to map coordinates when it was scaled. */
export function describeImageForModel(prepared: PreparedImage, shownPath: string): string {
  const { image, original } = prepared;
  const parts = [`${original.width}×${original.height} ${formatName(original.mimeType)}`];
  if (original.frames > 1) parts.push(`first frame of ${original.frames}`);
  if (prepared.resized) {
    const factor = (original.width / image.width).toFixed(2);
    parts.push(`sent scaled to ${image.width}×${image.height} (multiply coordinates in it by ${factor} for the original's pixels)`);
  }
  return `[Image ${shownPath}: ${parts.join(", ")}]`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
