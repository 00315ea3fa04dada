// Which shell runs the model's commands: the user's own ($SHELL), else bash, else sh, so commands
// behave as they do in the person's terminal.
import { accessSync, constants } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `$SHELL` when it is an executable absolute path, else `bash` from PATH, else `/bin/sh`. */
export function resolveShell(env: NodeJS.ProcessEnv = process.env): string {
  const userShell = env.SHELL;
  if (userShell && isAbsolute(userShell) && isExecutable(userShell)) return userShell;
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (dir && isExecutable(join(dir, "bash"))) return join(dir, "bash");
  }
  if (isExecutable("/bin/bash")) return "/bin/bash";
  return "/bin/sh";
}
