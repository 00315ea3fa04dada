// Settings resolve once, in order: flags > environment > config.json > defaults; pitwall's own
// PITWALL_BASH_* names beside the seed's PI_BASH_* ones, PITWALL_ winning; values fitted to their ranges.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseCliArgs } from "../../app/cli-options.js";
import { codeCacheSettings, hostGreetingSetting, pitwallHome, resolveSettings } from "../../app/settings.js";
import { tempDir } from "../helpers/temp-dir.js";

function homeWith(config?: object): string {
  const home = tempDir("settings");
  if (config) writeFileSync(join(home, "config.json"), JSON.stringify(config));
  return home;
}

const resolve = (argv: string[], env: NodeJS.ProcessEnv) => resolveSettings(parseCliArgs(argv, "/work"), env);

describe("settings", () => {
  it("have defaults with no flags, environment or config", () => {
    const home = homeWith();
    const s = resolve([], { PITWALL_HOME: home });
    expect(s.home).toBe(home);
    expect(s.sessionRoot).toBe(join(home, "sessions"));
    expect(s.warnings).toEqual([]);
    expect(s.agent).toMatchObject({ maxOutputChars: 30_000, jobs: { ttlMs: 1_800_000, defaultYieldMs: 60_000, watchDebounceMs: 10_000 }, retry: { baseDelayMs: 1000, maxAttempts: 4 } });
  });

  it("take the watch triggers' debounce window from PITWALL_WATCH_DEBOUNCE_MS or watchDebounceMs, within 1 s–1 h", () => {
    const home = homeWith({ watchDebounceMs: 30_000 });
    expect(resolve([], { PITWALL_HOME: home }).agent.jobs.watchDebounceMs).toBe(30_000);
    expect(resolve([], { PITWALL_HOME: home, PITWALL_WATCH_DEBOUNCE_MS: "2500" }).agent.jobs.watchDebounceMs).toBe(2_500);
    expect(resolve([], { PITWALL_HOME: home, PITWALL_WATCH_DEBOUNCE_MS: "10" }).agent.jobs.watchDebounceMs).toBe(1_000);
    expect(resolve([], { PITWALL_HOME: home, PITWALL_WATCH_DEBOUNCE_MS: "99999999" }).agent.jobs.watchDebounceMs).toBe(3_600_000);
    // The 1 s floor is lowered only by PITWALL_WATCH_MIN_DEBOUNCE_MS (a test's quick triggers), never raised.
    expect(resolve([], { PITWALL_HOME: home }).agent.jobs.minWatchDebounceMs).toBe(1_000);
    const quick = resolve([], { PITWALL_HOME: home, PITWALL_WATCH_MIN_DEBOUNCE_MS: "100", PITWALL_WATCH_DEBOUNCE_MS: "200" }).agent.jobs;
    expect(quick).toMatchObject({ minWatchDebounceMs: 100, watchDebounceMs: 200 });
    expect(resolve([], { PITWALL_HOME: home, PITWALL_WATCH_MIN_DEBOUNCE_MS: "5000" }).agent.jobs.minWatchDebounceMs).toBe(1_000);
  });

  it("take a steer's grace for a running bash call from PITWALL_STEER_GRACE_MS or steerGraceMs, within 0–120 s", () => {
    expect(resolve([], { PITWALL_HOME: homeWith({}) }).agent.jobs.steerGraceMs).toBe(1_000);
    const home = homeWith({ steerGraceMs: 5_000 });
    expect(resolve([], { PITWALL_HOME: home }).agent.jobs.steerGraceMs).toBe(5_000);
    expect(resolve([], { PITWALL_HOME: home, PITWALL_STEER_GRACE_MS: "0" }).agent.jobs.steerGraceMs).toBe(0);
    expect(resolve([], { PITWALL_HOME: home, PITWALL_STEER_GRACE_MS: "99999999" }).agent.jobs.steerGraceMs).toBe(120_000);
  });

  it("take a flag over the environment, the environment over config.json, config.json over the default", () => {
    const home = homeWith({ bashYieldMs: 5_000, bashJobTtlMs: 120_000, bashMaxOutputChars: 4_000 });
    const fromConfig = resolve([], { PITWALL_HOME: home });
    expect(fromConfig.agent).toMatchObject({ maxOutputChars: 4_000, jobs: { ttlMs: 120_000, defaultYieldMs: 5_000 } });
    const fromEnv = resolve([], { PITWALL_HOME: home, PI_BASH_YIELD_MS: "7000", PI_BASH_MAX_OUTPUT_CHARS: "3000" });
    expect(fromEnv.agent).toMatchObject({ maxOutputChars: 3_000, jobs: { ttlMs: 120_000, defaultYieldMs: 7_000 } });
    const fromFlag = resolve(["--bash-yield-ms", "9000"], { PITWALL_HOME: home, PI_BASH_YIELD_MS: "7000" });
    expect(fromFlag.agent.jobs.defaultYieldMs).toBe(9_000);
  });

  it("read PITWALL_BASH_* beside PI_BASH_*, and PITWALL_ wins when both are set", () => {
    const home = homeWith();
    const env = { PITWALL_HOME: home, PITWALL_BASH_JOB_TTL_MS: "300000", PI_BASH_JOB_TTL_MS: "600000", PI_BASH_MAX_OUTPUT_CHARS: "5000" };
    expect(resolve([], env).agent).toMatchObject({ maxOutputChars: 5_000, jobs: { ttlMs: 300_000 } });
    expect(resolve([], { ...env, PITWALL_BASH_MAX_OUTPUT_CHARS: "6000" }).agent.maxOutputChars).toBe(6_000);
  });

  it("fit values into their ranges and skip unusable ones", () => {
    const home = homeWith({ bashYieldMs: 5_000 });
    const s = resolve([], { PITWALL_HOME: home, PI_BASH_MAX_OUTPUT_CHARS: "999999", PI_BASH_JOB_TTL_MS: "5", PITWALL_BASH_YIELD_MS: "nonsense" });
    expect(s.agent).toMatchObject({ maxOutputChars: 150_000, jobs: { ttlMs: 60_000, defaultYieldMs: 5_000 } });
    expect(resolve([], { PITWALL_HOME: home, PI_BASH_JOB_TTL_MS: "99999999999", PI_BASH_YIELD_MS: "10" }).agent.jobs).toMatchObject({
      ttlMs: 10_800_000,
      defaultYieldMs: 1_000,
    });
    expect(resolve([], { PITWALL_HOME: home, PITWALL_RETRY_BASE_MS: "5" }).agent.retry.baseDelayMs).toBe(5);
  });

  it("keep jobs left running 30 minutes by default; keepJobsMinutes and PITWALL_KEEP_JOBS_MINUTES change it, 0 keeps none", () => {
    expect(resolve([], { PITWALL_HOME: homeWith() }).keepJobsMs).toBe(30 * 60_000);
    const home = homeWith({ keepJobsMinutes: 90 });
    expect(resolve([], { PITWALL_HOME: home }).keepJobsMs).toBe(90 * 60_000);
    expect(resolve([], { PITWALL_HOME: home, PITWALL_KEEP_JOBS_MINUTES: "0.5" }).keepJobsMs).toBe(30_000);
    expect(resolve([], { PITWALL_HOME: homeWith({ keepJobsMinutes: 0 }) }).keepJobsMs).toBe(0);
    const bad = resolve([], { PITWALL_HOME: homeWith({ keepJobsMinutes: -3 }) });
    expect(bad.keepJobsMs).toBe(30 * 60_000);
    expect(bad.warnings.join("\n")).toMatch(/keepJobsMinutes.*minutes from 0 to 1440/);
  });

  it("keep bash_stream's shortest wait at 1 s; only PITWALL_BASH_MIN_YIELD_MS lowers it, never raises it", () => {
    expect(resolve([], { PITWALL_HOME: homeWith() }).agent.jobs.minYieldMs).toBe(1_000);
    expect(resolve([], { PITWALL_HOME: homeWith({ bashYieldMs: 200 }) }).agent.jobs.defaultYieldMs).toBe(1_000);
    const quick = resolve([], { PITWALL_HOME: homeWith({ bashYieldMs: 200 }), PITWALL_BASH_MIN_YIELD_MS: "100" }).agent.jobs;
    expect(quick).toMatchObject({ minYieldMs: 100, defaultYieldMs: 200 });
    expect(resolve([], { PITWALL_HOME: homeWith(), PITWALL_BASH_MIN_YIELD_MS: "5000" }).agent.jobs.minYieldMs).toBe(1_000);
  });

  it("take the stall timeouts from PITWALL_HEADER_TIMEOUT_MS and PITWALL_IDLE_TIMEOUT_MS, else headerTimeoutMs and idleTimeoutMs, else 60 s and 120 s", () => {
    expect(resolve([], { PITWALL_HOME: homeWith() }).agent.streamTimeouts).toEqual({ headerMs: 60_000, idleMs: 120_000 });
    expect(resolve([], { PITWALL_HOME: homeWith(), PITWALL_HEADER_TIMEOUT_MS: "5000", PITWALL_IDLE_TIMEOUT_MS: "oops" }).agent.streamTimeouts).toEqual({ headerMs: 5_000, idleMs: 120_000 });
    const home = homeWith({ headerTimeoutMs: 1_500, idleTimeoutMs: 2_500 });
    expect(resolve([], { PITWALL_HOME: home }).agent.streamTimeouts).toEqual({ headerMs: 1_500, idleMs: 2_500 });
    expect(resolve([], { PITWALL_HOME: home, PITWALL_IDLE_TIMEOUT_MS: "9000" }).agent.streamTimeouts).toEqual({ headerMs: 1_500, idleMs: 9_000 });
    const bad = resolve([], { PITWALL_HOME: homeWith({ idleTimeoutMs: 0 }) });
    expect(bad.agent.streamTimeouts.idleMs).toBe(120_000);
    expect(bad.warnings).toEqual([expect.stringContaining('"idleTimeoutMs" must be a positive whole number of milliseconds; ignored.')]);
  });

  it("take the tool-output pane's reading hold from PITWALL_READING_HOLD_MS, else readingHoldMs; unset, the pane keeps its own 15 s", () => {
    expect(resolve([], { PITWALL_HOME: homeWith() }).readingHoldMs).toBeUndefined();
    const home = homeWith({ readingHoldMs: 30_000 });
    expect(resolve([], { PITWALL_HOME: home }).readingHoldMs).toBe(30_000);
    expect(resolve([], { PITWALL_HOME: home, PITWALL_READING_HOLD_MS: "4000" }).readingHoldMs).toBe(4_000);
    expect(resolve([], { PITWALL_HOME: home, PITWALL_READING_HOLD_MS: "0" }).readingHoldMs).toBe(30_000);
  });

  it("warm an idle dashboard up unless PITWALL_IDLE_WARM_UP or idleWarmUp says not to; a word that is neither is ignored", () => {
    expect(resolve([], { PITWALL_HOME: homeWith() }).idleWarmUp).toBe(true);
    const home = homeWith({ idleWarmUp: false });
    expect(resolve([], { PITWALL_HOME: home }).idleWarmUp).toBe(false);
    expect(resolve([], { PITWALL_HOME: home, PITWALL_IDLE_WARM_UP: "on" }).idleWarmUp).toBe(true);
    expect(resolve([], { PITWALL_HOME: homeWith(), PITWALL_IDLE_WARM_UP: "0" }).idleWarmUp).toBe(false);
    expect(resolve([], { PITWALL_HOME: home, PITWALL_IDLE_WARM_UP: "maybe" }).idleWarmUp).toBe(false);
    const bad = homeWith({ idleWarmUp: "yes" });
    expect(resolve([], { PITWALL_HOME: bad }).idleWarmUp).toBe(true);
    expect(resolve([], { PITWALL_HOME: bad }).warnings.join("\n")).toMatch(/idleWarmUp.*must be true or false/);
  });

  it("give a job host 5 s to greet; PITWALL_HOST_GREETING_MS, else hostGreetingMs, changes it, for `pitwall jobs` too", () => {
    expect(resolve([], { PITWALL_HOME: homeWith() }).hostGreetingMs).toBe(5_000);
    const home = homeWith({ hostGreetingMs: 8_000 });
    expect(resolve([], { PITWALL_HOME: home }).hostGreetingMs).toBe(8_000);
    expect(resolve([], { PITWALL_HOME: home, PITWALL_HOST_GREETING_MS: "1000" }).hostGreetingMs).toBe(1_000);
    expect(hostGreetingSetting({ PITWALL_HOME: home })).toBe(8_000);
    expect(hostGreetingSetting({ PITWALL_HOME: home, PITWALL_HOST_GREETING_MS: "oops" })).toBe(8_000);
  });

  it("read PITWALL_HOME, the code cache's switch and the benchmarks' files, and nothing else reads them", () => {
    expect(pitwallHome({ PITWALL_HOME: "/somewhere/.pw" })).toBe("/somewhere/.pw");
    expect(pitwallHome({})).toMatch(/\/\.pitwall$/);
    expect(codeCacheSettings({ PITWALL_HOME: "/somewhere/.pw" })).toEqual({ enabled: true, home: "/somewhere/.pw" });
    expect(codeCacheSettings({ PITWALL_HOME: "/somewhere/.pw", PITWALL_NO_CODE_CACHE: "1" }).enabled).toBe(false);
    const home = homeWith();
    expect(resolve([], { PITWALL_HOME: home }).instrumentation).toEqual({ startupTrace: undefined, frameStats: undefined });
    expect(resolve([], { PITWALL_HOME: home, PITWALL_STARTUP_TRACE: "/t/trace", PITWALL_FRAME_STATS: "/t/frames.json" }).instrumentation).toEqual({
      startupTrace: "/t/trace",
      frameStats: "/t/frames.json",
    });
  });

  it("carry config.json's problems as warnings, the file's other fields still used", () => {
    const home = homeWith({ bashYieldMs: -1, keymap: "keys.json", baseUrl: "ftp://x" });
    const s = resolve([], { PITWALL_HOME: home });
    expect(s.keymap).toBe("keys.json");
    expect(s.baseUrl).toBeUndefined();
    expect(s.warnings).toEqual([
      expect.stringContaining('"bashYieldMs" must be a positive whole number of milliseconds; ignored.'),
      expect.stringContaining('"baseUrl" must be an http(s) URL; ignored.'),
    ]);
    expect(s.agent.jobs.defaultYieldMs).toBe(60_000);
  });

  it("take the sandbox from --sandbox over config.json, workspace by default; never from the environment", () => {
    const home = homeWith({ sandbox: "strict", personSandbox: "workspace", sandboxWritable: ["~/.npm", "/opt/cache"], sandboxHidden: ["~/.config/secret"] });
    const fromConfig = resolve([], { PITWALL_HOME: home, HOME: "/home/someone" });
    expect(fromConfig.sandbox.policy).toMatchObject({ profile: "strict", required: false, home: "/home/someone", writable: ["/home/someone/.npm", "/opt/cache"] });
    expect(fromConfig.sandbox.policy.hidden).toEqual(expect.arrayContaining(["/home/someone/.ssh", "/home/someone/.config/secret", join(home, "hosts")]));
    expect(fromConfig.sandbox.policy.protected).toContain(home);
    expect(fromConfig.sandbox.personProfile).toBe("workspace");
    expect(fromConfig.agent.sandbox).toBe(fromConfig.sandbox);
    expect(resolve(["--sandbox", "off"], { PITWALL_HOME: home }).sandbox.policy.profile).toBe("off");
    expect(resolve(["--sandbox", "required"], { PITWALL_HOME: home }).sandbox.policy).toMatchObject({ profile: "workspace", required: true });
    const defaults = resolve([], { PITWALL_HOME: homeWith(), PITWALL_SANDBOX: "off" });
    expect(defaults.sandbox.policy.profile).toBe("workspace");
    expect(defaults.sandbox.personProfile).toBe("off");
    expect(defaults.sandbox.policy.writable).toContain(join(process.env.HOME ?? "", ".npm"));
  });
});
