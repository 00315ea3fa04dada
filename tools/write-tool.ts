// The `write` tool: creates or replaces a whole file, making parent folders as needed. It never
// leaves a half-written file, and never loses what belongs to the file (links, owner, mode): see
// replace-file.ts.
import { Type, type Static } from "@sinclair/typebox";
import { replaceFile } from "./replace-file.js";
import { displayPath, resolvePath } from "./resolve-path.js";
import type { AgentTool } from "./tool.js";

export const writeToolSchema = Type.Object({
  file_path: Type.String({ description: "Path of the file, absolute or relative to the working directory." }),
  content: Type.String({ description: "The complete new contents of the file." }),
});

export type WriteToolParams = Static<typeof writeToolSchema>;

export interface WriteToolDetails {
  /** Absolute path. */
  path: string;
  /** True when the file did not exist before. */
  isNew: boolean;
  /** Bytes written (UTF-8). */
  size: number;
}

const description = [
  "Create a file or replace its whole contents. Parent folders are created as needed.",
  "The write is atomic (temp file, then rename) so the file is never left half-written; a file with other",
  "hard links or another owner is rewritten in place instead, so links, owner, group and mode are kept.",
  "A symlink is written through to its target. FIFOs, devices, sockets and folders are refused.",
  "To change part of an existing file, prefer edit.",
].join(" ");

export function createWriteTool(cwd: string): AgentTool<typeof writeToolSchema, WriteToolDetails> {
  return {
    name: "write",
    label: "Write File",
    description,
    parameters: writeToolSchema,
    async execute(_toolCallId, params, signal) {
      const absolutePath = resolvePath(cwd, params.file_path);
      const shownPath = displayPath(cwd, absolutePath);
      const bytes = Buffer.from(params.content, "utf8");
      const { created } = await replaceFile(absolutePath, bytes, { signal, shownPath, makeParents: true });
      const size = bytes.length;
      const verb = created ? "Created" : "Overwrote";
      return {
        content: `${verb} ${shownPath} (${size} bytes)`,
        details: { path: absolutePath, isNew: created, size },
        file: { kind: "write", path: absolutePath, created, bytes: size },
      };
    },
  };
}
