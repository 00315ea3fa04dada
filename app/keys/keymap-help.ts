// The bindings in force as help sections (F1): every context, every action that has keys, the keys
// as a person types them.
import { KEY_SEPARATOR, type HelpSection } from "../../panes/overlays/help-overlay.js";
import { actionsOf, CONTEXT_TITLES, describeAction, KEY_CONTEXTS, type KeyContext } from "./key-actions.js";
import { displayKeyName } from "./key-names.js";
import type { Keymap } from "./keymap.js";

export function keymapHelp(keymap: Keymap): HelpSection[] {
  return KEY_CONTEXTS.map((context) => section(keymap, context)).filter((s) => s.rows.length > 0);
}

function section<C extends KeyContext>(keymap: Keymap, context: C): HelpSection {
  return {
    title: CONTEXT_TITLES[context],
    rows: actionsOf(context)
      .map((action) => ({ keys: keymap.keysFor(context, action).map(displayKeyName).join(KEY_SEPARATOR), description: describeAction(context, action) }))
      .filter((row) => row.keys !== ""),
  };
}
