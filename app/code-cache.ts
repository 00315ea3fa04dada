// Runs the bundled app (one CommonJS file, with no import(): app/build/bundle-cli.ts) with V8's code cache, what Node 22's compile cache does
// and Node 20 lacks: V8 parses and compiles the ~2 MB bundle, and then the functions a start runs,
// on every launch, ~150 ms of this VM's 400 to "ready". The first dashboard after an install or
// an upgrade compiles as usual and, once "ready", saves what V8 compiled by then; later runs (any
// mode) hand it back to V8, which checks it against the source and its own version and flags, and compiles as
// usual when it does not fit (the file is then written again). The cache lives beside the bundle
// (.code-cache/, as trusted as the bundle itself and rebuilt with it), or in
// <PITWALL_HOME>/code-cache/ when the install is not writable. PITWALL_NO_CODE_CACHE=1 turns it off
// (both read by settings.ts: codeCacheSettings).
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { Script } from "node:vm";
import type { CodeCacheSettings } from "./settings.js";

const SAVE_CODE_CACHE = Symbol.for("pitwall.saveCodeCache");

/**
 * Writes the code cache now if the launcher is waiting to (a first start); otherwise nothing. Only
 * the dashboard calls it, at "ready", after the functions its start runs were compiled, and again
 * after its first turn that ran a tool: the cache is for that start and that first command, what a
 * person waits for. (A timer used to write it two seconds into any
 * run, so a long first `pitwall -p` left a cache of print mode's functions for every dashboard.)
 */
export function saveCodeCache(): void {
  const save = (globalThis as Record<symbol, unknown>)[SAVE_CODE_CACHE];
  if (typeof save === "function") save();
}

/** Where the cache of `bundle` as it is now may be, for this Node, in order: a new build or a new Node gets new files. */
export function codeCachePaths(bundle: string, home: string): string[] {
  const { size, mtimeMs } = statSync(bundle);
  const name = `${basename(bundle)}-${size}-${Math.round(mtimeMs)}-${process.version}-${process.arch}.bin`;
  return [join(dirname(bundle), ".code-cache", name), join(home, "code-cache", name)];
}

function readCache(paths: readonly string[]): Buffer | undefined {
  for (const path of paths) {
    try {
      return readFileSync(path);
    } catch {
      // Not there: the next place, or none.
    }
  }
  return undefined;
}

/** Writes the cache atomically to the first place that takes it, and removes the files of other builds there. */
function writeCache(paths: readonly string[], data: Buffer): void {
  for (const path of paths) {
    const folder = dirname(path);
    const temporary = `${path}.${process.pid}.tmp`;
    try {
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      writeFileSync(temporary, data, { mode: 0o600 });
      renameSync(temporary, path);
    } catch {
      try {
        rmSync(temporary, { force: true });
      } catch {
        // The folder itself could not be made: nothing was written.
      }
      continue;
    }
    const prefix = `${basename(path).split("-")[0]}-`;
    for (const name of readdirSync(folder)) {
      if (name.startsWith(prefix) && name !== basename(path) && !name.endsWith(".tmp")) rmSync(join(folder, name), { force: true });
    }
    return;
  }
  // Nowhere writable: each start compiles, as without a cache.
}

/** How a run went: whether a cache was handed to V8, and whether V8 took it. */
export interface CodeCacheUse {
  found: boolean;
  accepted: boolean;
}

/** Loads and runs the CommonJS `bundle` as Node's loader would, with the code cache when there is one. */
export function runWithCodeCache(bundle: string, settings: CodeCacheSettings): CodeCacheUse {
  // The build leaves no #! line in the bundle; one left would be a syntax error inside the wrapper.
  let source = readFileSync(bundle, "utf8");
  if (source.startsWith("#!")) source = source.replace(/^#!.*/, "");
  let cachePaths: string[] = [];
  let cached: Buffer | undefined;
  if (settings.enabled) {
    try {
      cachePaths = codeCachePaths(bundle, settings.home);
      cached = readCache(cachePaths);
    } catch {
      cachePaths = [];
    }
  }
  // The wrapper Node's CommonJS loader puts around a module (Module.wrap).
  const wrapped = `(function (exports, require, module, __filename, __dirname) { ${source}\n});`;
  const script = new Script(wrapped, {
    filename: bundle,
    ...(cached ? { cachedData: cached } : {}),
  });
  if (cachePaths.length > 0 && (!cached || script.cachedDataRejected)) {
    // Twice at most: at "ready", and once the first turn that ran a tool has ended (the streaming,
    // the tool calls and their results compiled too, which the first command of every later start
    // then does not wait for).
    let saves = 0;
    const save = (): void => {
      if (saves >= 2) return;
      saves++;
      writeCache(cachePaths, script.createCachedData());
    };
    (globalThis as Record<symbol, unknown>)[SAVE_CODE_CACHE] = save;
  }
  const run = script.runInThisContext() as (exports: object, require: NodeJS.Require, module: object, filename: string, dirname: string) => void;
  const module = { exports: {}, filename: bundle, id: bundle, loaded: false };
  run.call(module.exports, module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  return { found: cached !== undefined, accepted: cached !== undefined && !script.cachedDataRejected };
}
