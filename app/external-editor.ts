// Ctrl+G: the input's text in the person's own editor ($VISUAL, else $EDITOR, else vi), as pi and
// Claude Code do. The dashboard steps aside as Ctrl+Z does (screen left, terminal modes off, no
// frames drawn, stdin not read) while the editor has the terminal; the file is in pitwall's private
// temp folder, readable only by its owner, and removed afterwards. Saved text comes back into the
// input unsent; an editor that exits non-zero (vim's :cq) leaves the input as it was.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { processTempFolder } from "../tools/process/temp-folder.js";

export type EditorOutcome = { edited: true; text: string } | { edited: false; message: string };

export interface EditorHooks {
  /** Gives the terminal to the editor: the screen left, the modes off, nothing drawn. */
  leave(): void;
  /** Takes it back and draws everything again. */
  enter(): void;
}

/** The editor command to run, as the person set it (it may carry arguments: "code --wait"). */
export function editorCommand(env: NodeJS.ProcessEnv): string {
  return env.VISUAL?.trim() || env.EDITOR?.trim() || "vi";
}

/** Runs the editor on `text` in a file of its own and resolves with what was saved. */
export async function editInEditor(text: string, env: NodeJS.ProcessEnv, hooks: EditorHooks): Promise<EditorOutcome> {
  const editor = editorCommand(env);
  const folder = mkdtempSync(join(processTempFolder(), "edit-"));
  const file = join(folder, "prompt.md");
  try {
    writeFileSync(file, text, { mode: 0o600 });
    hooks.leave();
    let ended: { code: number | null; signal: NodeJS.Signals | null; error?: string };
    try {
      // Through the shell, so an editor given with arguments runs as the person wrote it; the
      // file is an argument of its own, never part of the command's text.
      ended = await new Promise((resolve) => {
        const child = spawn("/bin/sh", ["-c", `${editor} "$1"`, "sh", file], { stdio: "inherit", env });
        child.on("error", (error) => resolve({ code: null, signal: null, error: error.message }));
        child.on("exit", (code, signal) => resolve({ code, signal }));
      });
    } finally {
      hooks.enter();
    }
    if (ended.error) return { edited: false, message: `The editor could not start (${ended.error}); the input is as it was.` };
    if (ended.code !== 0) {
      const how = ended.signal ? `was ended by ${ended.signal}` : ended.code === 127 ? `was not found (exit 127; set $VISUAL or $EDITOR)` : `exited with ${ended.code}`;
      return { edited: false, message: `${editor} ${how}: the input is as it was.` };
    }
    // Editors end the file with a newline the person did not type.
    return { edited: true, text: readFileSync(file, "utf8").replace(/\r?\n$/, "") };
  } catch (error) {
    return { edited: false, message: `The text could not go through the editor (${error instanceof Error ? error.message : String(error)}); the input is as it was.` };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
