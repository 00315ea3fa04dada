// Loads the key bindings: the defaults from keymap.json at the repository root, then the person's
// file (~/.pitwall/keymap.json, or the config's `keymap` path), which replaces single actions. A
// file that is missing is fine; one that is malformed gives a warning and the defaults, never a
// crash. A key the person binds is taken away from any other action of the same context.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { actionsOf, isActionOf, KEY_CONTEXTS, type ActionOf, type KeyContext } from "./key-actions.js";
import type { Key } from "./key.js";
import { canonicalKeyName } from "./key-names.js";

/** Per context: action → the keys bound to it, in the file's order. */
export type Bindings = { [C in KeyContext]: Partial<Record<ActionOf<C>, Key[]>> };

export interface Keymap {
  bindings: Bindings;
  /** The action a key runs in a context. */
  lookup<C extends KeyContext>(context: C, key: Key): ActionOf<C> | undefined;
  /** Keys bound to an action, in the file's order. */
  keysFor<C extends KeyContext>(context: C, action: ActionOf<C>): Key[];
  warnings: string[];
  /** Files that were read, defaults first. */
  sources: string[];
}

// The shapes a keymap file's parts must have; the names in them are checked against key-actions.ts.
const OBJECT = Type.Record(Type.String(), Type.Unknown());
const KEY_LIST = Type.Union([Type.String(), Type.Array(Type.String())]);

/** keymap.json at the repository root: from the sources (app/keys/ → ../..) or the compiled files (dist/app/keys/ → ../../..). */
export function defaultKeymapPath(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [resolve(here, "..", "..", "keymap.json"), resolve(here, "..", "..", "..", "keymap.json")];
  return candidates.find((p) => existsSync(p)) ?? candidates[0]!;
}

/** The person's own keymap: the path config.json names (relative to home), else <home>/keymap.json. */
export function personalKeymapPath(home: string, configured?: string): string {
  return configured ? resolve(home, configured) : join(home, "keymap.json");
}

function emptyBindings(): Bindings {
  return Object.fromEntries(KEY_CONTEXTS.map((c) => [c, {}])) as Bindings;
}

/** Checks one file's contents; returns the usable bindings it holds and what was wrong. */
export function parseKeymap(value: unknown, source: string): { bindings: Partial<Bindings>; warnings: string[] } {
  const warnings: string[] = [];
  const bindings: Partial<Bindings> = {};
  if (!Value.Check(OBJECT, value)) {
    return { bindings, warnings: [`${source} must hold a JSON object of contexts (${KEY_CONTEXTS.join(", ")}); it was ignored.`] };
  }
  for (const [context, actions] of Object.entries(value)) {
    if (!(KEY_CONTEXTS as readonly string[]).includes(context)) {
      warnings.push(`${source}: unknown context "${context}" ignored (contexts: ${KEY_CONTEXTS.join(", ")}).`);
      continue;
    }
    if (!Value.Check(OBJECT, actions)) {
      warnings.push(`${source}: "${context}" must be an object of action → keys; ignored.`);
      continue;
    }
    parseContext(context as KeyContext, actions, source, bindings, warnings);
  }
  return { bindings, warnings };
}

function parseContext<C extends KeyContext>(context: C, actions: Record<string, unknown>, source: string, bindings: Partial<Bindings>, warnings: string[]): void {
  const out: Partial<Record<ActionOf<C>, Key[]>> = {};
  for (const [action, keys] of Object.entries(actions)) {
    if (!isActionOf(context, action)) {
      warnings.push(`${source}: unknown action "${context}.${action}" ignored (see F1 for the actions).`);
      continue;
    }
    if (!Value.Check(KEY_LIST, keys)) {
      warnings.push(`${source}: "${context}.${action}" must be a key name or a list of them; ignored.`);
      continue;
    }
    const names: Key[] = [];
    let bad = false;
    for (const k of typeof keys === "string" ? [keys] : keys) {
      const name = canonicalKeyName(k);
      if (name === undefined) {
        warnings.push(`${source}: "${context}.${action}": "${k}" is not a key name (examples: ctrl+x, alt+enter, f2, x); the binding was ignored.`);
        bad = true;
      } else names.push(name);
    }
    if (!bad) out[action] = names;
  }
  (bindings as Record<C, Partial<Record<ActionOf<C>, Key[]>>>)[context] = out;
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

  const personalPath = personalKeymapPath(options.home, options.configured);
  const personal = readJson(personalPath);
  if (personal.warning) warnings.push(personal.warning);
  else if (personal.missing && options.configured) warnings.push(`The keymap named in config.json (${personalPath}) does not exist; using the default keys.`);
  else if (personal.value !== undefined) {
    const parsed = parseKeymap(personal.value, personalPath);
    warnings.push(...parsed.warnings);
    if (parsed.warnings.length === 0 || Object.keys(parsed.bindings).length > 0) sources.push(personalPath);
    for (const ctx of KEY_CONTEXTS) override(bindings, ctx, parsed.bindings[ctx] ?? {});
  }

  const index = new Map<KeyContext, Map<Key, string>>();
  for (const ctx of KEY_CONTEXTS) {
    const map = new Map<Key, string>();
    for (const action of actionsOf(ctx)) for (const k of keysOf(bindings, ctx, action)) if (!map.has(k)) map.set(k, action);
    index.set(ctx, map);
  }
  return {
    bindings,
    lookup: <C extends KeyContext>(context: C, key: Key) => index.get(context)?.get(key) as ActionOf<C> | undefined,
    keysFor: (context, action) => keysOf(bindings, context, action),
    warnings,
    sources,
  };
}

function keysOf<C extends KeyContext>(bindings: Bindings, context: C, action: ActionOf<C>): Key[] {
  return (bindings[context] as Partial<Record<ActionOf<C>, Key[]>>)[action] ?? [];
}

/** The person's keys win: they are taken away from the context's other actions. */
function override<C extends KeyContext>(bindings: Bindings, context: C, theirs: Partial<Record<ActionOf<C>, Key[]>>): void {
  const ours = bindings[context] as Partial<Record<ActionOf<C>, Key[]>>;
  for (const [action, keys] of Object.entries(theirs) as Array<[ActionOf<C>, Key[]]>) {
    for (const other of actionsOf(context)) {
      if (other !== action && ours[other]) ours[other] = ours[other].filter((k) => !keys.includes(k));
    }
    ours[action] = keys;
  }
}
