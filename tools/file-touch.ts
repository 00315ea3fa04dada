// The contract between a tool that reads or changes a file and whatever shows it: the tool's result
// carries a typed `file` (read, write or edit) next to its details. The agent copies it into the
// tool result message and the tool_execution_end event, and the files pane and the tool-output pane
// read it there, without knowing which tool made it or guessing at `details`.

export type FileTouch =
  | {
      kind: "read";
      /** Absolute path. */
      path: string;
    }
  | {
      kind: "write";
      path: string;
      /** The file did not exist before. */
      created: boolean;
      /** Bytes written (UTF-8). */
      bytes: number;
    }
  | {
      kind: "edit";
      path: string;
      /** Unified diff of the change (LF line endings, no BOM). */
      diff: string;
      linesAdded: number;
      linesRemoved: number;
    };
