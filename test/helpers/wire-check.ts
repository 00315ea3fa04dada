// Checks on what reached the fake LLM, in either API's shape: every tool result answers a tool call
// made earlier in the same request (a compaction must never leave a result without its call).
import type { RecordedRequest } from "../fake-llm/index.js";

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** Ids of tool results whose call is not in an earlier assistant message of the request. */
export function orphanToolResults(request: RecordedRequest): string[] {
  const messages = Array.isArray(request.json["messages"]) ? (request.json["messages"] as unknown[]) : [];
  const called = new Set<string>();
  const orphans: string[] = [];
  for (const message of messages.filter(isRecord)) {
    const parts = Array.isArray(message["content"]) ? (message["content"] as unknown[]).filter(isRecord) : [];
    if (message["role"] === "assistant") {
      for (const part of parts) if (part["type"] === "tool_use") called.add(String(part["id"]));
      for (const call of Array.isArray(message["tool_calls"]) ? (message["tool_calls"] as unknown[]).filter(isRecord) : []) called.add(String(call["id"]));
    }
    for (const part of parts) if (part["type"] === "tool_result" && !called.has(String(part["tool_use_id"]))) orphans.push(String(part["tool_use_id"]));
    if (message["role"] === "tool" && !called.has(String(message["tool_call_id"]))) orphans.push(String(message["tool_call_id"]));
  }
  return orphans;
}

/** True for the request an agent sends to have its conversation summarised (no tools, a summary prompt). */
export function isSummaryRequest(request: RecordedRequest): boolean {
  const tools = request.json["tools"];
  return !(Array.isArray(tools) && tools.length > 0) && /^system: .*summar/im.test(request.transcript);
}
