// Turns the paths the model writes into absolute paths against the agent's working directory, and
// back into short paths for messages, so every tool speaks about files the same way.
import { homedir } from "node:os";
import { isAbsolute, relative, resolve } from "node:path";

/** Resolves `filePath` against `cwd`; a leading `~` means the home directory, as in a shell. */
export function resolvePath(cwd: string, filePath: string): string {
  if (filePath === "~") return homedir();
  if (filePath.startsWith("~/")) return resolve(homedir(), filePath.slice(2));
  return resolve(cwd, filePath);
}

/** The path relative to `cwd` when the file lies inside it, otherwise the absolute path. */
export function displayPath(cwd: string, absolutePath: string): string {
  const rel = relative(cwd, absolutePath);
  if (rel === "") return ".";
  if (rel.startsWith("..") || isAbsolute(rel)) return absolutePath;
  return rel;
}
