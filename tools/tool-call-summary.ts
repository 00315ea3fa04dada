// One short line naming a tool call by its key argument (a path, a command, a job id), shared by
// the dashboard's chat pane and print mode's progress lines.

const KEY_ARGUMENTS = ["file_path", "path", "command", "pattern", "jobId"] as const;

export function keyArgument(args: Record<string, unknown>): string {
  for (const key of KEY_ARGUMENTS) {
    const value = args[key];
    if (typeof value === "string" && value) return value.split("\n")[0]!;
  }
  return "";
}

export function describeToolCall(name: string, args: Record<string, unknown>, maxLength = 120): string {
  const key = keyArgument(args);
  const text = key ? `${name} ${key}` : name;
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}
