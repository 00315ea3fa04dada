// Key bindings: the defaults in keymap.json, a person's overrides, and bad files.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { ACTIONS, KEY_CONTEXTS } from "../../app/keys/key-actions.js";
import { canonicalKeyName, displayKeyName } from "../../app/keys/key-names.js";
import { defaultKeymapPath, loadKeymap, parseKeymap } from "../../app/keys/keymap.js";

const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});

function home(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "pitwall-keys-"));
  homes.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe("keymap", () => {
  test("keymap.json at the repository root binds only known actions, with valid keys, and every action", () => {
    const parsed = parseKeymap(JSON.parse(readFileSync(defaultKeymapPath(), "utf8")), "keymap.json");
    expect(parsed.warnings).toEqual([]);
    for (const context of KEY_CONTEXTS) {
      for (const action of Object.keys(ACTIONS[context])) expect(parsed.bindings[context]?.[action]?.length, `${context}.${action}`).toBeGreaterThan(0);
    }
  });

  test("the defaults avoid tmux's and zellij's prefixes", () => {
    const keymap = loadKeymap({ home: home() });
    const all = KEY_CONTEXTS.flatMap((c) => Object.values(keymap.bindings[c]).flat());
    for (const prefix of ["ctrl+b", "ctrl+a", "ctrl+p", "ctrl+g"]) expect(all).not.toContain(prefix);
  });

  test("the jobs context has the mprocs-like keys", () => {
    const keymap = loadKeymap({ home: home() });
    expect(keymap.lookup("jobs", "x")).toBe("kill");
    expect(keymap.lookup("jobs", "X")).toBe("killHard");
    expect(keymap.lookup("jobs", "r")).toBe("restart");
    expect(keymap.lookup("jobs", "s")).toBe("start");
    expect(keymap.lookup("jobs", "z")).toBe("zoom");
    expect(keymap.lookup("jobs", "a")).toBe("attach");
    expect(keymap.lookup("jobs", "n")).toBe("newJob");
    expect(keymap.lookup("jobs", "d")).toBe("remove");
    expect(keymap.lookup("jobs", "c")).toBe("copyScreen");
    expect(keymap.lookup("jobs", "C")).toBe("copyLog");
    expect(keymap.lookup("jobs", "pageup")).toBe("pageUp");
    expect(keymap.lookup("jobs", "end")).toBe("bottom");
    // The detach key is one no job needs and no multiplexer takes.
    expect(keymap.keysFor("attached", "detach")).toEqual(["ctrl+]", "f12"]);
  });

  test("a person's file replaces single actions and takes the key from any other action", () => {
    const keymap = loadKeymap({ home: home({ "keymap.json": JSON.stringify({ global: { dismissError: "Ctrl+D", help: ["F2"] } }) }) });
    expect(keymap.lookup("global", "ctrl+d")).toBe("dismissError");
    expect(keymap.keysFor("global", "quit")).toEqual([]);
    expect(keymap.lookup("global", "f2")).toBe("help");
    expect(keymap.lookup("global", "f1")).toBeUndefined();
    expect(keymap.lookup("input", "enter")).toBe("submit");
    expect(keymap.warnings).toEqual([]);
  });

  test("the config's keymap path is used", () => {
    const dir = home({ "my-keys.json": JSON.stringify({ chat: { bottom: ["e"] } }) });
    expect(loadKeymap({ home: dir, configured: "my-keys.json" }).lookup("chat", "e")).toBe("bottom");
    expect(loadKeymap({ home: dir, configured: "missing.json" }).warnings[0]).toContain("does not exist");
  });

  test("malformed files and entries give warnings and keep the defaults", () => {
    let keymap = loadKeymap({ home: home({ "keymap.json": "{ nope" }) });
    expect(keymap.warnings[0]).toMatch(/is not valid JSON .* using the default keys/);
    expect(keymap.lookup("global", "ctrl+d")).toBe("quit");

    keymap = loadKeymap({ home: home({ "keymap.json": JSON.stringify({ nowhere: {}, global: { fly: ["f9"], quit: ["hyper+q"], help: 7 } }) }) });
    expect(keymap.warnings.join("\n")).toContain('unknown context "nowhere"');
    expect(keymap.warnings.join("\n")).toContain('unknown action "global.fly"');
    expect(keymap.warnings.join("\n")).toContain('"hyper+q" is not a key name');
    expect(keymap.warnings.join("\n")).toContain('"global.help" must be a key name or a list');
    expect(keymap.lookup("global", "ctrl+d")).toBe("quit");
    expect(keymap.lookup("global", "f1")).toBe("help");

    keymap = loadKeymap({ home: home({ "keymap.json": "[1, 2]" }) });
    expect(keymap.warnings[0]).toContain("must hold a JSON object");
  });

  test("key names are put in one spelling and shown the way people write them", () => {
    expect(canonicalKeyName("Ctrl+C")).toBe("ctrl+c");
    expect(canonicalKeyName("shift+x")).toBe("X");
    expect(canonicalKeyName("Alt+Return")).toBe("alt+enter");
    expect(canonicalKeyName("ctrl+shift+c")).toBe("ctrl+C");
    expect(canonicalKeyName("PgUp")).toBe("pageup");
    expect(canonicalKeyName("?")).toBe("?");
    expect(canonicalKeyName("super+x")).toBeUndefined();
    expect(displayKeyName("ctrl+q")).toBe("Ctrl+Q");
    expect(displayKeyName("ctrl+C")).toBe("Ctrl+Shift+C");
    expect(displayKeyName("alt+enter")).toBe("Alt+Enter");
    expect(displayKeyName("escape")).toBe("Esc");
    expect(displayKeyName("X")).toBe("X");
  });
});
