// Makes a conversation acceptable to a provider: every tool call gets a result (an interrupted call
// is closed with an error result), results without their call are dropped, and an assistant message
// that ended before saying anything is left out. Providers translate what this returns.
import type { AssistantMessage, Message, ToolResultMessage } from "../messages.js";
import { toolCallsOf } from "../messages.js";

export const INTERRUPTED_RESULT = "No result: the call was interrupted before it finished (aborted, or pitwall stopped).";

export function repairTranscript(messages: Message[]): Message[] {
  const out: Message[] = [];
  let open: { message: AssistantMessage; answered: Set<string>; insertAt: number } | undefined;

  const closeOpen = (): void => {
    if (!open) return;
    const missing: ToolResultMessage[] = toolCallsOf(open.message)
      .filter((call) => !open!.answered.has(call.id))
      .map((call) => ({
        role: "toolResult",
        toolCallId: call.id,
        toolName: call.name,
        content: INTERRUPTED_RESULT,
        isError: true,
        timestamp: open!.message.timestamp,
      }));
    out.splice(open.insertAt, 0, ...missing);
    open = undefined;
  };

  for (const message of messages) {
    if (message.role === "toolResult") {
      if (!open || open.answered.has(message.toolCallId) || !toolCallsOf(open.message).some((c) => c.id === message.toolCallId)) continue;
      open.answered.add(message.toolCallId);
      out.push(message);
      open.insertAt = out.length;
      continue;
    }
    if (message.role === "user") {
      // A user message may follow results (a steer); unanswered calls are closed before it.
      closeOpen();
      out.push(message);
      continue;
    }
    closeOpen();
    if (message.content.length === 0) continue;
    out.push(message);
    if (toolCallsOf(message).length > 0) open = { message, answered: new Set(), insertAt: out.length };
  }
  closeOpen();
  return out;
}

/** Tool call ids as both APIs accept them: letters, digits, `_` and `-`, at most 64 characters. */
export function safeToolCallId(id: string): string {
  const cleaned = id.replace(/[^a-zA-Z0-9_-]/g, "_");
  return cleaned.length > 64 ? cleaned.slice(0, 64) : cleaned || "call";
}
