// Which image files a person means in the input: a path pasted (terminals paste a dragged file as
// its path, quoted or with escaped spaces, sometimes as a file:// URL; several files at once are
// separated by spaces) or typed as `@path`. Only existing PNG, JPEG, GIF and WebP files count.
import { statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { hasImageExtension } from "../tools/images/image-content.js";
import type { ImageAttachment } from "../panes/input/input-pane.js";

/** The image file `spec` names (relative to `cwd`, `~`, a file:// URL), or undefined. */
export function imageFileAt(spec: string, cwd: string): ImageAttachment | undefined {
  let path = spec;
  if (path.startsWith("file://")) {
    try {
      path = fileURLToPath(path);
    } catch {
      return undefined;
    }
  }
  if (path === "~" || path.startsWith("~/")) path = homedir() + path.slice(1);
  if (!hasImageExtension(path)) return undefined;
  const absolute = isAbsolute(path) ? path : resolve(cwd, path);
  try {
    if (!statSync(absolute).isFile()) return undefined;
  } catch {
    return undefined;
  }
  return { name: basename(absolute), path: absolute };
}

/** The images a pasted text names when it is nothing but one or more image paths; else undefined. */
export function pastedImageFiles(text: string, cwd: string): ImageAttachment[] | undefined {
  const specs = splitPaths(text.trim());
  if (!specs || specs.length === 0) return undefined;
  const found: ImageAttachment[] = [];
  for (const spec of specs) {
    const image = imageFileAt(spec, cwd);
    if (!image) return undefined;
    found.push(image);
  }
  return found;
}

/** Splits like a shell does for paths: quotes group, a backslash escapes; undefined if unbalanced. */
function splitPaths(text: string): string[] | undefined {
  const out: string[] = [];
  let current = "";
  let started = false;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === quote) quote = undefined;
      else current += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      started = true;
    } else if (ch === "\\" && i + 1 < text.length) {
      current += text[++i];
      started = true;
    } else if (/\s/.test(ch)) {
      if (started) out.push(current);
      current = "";
      started = false;
    } else {
      current += ch;
      started = true;
    }
  }
  if (quote) return undefined;
  if (started) out.push(current);
  return out;
}
