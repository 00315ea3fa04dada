// The provider keys never reach the model: whatever a tool read or printed (a `cat ~/.bashrc`, a
// job's log, a command's output, a trigger's lines, a notice quoting a job's last line) has every
// key in use replaced by [redacted] before it becomes part of the conversation, and so before it
// is sent, shown as the call's result or written to a session. (Commands run without the keys in
// their environment, tool-environment.ts; this covers keys that come from files.)
import { redactSecrets } from "../tools/redactor.js";
import type { AgentTool } from "../tools/tool.js";

export type Redact = (text: string) => string;

/** A function that redacts `secrets`; the identity when there are none. */
export function secretRedaction(secrets: readonly string[]): Redact {
  const keys = secrets.filter((secret) => secret.length > 0);
  return keys.length === 0 ? (text) => text : (text) => redactSecrets(text, keys);
}

/** `tool` with its live output and its result's text redacted. */
export function redactingTool(tool: AgentTool, redact: Redact): AgentTool {
  return {
    ...tool,
    async execute(toolCallId, params, signal, onUpdate, context) {
      const result = await tool.execute(toolCallId, params, signal, (update) => onUpdate({ ...update, chunk: redact(update.chunk) }), context);
      return { ...result, content: redact(result.content) };
    },
  };
}
