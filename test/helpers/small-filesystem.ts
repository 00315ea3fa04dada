// A real, tiny file system for "the disk is full" tests: a tmpfs of a few KiB mounted on a fresh
// temp folder. Mounting needs root and a kernel that allows it in this container; when it cannot be
// had, `reason` says why and the test skips with it. It can be switched to read-only (EROFS even
// for root, unlike a chmod).
import { execFileSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type SmallFilesystem = { path: string; unmount: () => void; setReadOnly: (readOnly: boolean) => void } | { reason: string };

export function mountSmallFilesystem(sizeKiB: number): SmallFilesystem {
  if (process.getuid?.() !== 0) return { reason: "mounting a tmpfs needs root" };
  const path = mkdtempSync(join(tmpdir(), "pitwall-full-fs-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${sizeKiB}k`, "tmpfs", path], { stdio: "pipe" });
  } catch (error) {
    rmSync(path, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return { reason: `cannot mount a tmpfs here: ${stderr || (error as Error).message}` };
  }
  return {
    path,
    setReadOnly: (readOnly) => {
      execFileSync("mount", ["-o", `remount,${readOnly ? "ro" : "rw"}`, path], { stdio: "pipe" });
    },
    unmount: () => {
      execFileSync("umount", [path], { stdio: "pipe" });
      rmSync(path, { recursive: true, force: true });
    },
  };
}

/** Fills the file system at `dir` to the last byte with one file, and returns its path. */
export function fillUp(dir: string): string {
  const filler = join(dir, "filler");
  const fd = openSync(filler, "w");
  try {
    for (const size of [4096, 512, 1]) {
      const chunk = Buffer.alloc(size);
      for (;;) {
        try {
          writeSync(fd, chunk);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === "ENOSPC") break;
          throw error;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return filler;
}
