// Several agents in one folder (a dashboard's, a JSON run's): which agent last changed each file,
// and when each agent last saw it (read it, or changed it itself). An agent's write or edit of a
// file another agent changed since it last saw it is refused, the file left as it is, and the agent
// told to read it again: two agents editing one file never overwrite each other's work unseen. The
// edit tool's own check covers the rest (a change on disk during the edit). With one agent nothing
// is refused: what the person or a command changes is the edit's own business, as before.
import { resolvePath } from "../tools/resolve-path.js";
import type { AgentTool } from "../tools/tool.js";

const READING_TOOLS = new Set(["read"]);
const CHANGING_TOOLS = new Set(["write", "edit"]);

export class SharedFiles {
  private clock = 0;
  private readonly changes = new Map<string, { agent: string; at: number }>();
  private readonly seen = new Map<string, Map<string, number>>();

  /** `agent` saw the file as it is now (it read it, or changed it: `changed`). */
  note(agent: string, path: string, changed: boolean): void {
    const at = ++this.clock;
    if (changed) this.changes.set(path, { agent, at });
    let mine = this.seen.get(agent);
    if (!mine) this.seen.set(agent, (mine = new Map()));
    mine.set(path, at);
  }

  /** The other agent that changed the file since `agent` last saw it, if one did. */
  changedByOther(agent: string, path: string): string | undefined {
    const change = this.changes.get(path);
    if (!change || change.agent === agent) return undefined;
    return change.at > (this.seen.get(agent)?.get(path) ?? 0) ? change.agent : undefined;
  }

  /** `tool` as `agent` uses it: reads are noted, a change to a file another agent changed unseen is refused. */
  guard(tool: AgentTool, cwd: string, agent: string): AgentTool {
    if (!READING_TOOLS.has(tool.name) && !CHANGING_TOOLS.has(tool.name)) return tool;
    return {
      ...tool,
      execute: async (toolCallId, params, signal, onUpdate, context) => {
        const filePath = (params as { file_path?: unknown }).file_path;
        if (typeof filePath !== "string") return tool.execute(toolCallId, params, signal, onUpdate, context);
        const path = resolvePath(cwd, filePath);
        const changing = CHANGING_TOOLS.has(tool.name);
        const other = changing ? this.changedByOther(agent, path) : undefined;
        if (other !== undefined) {
          throw new Error(
            `Refused: ${filePath} was changed by agent ${other} after you last read it, so this ${tool.name} could undo or garble its change. ` +
              `Read the file again, then redo the ${tool.name} on what it holds now. The file was not changed.`,
          );
        }
        const result = await tool.execute(toolCallId, params, signal, onUpdate, context);
        if (!result.isError) this.note(agent, path, changing);
        return result;
      },
    };
  }
}
