// Turns the paths the model writes into absolute paths against the agent's working directory, and
// back into short paths for messages, so every tool speaks about files the same way.
//
// Models get paths slightly wrong in predictable ways: a leading `@` (from "@file" mentions), a
// non-breaking space for a space, a composed "é" where the disk has "e" + combining accent (macOS
// stores names decomposed), a straight apostrophe where the name has a curly one, or a plain space
// before AM/PM in a macOS screenshot name (the disk has a narrow no-break space). When the path as
// written does not exist, these spellings are tried and the first that exists wins.
import { lstatSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, relative, resolve } from "node:path";

const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;
const NARROW_NO_BREAK_SPACE = "\u202F";

type Spelling = (path: string) => string;

const identity: Spelling = (path) => path;
/** Each group offers alternatives; every combination of one choice per group is a spelling. */
const SPELLING_GROUPS: Spelling[][] = [
  [identity, (p) => (p.startsWith("@") ? p.slice(1) : p)],
  [identity, (p) => p.replace(UNICODE_SPACES, " ")],
  [identity, (p) => p.replace(/ (AM|PM)\./g, `${NARROW_NO_BREAK_SPACE}$1.`)],
  [identity, (p) => p.normalize("NFC"), (p) => p.normalize("NFD")],
  [identity, (p) => p.replace(/'/g, "\u2019"), (p) => p.replace(/\u2019/g, "'")],
];

/** Every spelling of `filePath` worth trying, the path as written first, without repeats. */
function pathSpellings(filePath: string): string[] {
  let spellings = [filePath];
  for (const group of SPELLING_GROUPS) spellings = spellings.flatMap((s) => group.map((spell) => spell(s)));
  return [...new Set(spellings)];
}

/** `~` and `~/…` mean the home directory, as in a shell; anything else is taken against `cwd`. */
function expand(cwd: string, filePath: string): string {
  if (filePath === "~") return homedir();
  if (filePath.startsWith("~/")) return resolve(homedir(), filePath.slice(2));
  return resolve(cwd, filePath);
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Resolves `filePath` against `cwd`. When the path as written does not exist, the first spelling that
 * does (see the top of this file) is used; when none exists, the first whose folder exists (a new
 * file), else the path as written.
 */
export function resolvePath(cwd: string, filePath: string): string {
  const asWritten = expand(cwd, filePath);
  if (exists(asWritten)) return asWritten;
  const candidates = pathSpellings(filePath).map((spelling) => expand(cwd, spelling));
  return candidates.find(exists) ?? candidates.find((path) => exists(dirname(path))) ?? asWritten;
}

/** The path relative to `cwd` when the file lies inside it, otherwise the absolute path. */
export function displayPath(cwd: string, absolutePath: string): string {
  const rel = relative(cwd, absolutePath);
  if (rel === "") return ".";
  if (rel.startsWith("..") || isAbsolute(rel)) return absolutePath;
  return rel;
}
