// The launcher's code cache (app/code-cache.ts) on a small bundle of its own: the bundle runs as
// Node's loader would run it; a first run saves what V8 compiled beside the bundle, the next one
// hands it to V8, which takes it; a damaged cache is refused and written again; an install that
// cannot take the cache puts it in PITWALL_HOME; and the real `pitwall` starts with it.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { codeCachePaths } from "../../app/code-cache.js";
import { assertBuilt, CLI_PATH, REPO_ROOT } from "../helpers/cli-process.js";
import { tempDir } from "../helpers/temp-dir.js";

beforeAll(() => assertBuilt());

/** A CommonJS bundle that records how it was run, with enough code for V8 to cache. */
function bundleIn(folder: string, version = 1): string {
  const path = join(folder, "app.cjs");
  const functions = Array.from({ length: 200 }, (_, i) => `function f${i}(x) { return x * ${i} + ${version}; }`).join("\n");
  writeFileSync(
    path,
    `#!/usr/bin/env node\n${functions}\nglobalThis.codeCacheRun = { sum: f199(1), file: __filename, dir: __dirname, exportsIsThis: this === module.exports, sep: require("node:path").sep };\n`,
  );
  return path;
}

interface Run {
  use: { found: boolean; accepted: boolean };
  ran: unknown;
}

const CODE_CACHE_MODULE = JSON.stringify(join(REPO_ROOT, "dist", "app", "code-cache.js"));
const SETTINGS_MODULE = JSON.stringify(join(REPO_ROOT, "dist", "app", "settings.js"));

/** A script that runs `bundle` as the launcher does, with the code cache settings of its environment, then `after` with the launcher module as `m`. */
function launcherScript(bundle: string, after: string): string {
  return `Promise.all([import(${CODE_CACHE_MODULE}), import(${SETTINGS_MODULE})]).then(([m, s]) => { const use = m.runWithCodeCache(${JSON.stringify(bundle)}, s.codeCacheSettings(process.env)); ${after} })`;
}

/**
 * Runs the bundle through the compiled launcher code in a process of its own (V8 would otherwise
 * find the source compiled already and never look at a cache), and saves the cache as at "ready".
 */
function run(bundle: string, env: Record<string, string>): Run {
  const script = launcherScript(bundle, "m.saveCodeCache(); console.log(JSON.stringify({ use, ran: globalThis.codeCacheRun }));");
  const result = spawnSync(process.execPath, ["-e", script], { env: { PATH: process.env.PATH ?? "", ...env }, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`the launcher failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as Run;
}

describe("the launcher's code cache", () => {
  it("runs the bundle as Node would, saves the cache beside it, and the next run's V8 takes it", () => {
    const folder = tempDir("code-cache");
    const bundle = bundleIn(folder);
    const env = { PITWALL_HOME: join(folder, "home") };
    expect(run(bundle, env)).toEqual({ use: { found: false, accepted: false }, ran: { sum: 200, file: bundle, dir: folder, exportsIsThis: true, sep: "/" } });
    const [beside] = codeCachePaths(bundle, env.PITWALL_HOME);
    expect(existsSync(beside!)).toBe(true);
    expect(run(bundle, env).use).toEqual({ found: true, accepted: true });
  });

  it("a damaged cache is refused, the bundle runs anyway, and the cache is written again", () => {
    const folder = tempDir("code-cache");
    const bundle = bundleIn(folder);
    const env = { PITWALL_HOME: join(folder, "home") };
    run(bundle, env);
    const [beside] = codeCachePaths(bundle, env.PITWALL_HOME);
    writeFileSync(beside!, "not a code cache");
    expect(run(bundle, env).use).toEqual({ found: true, accepted: false });
    expect(run(bundle, env).use).toEqual({ found: true, accepted: true });
  });

  it("a rebuilt bundle gets a cache of its own and the old one is removed", () => {
    const folder = tempDir("code-cache");
    const env = { PITWALL_HOME: join(folder, "home") };
    run(bundleIn(folder, 1), env);
    const bundle = bundleIn(folder, 2);
    utimesSync(bundle, new Date(), new Date(Date.now() + 5000));
    expect(run(bundle, env).use).toEqual({ found: false, accepted: false });
    expect(readdirSync(join(folder, ".code-cache"))).toEqual([codeCachePaths(bundle, env.PITWALL_HOME)[0]!.split("/").pop()]);
  });

  it("an install that cannot take the cache keeps it in PITWALL_HOME; PITWALL_NO_CODE_CACHE=1 keeps none", () => {
    const folder = tempDir("code-cache");
    const bundle = bundleIn(folder);
    // A file where the cache folder would be: nothing can be written beside the bundle.
    writeFileSync(join(folder, ".code-cache"), "");
    const env = { PITWALL_HOME: join(folder, "home") };
    run(bundle, env);
    const [, inHome] = codeCachePaths(bundle, env.PITWALL_HOME);
    expect(existsSync(inHome!)).toBe(true);
    expect(run(bundle, env).use).toEqual({ found: true, accepted: true });
    const off = { ...env, PITWALL_HOME: join(folder, "other-home"), PITWALL_NO_CODE_CACHE: "1" };
    expect(run(bundle, off).use).toEqual({ found: false, accepted: false });
    expect(existsSync(join(folder, "other-home"))).toBe(false);
  });

  it("only a run that says it is ready writes the cache: a print-mode run, however long, leaves none", () => {
    const folder = tempDir("code-cache");
    const bundle = bundleIn(folder);
    const env = { PITWALL_HOME: join(folder, "home") };
    // Longer than the two seconds after which a timer used to write whatever was compiled.
    const script = launcherScript(bundle, "void use; setTimeout(() => {}, 2300);");
    const result = spawnSync(process.execPath, ["-e", script], { env: { PATH: process.env.PATH ?? "", ...env }, encoding: "utf8" });
    expect(result.status, result.stderr).toBe(0);
    expect(codeCachePaths(bundle, env.PITWALL_HOME).some((path) => existsSync(path))).toBe(false);
    expect(run(bundle, env).use).toEqual({ found: false, accepted: false });
    expect(run(bundle, env).use).toEqual({ found: true, accepted: true });
  });

  it("the launcher stays a few kilobytes: of the settings it takes the code cache's, not the config schema or the job subsystem", () => {
    const launcher = readFileSync(CLI_PATH, "utf8");
    expect(launcher).toContain("PITWALL_NO_CODE_CACHE");
    expect(launcher).not.toMatch(/typebox|resolveSettings|JobRegistry/i);
    expect(statSync(CLI_PATH).size).toBeLessThan(8 * 1024);
  });

  it("pitwall itself starts through it", () => {
    const home = tempDir("code-cache-home");
    const result = spawnSync(process.execPath, [CLI_PATH, "--version"], { env: { PATH: process.env.PATH, PITWALL_HOME: home }, encoding: "utf8" });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^\d+\.\d+\.\d+/);
    expect(CLI_PATH.endsWith("cli.cjs")).toBe(true);
  });
});
