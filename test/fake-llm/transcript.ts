// Flattens a recorded request body (Anthropic Messages, OpenAI Chat Completions or Responses) into plain text,
// one line per part, so a test can ask "did the steer / the tool result reach the next request?"
// with a substring check instead of walking either API's message shapes.

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Text of a content value: a string, or an array of parts (text, thinking, tool use, tool result). */
function contentTexts(content: unknown): string[] {
  if (typeof content === "string") return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap(partTexts);
}

function partTexts(part: unknown): string[] {
  if (typeof part === "string") return [part];
  if (!isRecord(part)) return [];
  switch (part["type"]) {
    case "text":
      return typeof part["text"] === "string" ? [part["text"]] : [];
    case "thinking":
      return typeof part["thinking"] === "string" ? [`(thinking) ${part["thinking"]}`] : [];
    case "tool_use":
      return [`(tool_use ${String(part["name"])}) ${JSON.stringify(part["input"] ?? {})}`];
    case "tool_result":
      return contentTexts(part["content"]).map((text) => `(tool_result) ${text}`);
    case "image":
    case "image_url":
    case "input_image":
      return ["(image)"];
    default:
      return typeof part["text"] === "string" ? [part["text"]] : [];
  }
}

function openaiToolCallTexts(calls: unknown): string[] {
  if (!Array.isArray(calls)) return [];
  return calls.flatMap((call): string[] => {
    if (!isRecord(call) || !isRecord(call["function"])) return [];
    const fn = call["function"];
    return [`(tool_call ${String(fn["name"])}) ${String(fn["arguments"] ?? "")}`];
  });
}

/** One Responses input item: a message, a function call, its output, or a reasoning item. */
function responsesItemTexts(item: Record<string, unknown>): string[] {
  switch (item["type"]) {
    case "function_call":
      return [`assistant: (tool_call ${String(item["name"])}) ${String(item["arguments"] ?? "")}`];
    case "function_call_output":
      return contentTexts(item["output"]).map((text) => `tool: (tool_result) ${text}`);
    case "reasoning": {
      const summary = Array.isArray(item["summary"]) ? item["summary"] : [];
      return summary.flatMap((part) => (isRecord(part) && typeof part["text"] === "string" ? [`assistant: (thinking) ${part["text"]}`] : []));
    }
    default: {
      const role = typeof item["role"] === "string" ? item["role"] : "unknown";
      return contentTexts(item["content"]).map((text) => `${role}: ${text}`);
    }
  }
}

export function transcriptOf(body: unknown): string {
  if (!isRecord(body)) return "";
  const lines: string[] = [];
  // Anthropic keeps the system prompt beside the messages, Responses as instructions; Chat has it as a message.
  for (const text of contentTexts(body["system"])) lines.push(`system: ${text}`);
  if (typeof body["instructions"] === "string") lines.push(`system: ${body["instructions"]}`);
  if (typeof body["input"] === "string") lines.push(`user: ${body["input"]}`);
  if (Array.isArray(body["input"])) for (const item of body["input"]) if (isRecord(item)) lines.push(...responsesItemTexts(item));
  const messages = Array.isArray(body["messages"]) ? body["messages"] : [];
  for (const message of messages) {
    if (!isRecord(message)) continue;
    const role = typeof message["role"] === "string" ? message["role"] : "unknown";
    if (typeof message["reasoning_content"] === "string") {
      lines.push(`${role}: (thinking) ${message["reasoning_content"]}`);
    }
    for (const text of contentTexts(message["content"])) lines.push(`${role}: ${text}`);
    for (const text of openaiToolCallTexts(message["tool_calls"])) lines.push(`${role}: ${text}`);
  }
  return lines.join("\n");
}
