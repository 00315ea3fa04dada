/**
 * Removes compiled files in dist/ whose TypeScript source is gone (moved or deleted). tsc never
 * deletes output, so a stale dist/agent/x.js would let a test that imports an old path pass here and
 * fail on a clean clone. Only orphans go: a pitwall running from this checkout keeps every file it uses.
 */
import { existsSync, readdirSync, rmSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const OUTPUT_SUFFIXES = [".d.ts.map", ".js.map", ".d.ts", ".js"];

function sourceOf(root: string, distRoot: string, file: string): string | undefined {
  const suffix = OUTPUT_SUFFIXES.find((s) => file.endsWith(s));
  if (suffix === undefined) return undefined;
  return join(root, relative(distRoot, file).slice(0, -suffix.length) + ".ts");
}

function prune(root: string, distRoot: string, dir: string): number {
  let removed = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    // The bundle (app/build/bundle-cli.ts) has no source file of its own; it is rebuilt whole.
    if (entry.isDirectory() && path === join(distRoot, "bundle")) continue;
    if (entry.isDirectory()) {
      removed += prune(root, distRoot, path);
      if (readdirSync(path).length === 0) rmSync(path, { recursive: true });
      continue;
    }
    const source = sourceOf(root, distRoot, path);
    if (source !== undefined && !existsSync(source)) {
      rmSync(path);
      removed++;
    }
  }
  return removed;
}

const distRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const root = dirname(distRoot);
if (existsSync(distRoot)) {
  const removed = prune(root, distRoot, distRoot);
  if (removed > 0) console.log(`removed ${removed} compiled file(s) whose source no longer exists`);
}
