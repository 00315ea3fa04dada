// An image as the model receives it: base64 bytes and a mime type, plus what the UI shows (a name
// and the size sent). Plain data, so it travels in messages, events and session lines as JSON.
// Which files count as images is decided here too, by their first bytes rather than their name.

export const IMAGE_MIME_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;
export type ImageMimeType = (typeof IMAGE_MIME_TYPES)[number];

export interface ImageContent {
  type: "image";
  mimeType: ImageMimeType;
  /** The encoded image, base64 without a `data:` prefix. */
  data: string;
  /** The file name it came from, for display. */
  name?: string;
  /** Pixel size of what is sent (after any resizing). */
  width?: number;
  height?: number;
  /** The file's own size, when it was scaled down to be sent. */
  original?: { width: number; height: number };
}

/**
 * An image file's bytes, not yet prepared: what a remote session's read returns (its machine has no
 * sharp), for the machine that has it to measure, turn and scale as it does a file of its own.
 */
export interface UnpreparedImage {
  mimeType: ImageMimeType;
  /** The file's bytes, base64: all of them, or its first piece when `size` and `rest` are given. */
  data: string;
  /** The file's size, when `data` is its first piece. */
  size?: number;
  /** The token the rest is asked for by (the remote keeps the file open: host/open-images.ts). */
  rest?: string;
}

/** The image format of a file's first bytes (PNG, JPEG, GIF, WebP), or undefined. */
export function sniffImageType(bytes: Uint8Array): ImageMimeType | undefined {
  const at = (offset: number, ...values: number[]): boolean => values.every((v, i) => bytes[offset + i] === v);
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (at(0, 0xff, 0xd8, 0xff)) return "image/jpeg";
  if (at(0, 0x47, 0x49, 0x46, 0x38) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return "image/gif";
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return "image/webp";
  return undefined;
}

/** Bytes needed by sniffImageType. */
export const IMAGE_SNIFF_BYTES = 16;

const IMAGE_EXTENSIONS = /\.(png|jpe?g|gif|webp)$/i;

/** Whether a file name looks like an image pitwall can send (by extension; the bytes decide later). */
export function hasImageExtension(path: string): boolean {
  return IMAGE_EXTENSIONS.test(path);
}

/** `PNG`, `JPEG`, … for messages. */
export function formatName(mimeType: ImageMimeType): string {
  return mimeType.slice("image/".length).toUpperCase();
}

/** A data URL, as the OpenAI APIs take images. */
export function imageDataUrl(image: ImageContent): string {
  return `data:${image.mimeType};base64,${image.data}`;
}
