// A provider key passed with --api-key would be readable by every local process in
// /proc/<pid>/cmdline (`ps -eo args`), the model's own commands included, for as long as pitwall
// runs. Node cannot exec() itself with fewer arguments, but setting process.title makes libuv
// overwrite the whole argument area the kernel shows: the launcher does it before anything else, so
// the key is there only for the few milliseconds Node takes to start. process.argv (a copy) keeps
// the flag for the option parser. --api-key-file, or the environment, never shows it at all.

/** Replaces the value of --api-key in what `ps` shows of this process; does nothing without one. */
export function hideKeyArgument(argv: readonly string[]): void {
  const shown: string[] = [];
  let hidden = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      shown.push(...argv.slice(i));
      break;
    }
    if (arg === "--api-key" && i + 1 < argv.length) {
      shown.push(arg, "[hidden]");
      i++;
      hidden = true;
    } else if (arg.startsWith("--api-key=")) {
      shown.push("--api-key=[hidden]");
      hidden = true;
    } else {
      shown.push(arg);
    }
  }
  // The title may hold as many bytes as the arguments did, no more: the shown line is never longer.
  if (hidden) process.title = shown.join(" ");
}
