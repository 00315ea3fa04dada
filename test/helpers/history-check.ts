// Checks an Anthropic Messages request the way the real API does: roles alternate, and every
// tool_use is answered by a tool_result in the very next user message. The fake server accepts
// anything, so tests that resume sessions assert this themselves.

interface Block {
  type: string;
  id?: string;
  tool_use_id?: string;
}
interface Turn {
  role: string;
  content: string | Block[];
}

export function anthropicHistoryProblems(body: Record<string, unknown>): string[] {
  const messages = (body.messages ?? []) as Turn[];
  const problems: string[] = [];
  messages.forEach((turn, i) => {
    if (i > 0 && messages[i - 1]!.role === turn.role) problems.push(`messages ${i - 1} and ${i} are both ${turn.role}`);
    if (turn.role !== "assistant" || typeof turn.content === "string") return;
    const uses = turn.content.filter((b) => b.type === "tool_use").map((b) => b.id);
    if (uses.length === 0) return;
    const next = messages[i + 1];
    const results = next && typeof next.content !== "string" ? next.content.filter((b) => b.type === "tool_result").map((b) => b.tool_use_id) : [];
    for (const id of uses) if (!results.includes(id)) problems.push(`tool_use ${id} in message ${i} has no tool_result in message ${i + 1}`);
  });
  if (messages[0]?.role !== "user") problems.push("the first message is not from the user");
  return problems;
}
