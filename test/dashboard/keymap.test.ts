// Key bindings: the defaults in keymap.json, a person's overrides, and bad files.
import { writeFileSync } from "node:fs";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { ACTIONS, KEY_CONTEXTS } from "../../app/keys/key-actions.js";
import { canonicalKeyName, displayKeyName, key } from "../../app/keys/key-names.js";
import { defaultKeymapPath, loadKeymap, parseKeymap } from "../../app/keys/keymap.js";
import { KeyDispatcher } from "../../app/keys/key-dispatcher.js";
import { DashboardController } from "../../app/dashboard-controller.js";
import { DashboardView } from "../../panes/dashboard-view.js";
import { RenderScheduler } from "../../panes/screen/render-scheduler.js";
import { headlessScreen } from "../helpers/headless-screen.js";
import { tempDir } from "../helpers/temp-dir.js";

function home(files: Record<string, string> = {}): string {
  const dir = tempDir("keys");
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe("keymap", () => {
  test("keymap.json at the repository root binds only known actions, with valid keys, and every action", () => {
    const parsed = parseKeymap(JSON.parse(readFileSync(defaultKeymapPath(), "utf8")), "keymap.json");
    expect(parsed.warnings).toEqual([]);
    for (const context of KEY_CONTEXTS) {
      const bound = parsed.bindings[context] as Record<string, unknown[]> | undefined;
      for (const action of Object.keys(ACTIONS[context])) expect(bound?.[action]?.length, `${context}.${action}`).toBeGreaterThan(0);
    }
  });

  test("every action of every context has a handler in the key dispatcher", () => {
    const screen = headlessScreen(100, 30);
    try {
      const view = new DashboardView(screen.screen, { cwd: "/work", requestFrame: () => undefined, jobScreens: () => undefined });
      const scheduler = new RenderScheduler(screen.screen, { beforeFrame: () => view.relayout() });
      const keymap = loadKeymap({ home: home() });
      const controller = new DashboardController(view, scheduler, keymap, { writeTerminal: () => undefined, env: {}, cwd: "/work" });
      const dispatcher = new KeyDispatcher(controller, () => scheduler.request());
      for (const context of KEY_CONTEXTS) {
        for (const action of Object.keys(ACTIONS[context])) expect(dispatcher.handles(context, action), `${context}.${action}`).toBe(true);
      }
      expect(dispatcher.handles("jobs", "noSuchAction")).toBe(false);
      scheduler.stop();
      controller.detach();
    } finally {
      screen.destroy();
    }
  });

  test("the defaults avoid tmux's and zellij's prefixes, but for Ctrl+G: the editor, as in pi and Claude Code", () => {
    const keymap = loadKeymap({ home: home() });
    const all = KEY_CONTEXTS.flatMap((c) => Object.values(keymap.bindings[c]).flat());
    for (const prefix of ["ctrl+b", "ctrl+a", "ctrl+p"]) expect(all).not.toContain(prefix);
    // Ctrl+G (zellij's prefix) is bound once, on purpose (issue 30); zellij users rebind it in keymap.json.
    const ctrlG = KEY_CONTEXTS.flatMap((c) => Object.entries(keymap.bindings[c]).filter(([, keys]) => (keys as string[]).includes("ctrl+g")).map(([action]) => `${c}.${action}`));
    expect(ctrlG).toEqual(["global.editor"]);
  });

  test("the jobs context has the mprocs-like keys", () => {
    const keymap = loadKeymap({ home: home() });
    expect(keymap.lookup("jobs", key("x"))).toBe("kill");
    expect(keymap.lookup("jobs", key("X"))).toBe("killHard");
    expect(keymap.lookup("jobs", key("r"))).toBe("restart");
    expect(keymap.lookup("jobs", key("s"))).toBe("start");
    expect(keymap.lookup("jobs", key("z"))).toBe("zoom");
    expect(keymap.lookup("jobs", key("a"))).toBe("attach");
    expect(keymap.lookup("jobs", key("n"))).toBe("newJob");
    expect(keymap.lookup("jobs", key("d"))).toBe("remove");
    expect(keymap.lookup("jobs", key("c"))).toBe("copyScreen");
    expect(keymap.lookup("jobs", key("C"))).toBe("copyLog");
    expect(keymap.lookup("jobs", key("pageup"))).toBe("pageUp");
    expect(keymap.lookup("jobs", key("end"))).toBe("bottom");
    // The detach key is one no job needs and no multiplexer takes.
    expect(keymap.keysFor("attached", "detach")).toEqual(["ctrl+]", "f12"]);
  });

  test("a person's file replaces single actions and takes the key from any other action", () => {
    const keymap = loadKeymap({ home: home({ "keymap.json": JSON.stringify({ global: { dismissError: "Ctrl+D", help: ["F2"] } }) }) });
    expect(keymap.lookup("global", key("ctrl+d"))).toBe("dismissError");
    expect(keymap.keysFor("global", "quit")).toEqual([]);
    expect(keymap.lookup("global", key("f2"))).toBe("help");
    expect(keymap.lookup("global", key("f1"))).toBeUndefined();
    expect(keymap.lookup("input", key("enter"))).toBe("submit");
    expect(keymap.warnings).toEqual([]);
  });

  test("the config's keymap path is used", () => {
    const dir = home({ "my-keys.json": JSON.stringify({ chat: { bottom: ["e"] } }) });
    expect(loadKeymap({ home: dir, configured: "my-keys.json" }).lookup("chat", key("e"))).toBe("bottom");
    expect(loadKeymap({ home: dir, configured: "missing.json" }).warnings[0]).toContain("does not exist");
  });

  test("malformed files and entries give warnings and keep the defaults", () => {
    let keymap = loadKeymap({ home: home({ "keymap.json": "{ nope" }) });
    expect(keymap.warnings[0]).toMatch(/is not valid JSON .* using the default keys/);
    expect(keymap.lookup("global", key("ctrl+d"))).toBe("quit");

    keymap = loadKeymap({ home: home({ "keymap.json": JSON.stringify({ nowhere: {}, global: { fly: ["f9"], quit: ["hyper+q"], help: 7 } }) }) });
    expect(keymap.warnings.join("\n")).toContain('unknown context "nowhere"');
    expect(keymap.warnings.join("\n")).toContain('unknown action "global.fly"');
    expect(keymap.warnings.join("\n")).toContain('"hyper+q" is not a key name');
    expect(keymap.warnings.join("\n")).toContain('"global.help" must be a key name or a list');
    expect(keymap.lookup("global", key("ctrl+d"))).toBe("quit");
    expect(keymap.lookup("global", key("f1"))).toBe("help");

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
    expect(displayKeyName(key("ctrl+q"))).toBe("Ctrl+Q");
    expect(displayKeyName(key("ctrl+shift+c"))).toBe("Ctrl+Shift+C");
    expect(displayKeyName(key("alt+enter"))).toBe("Alt+Enter");
    expect(displayKeyName(key("escape"))).toBe("Esc");
    expect(displayKeyName(key("X"))).toBe("X");
  });
});
