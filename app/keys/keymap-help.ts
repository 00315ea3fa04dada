// The bindings in force as help sections (F1): every context, every action that has keys, the keys
// as a person types them.
import type { HelpSection } from "../../panes/overlays/help-overlay.js";
import { ACTIONS, CONTEXT_TITLES, KEY_CONTEXTS } from "./key-actions.js";
import { displayKeyName } from "./key-names.js";
import type { Keymap } from "./keymap.js";

export function keymapHelp(keymap: Keymap): HelpSection[] {
  return KEY_CONTEXTS.map((context) => ({
    title: CONTEXT_TITLES[context],
    rows: Object.entries(ACTIONS[context])
      .map(([action, description]) => ({ keys: keymap.keysFor(context, action).map(displayKeyName).join(" / "), description }))
      .filter((row) => row.keys !== ""),
  })).filter((section) => section.rows.length > 0);
}
