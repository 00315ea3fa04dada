// Where pitwall keeps its files (config, keymap, sessions, job hosts, the code cache). A module of
// its own so that the launcher (cli-launcher.ts) finds it without loading the config's schema.
import { homedir } from "node:os";
import { join } from "node:path";

/** `PITWALL_HOME`, or ~/.pitwall. */
export function pitwallHome(env: NodeJS.ProcessEnv): string {
  return env.PITWALL_HOME || join(homedir(), ".pitwall");
}
