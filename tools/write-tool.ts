// The `write` tool: creates or replaces a whole file, making parent folders as needed. The write is
// atomic, so an abort or a crash never leaves a half-written file behind.
import { mkdir, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { Type, type Static } from "@sinclair/typebox";
import { throwIfAborted } from "./aborted.js";
import { writeFileAtomic } from "./atomic-write.js";
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
  "The write is atomic (temp file, then rename): the file is never left half-written.",
  "To change part of an existing file, prefer edit.",
].join(" ");

/** Whether a file already exists at `absolutePath`; a folder there is an error worth explaining. */
async function existsAsFile(absolutePath: string, shownPath: string): Promise<boolean> {
  try {
    const info = await stat(absolutePath);
    if (info.isDirectory()) {
      throw new Error(`${shownPath} is a directory; give the path of a file inside it.`);
    }
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

export function createWriteTool(cwd: string): AgentTool<typeof writeToolSchema, WriteToolDetails> {
  return {
    name: "write",
    label: "Write File",
    description,
    parameters: writeToolSchema,
    async execute(_toolCallId, params, signal) {
      const absolutePath = resolvePath(cwd, params.file_path);
      const shownPath = displayPath(cwd, absolutePath);
      const abortMessage = `Writing ${shownPath} was aborted; the file was not changed.`;
      throwIfAborted(signal, abortMessage);
      const isNew = !(await existsAsFile(absolutePath, shownPath));
      await mkdir(dirname(absolutePath), { recursive: true });
      const bytes = Buffer.from(params.content, "utf8");
      await writeFileAtomic(absolutePath, bytes, { signal });
      const size = bytes.length;
      const verb = isNew ? "Created" : "Overwrote";
      return {
        content: `${verb} ${shownPath} (${size} bytes)`,
        details: { path: absolutePath, isNew, size },
        file: { kind: "write", path: absolutePath, created: isNew, bytes: size },
      };
    },
  };
}
