// The file tools (read, write, edit, ls, find, grep) as a job host runs them for a remote client:
// the very tools a local pitwall runs, made for the host's folder, so every guarantee they keep
// (atomic replace, special files refused, bytes and line endings kept, .gitignore-aware search, byte
// caps, the deadline on a pattern) holds on the remote because it is the same code running there.
// A whole call crosses the link once (one round trip), not one operation at a time. The one thing
// read cannot do there is prepare an image (the image library is not copied to the remote): it sends
// the file's bytes, REMOTE_IMAGE_PIECE_BYTES with its result and the rest by imagePiece, and the
// client prepares them (remote-job-service.ts).
import type { FileHandle } from "node:fs/promises";
import { createEditTool } from "../../edit-tool.js";
import { createFindTool } from "../../find-tool.js";
import { createGrepTool } from "../../grep-tool.js";
import { createLsTool } from "../../ls-tool.js";
import { createReadTool } from "../../read-tool.js";
import type { AgentTool, ToolDefinition } from "../../tool.js";
import { createWriteTool } from "../../write-tool.js";

export const FILE_TOOL_NAMES = ["read", "write", "edit", "ls", "find", "grep"] as const;
export type FileToolName = (typeof FILE_TOOL_NAMES)[number];

export function isFileToolName(name: string): name is FileToolName {
  return (FILE_TOOL_NAMES as readonly string[]).includes(name);
}

/**
 * How much of an image file one message carries: its bytes cross the link base64 (4/3 of this in
 * characters: wire/framing.ts's MAX_FRAME_CHARS counts it), the first piece with the read's result.
 */
export const REMOTE_IMAGE_PIECE_BYTES = 4 * 1024 * 1024;

/**
 * The file tool `name` working in `cwd`, with the client's output cap (grep's). `keepOpen` takes an
 * image file read sends in pieces (host/open-images.ts); without it (the tools' definitions) read
 * prepares images itself.
 */
export function createFileTool(cwd: string, name: FileToolName, maxOutputChars: number, keepOpen?: (file: FileHandle, size: number) => string): AgentTool {
  switch (name) {
    case "read":
      return createReadTool(cwd, keepOpen ? { unpreparedImages: { pieceBytes: REMOTE_IMAGE_PIECE_BYTES, keepOpen } } : {}) as AgentTool;
    case "write":
      return createWriteTool(cwd) as AgentTool;
    case "edit":
      return createEditTool(cwd) as AgentTool;
    case "ls":
      return createLsTool(cwd) as AgentTool;
    case "find":
      return createFindTool(cwd) as AgentTool;
    case "grep":
      return createGrepTool(cwd, { maxOutputChars }) as AgentTool;
  }
}

/** What the model is shown of each file tool (the same as locally; where it runs does not change it). */
export function fileToolDefinitions(maxOutputChars: number): ToolDefinition[] {
  return FILE_TOOL_NAMES.map((name) => {
    const { execute, ...definition } = createFileTool("/", name, maxOutputChars);
    void execute;
    return definition;
  });
}
