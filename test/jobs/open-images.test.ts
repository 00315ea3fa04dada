// The image files a remote's read keeps open for their later pieces: pieces come from the opened
// file (not its path), only to the client that read it, and every file is closed: with its last
// piece, when its client goes, or after waiting too long for the next one.
import { writeFileSync, renameSync, truncateSync } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { OpenImages } from "../../tools/jobs/host/open-images.js";
import { waitFor } from "../helpers/conditions.js";
import { tempDir } from "../helpers/temp-dir.js";

const BYTES = Buffer.from(Array.from({ length: 10_000 }, (_, i) => i % 251));

async function keptFile(images: OpenImages, owner = "c1"): Promise<{ token: string; path: string }> {
  const path = join(tempDir("open-images"), "shot.png");
  writeFileSync(path, BYTES);
  const file = await open(path, "r");
  return { token: images.keep(file, BYTES.length, owner), path };
}

const decoded = (piece: { data: string }): Buffer => Buffer.from(piece.data, "base64");

describe("OpenImages", () => {
  it("gives the file piece by piece and closes it with the last piece", async () => {
    const images = new OpenImages();
    const { token } = await keptFile(images);
    const pieces = [decoded(await images.piece(token, "c1", 0, 4000)), decoded(await images.piece(token, "c1", 4000, 4000))];
    expect(images.count).toBe(1);
    pieces.push(decoded(await images.piece(token, "c1", 8000, 4000)));
    expect(Buffer.concat(pieces).equals(BYTES)).toBe(true);
    expect(images.count).toBe(0);
    await expect(images.piece(token, "c1", 0, 10)).rejects.toThrow("This image is no longer open on the remote");
  });

  it("reads the file it opened, even when another file takes its name", async () => {
    const images = new OpenImages();
    const { token, path } = await keptFile(images);
    const other = join(tempDir("open-images"), "other");
    writeFileSync(other, Buffer.alloc(BYTES.length, 0x41));
    renameSync(other, path);
    expect(decoded(await images.piece(token, "c1", 0, BYTES.length)).equals(BYTES)).toBe(true);
  });

  it("answers only the client that read it, and closes what a client kept when it goes", async () => {
    const images = new OpenImages();
    const { token } = await keptFile(images, "c1");
    await expect(images.piece(token, "c2", 0, 10)).rejects.toThrow("no longer open");
    await images.release("c1");
    expect(images.count).toBe(0);
  });

  it("says so when the file got shorter, and closes it", async () => {
    const images = new OpenImages();
    const { token, path } = await keptFile(images);
    truncateSync(path, 5000);
    await expect(images.piece(token, "c1", 4000, 4000)).rejects.toThrow("The image got shorter while it was read (5000 of 10000 bytes)");
    expect(images.count).toBe(0);
  });

  it("closes a file whose next piece is not asked for in time", async () => {
    const images = new OpenImages(30);
    const { token } = await keptFile(images);
    await images.piece(token, "c1", 0, 1000);
    await waitFor(() => images.count === 0, "the idle file to be closed");
  });
});
