// Loads the key bindings: the defaults from keymap.json at the repository root, then the person's
// file (~/.pitwall/keymap.json, or the config's `keymap` path), which replaces single actions. A
// file that is missing is fine; one that is malformed gives a warning and the defaults, never a
// crash. A key the person binds is taken away from any other action of the same context.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ACTIONS, KEY_CONTEXTS, type KeyContext } from "./key-actions.js";
import { canonicalKeyName } from "./key-names.js";

export type Bindings = Record<KeyContext, Record<string, string[]>>;

export interface Keymap {
  bindings: Bindings;
  /** Per context: key name → action. */
  lookup(context: KeyContext, key: string): string | undefined;
  /** Keys bound to an action, in the file's order. */
  keysFor(context: KeyContext, action: string): string[];
  warnings: string[];
  /** Files that were read, defaults first. */
  sources: string[];
}

/** keymap.json at the repository root: from the sources (app/keys/ → ../..) or the compiled files (dist/app/keys/ → ../../..). */
export function defaultKeymapPath(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [resolve(here, "..", "..", "keymap.json"), resolve(here, "..", "..", "..", "keymap.json")];
  return candidates.find((p) => existsSync(p)) ?? candidates[0]!;
}

export function userKeymapPath(home: string, configured?: string): string {
  return configured ? resolve(home, configured) : join(home, "keymap.json");
}

function emptyBindings(): Bindings {
  return Object.fromEntries(KEY_CONTEXTS.map((c) => [c, {}])) as Bindings;
}

/** Checks one file's contents; returns the usable bindings it holds and what was wrong. */
export function parseKeymap(value: unknown, source: string): { bindings: Partial<Bindings>; warnings: string[] } {
  const warnings: string[] = [];
  const bindings: Partial<Bindings> = {};
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { bindings, warnings: [`${source} must hold a JSON object of contexts (${KEY_CONTEXTS.join(", ")}); it was ignored.`] };
  }
  for (const [context, actions] of Object.entries(value as Record<string, unknown>)) {
    if (!(KEY_CONTEXTS as readonly string[]).includes(context)) {
      warnings.push(`${source}: unknown context "${context}" ignored (contexts: ${KEY_CONTEXTS.join(", ")}).`);
      continue;
    }
    const ctx = context as KeyContext;
    if (typeof actions !== "object" || actions === null || Array.isArray(actions)) {
      warnings.push(`${source}: "${context}" must be an object of action → keys; ignored.`);
      continue;
    }
    const out: Record<string, string[]> = {};
    for (const [action, keys] of Object.entries(actions as Record<string, unknown>)) {
      if (!(action in ACTIONS[ctx])) {
        warnings.push(`${source}: unknown action "${context}.${action}" ignored (see F1 for the actions).`);
        continue;
      }
      const list = typeof keys === "string" ? [keys] : keys;
      if (!Array.isArray(list) || list.some((k) => typeof k !== "string")) {
        warnings.push(`${source}: "${context}.${action}" must be a key name or a list of them; ignored.`);
        continue;
      }
      const names: string[] = [];
      let bad = false;
      for (const k of list as string[]) {
        const name = canonicalKeyName(k);
        if (name === undefined) {
          warnings.push(`${source}: "${context}.${action}": "${k}" is not a key name (examples: ctrl+x, alt+enter, f2, x); the binding was ignored.`);
          bad = true;
        } else names.push(name);
      }
      if (!bad) out[action] = names;
    }
    bindings[ctx] = out;
  }
  return { bindings, warnings };
}

function readJson(path: string): { value?: unknown; warning?: string; missing?: boolean } {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" ? { missing: true } : { warning: `${path}: cannot read it (${code ?? String(error)}); using the default keys.` };
  }
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return { warning: `${path} is not valid JSON (${(error as Error).message}); using the default keys.` };
  }
}

export interface LoadKeymapOptions {
  home: string;
  /** The config's `keymap` path (relative to home). */
  configured?: string;
  defaultsPath?: string;
}

export function loadKeymap(options: LoadKeymapOptions): Keymap {
  const warnings: string[] = [];
  const sources: string[] = [];
  const bindings = emptyBindings();
  const defaultsPath = options.defaultsPath ?? defaultKeymapPath();
  const defaults = readJson(defaultsPath);
  if (defaults.value !== undefined) {
    sources.push(defaultsPath);
    const parsed = parseKeymap(defaults.value, defaultsPath);
    warnings.push(...parsed.warnings);
    for (const ctx of KEY_CONTEXTS) Object.assign(bindings[ctx], parsed.bindings[ctx] ?? {});
  } else {
    warnings.push(defaults.warning ?? `The default key bindings (${defaultsPath}) are missing: reinstall pitwall. Only the keys in your own keymap work.`);
  }

  const userPath = userKeymapPath(options.home, options.configured);
  const user = readJson(userPath);
  if (user.warning) warnings.push(user.warning);
  else if (user.missing && options.configured) warnings.push(`The keymap named in config.json (${userPath}) does not exist; using the default keys.`);
  else if (user.value !== undefined) {
    const parsed = parseKeymap(user.value, userPath);
    warnings.push(...parsed.warnings);
    if (parsed.warnings.length === 0 || Object.keys(parsed.bindings).length > 0) sources.push(userPath);
    for (const ctx of KEY_CONTEXTS) {
      for (const [action, keys] of Object.entries(parsed.bindings[ctx] ?? {})) {
        // The person's keys win: take them away from other actions of the context.
        for (const [other, otherKeys] of Object.entries(bindings[ctx])) {
          if (other !== action) bindings[ctx][other] = otherKeys.filter((k) => !keys.includes(k));
        }
        bindings[ctx][action] = keys;
      }
    }
  }

  const index = new Map<KeyContext, Map<string, string>>();
  for (const ctx of KEY_CONTEXTS) {
    const map = new Map<string, string>();
    for (const [action, keys] of Object.entries(bindings[ctx])) for (const k of keys) if (!map.has(k)) map.set(k, action);
    index.set(ctx, map);
  }
  return {
    bindings,
    lookup: (context, key) => index.get(context)?.get(key),
    keysFor: (context, action) => bindings[context][action] ?? [],
    warnings,
    sources,
  };
}
