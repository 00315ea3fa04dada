// The contract between a tool that ran a command to its end (bash, a finished job) and whatever
// shows it: the result carries a typed `command` next to its details, copied into the tool result
// message and the tool_execution_end event. The tool-output pane's footer ("exit 1 · killed by
// SIGTERM · full output: …") reads it there, without knowing which tool ran the command.

export interface CommandEnd {
  /** null when a signal ended the command. */
  exitCode: number | null;
  /** The signal that ended it, e.g. "SIGTERM". */
  signal?: string;
  timedOut?: boolean;
  /** Stopped by an abort (Esc) rather than ending on its own. */
  aborted?: boolean;
  /** Where the complete output was saved when the result holds only part of it. */
  fullOutputPath?: string;
}
