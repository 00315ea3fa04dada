// The file tools (read, write, edit, ls, find, grep) as a job host runs them for a remote client:
// the very tools a local pitwall runs, made for the host's folder, so every guarantee they keep
// (atomic replace, special files refused, bytes and line endings kept, .gitignore-aware search, byte
// caps, the deadline on a pattern) holds on the remote because it is the same code running there.
// A whole call crosses the link once (one round trip), not one operation at a time. The one thing
// read cannot do there is prepare an image (the image library is not copied to the remote): it sends
// the file's bytes, up to REMOTE_IMAGE_MAX_BYTES, and the client prepares them (remote-job-service.ts).
import { createEditTool } from "../../edit-tool.js";
import { createFindTool } from "../../find-tool.js";
import { createGrepTool } from "../../grep-tool.js";
import { createLsTool } from "../../ls-tool.js";
import { formatBytes, IMAGE_MAX_FILE_BYTES } from "../../images/image-prepare.js";
import { createReadTool } from "../../read-tool.js";
import type { AgentTool, ToolDefinition } from "../../tool.js";
import { createWriteTool } from "../../write-tool.js";

export const FILE_TOOL_NAMES = ["read", "write", "edit", "ls", "find", "grep"] as const;
export type FileToolName = (typeof FILE_TOOL_NAMES)[number];

export function isFileToolName(name: string): name is FileToolName {
  return (FILE_TOOL_NAMES as readonly string[]).includes(name);
}

/**
 * The largest image file a remote's read sends: its bytes cross the link whole, base64, in one
 * message (4/3 of this in characters: wire/framing.ts's MAX_FRAME_CHARS counts it).
 */
export const REMOTE_IMAGE_MAX_BYTES = 4 * 1024 * 1024;

/** Why an image file on the remote is not read: what the model can do instead. */
function remoteImageTooLarge(name: string, bytes: number): string {
  return (
    `${name} is ${formatBytes(bytes)}: an image read on the remote machine crosses the ssh link whole to be scaled on the person's, ` +
    `so it can be at most ${formatBytes(REMOTE_IMAGE_MAX_BYTES)} there (${formatBytes(IMAGE_MAX_FILE_BYTES)} in a local session). ` +
    `Make a smaller copy there first (for example with bash: convert ${name} -resize 50% small.png, where ImageMagick is installed) and read that.`
  );
}

/** The file tool `name` working in `cwd`, with the client's output cap (grep's). */
export function createFileTool(cwd: string, name: FileToolName, maxOutputChars: number): AgentTool {
  switch (name) {
    case "read":
      return createReadTool(cwd, { unpreparedImages: { maxBytes: REMOTE_IMAGE_MAX_BYTES, overMax: remoteImageTooLarge } }) as AgentTool;
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
