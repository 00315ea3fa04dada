// Runs one tool call: finds the tool, validates (and gently coerces) its arguments against the
// TypeBox schema, executes it, and always produces a result. A bad call from the model becomes an
// error result the model can act on, never a crash of the loop. Whatever a tool returns or throws,
// what the model reads is capped in bytes (50 KB, or the person's higher output cap: the caller
// says). That cap is a backstop: a tool that cuts its own output leaves it nothing to cut
// (tools/output-cap.ts, bodyByteCapFor), so no result is cut twice.
import { Value } from "@sinclair/typebox/value";
import { byteCapFor, capBytes } from "../tools/output-cap.js";
import type { AgentTool, ToolCallContext, ToolResult } from "../tools/tool.js";
import type { ToolCall } from "./messages.js";

export interface ToolRun {
  result: ToolResult;
  isError: boolean;
}

export async function runToolCall(
  call: ToolCall,
  tools: readonly AgentTool[],
  signal: AbortSignal,
  onUpdate: (chunk: string) => void,
  context: ToolCallContext,
  maxOutputChars: number,
): Promise<ToolRun> {
  const tool = tools.find((t) => t.name === call.name);
  if (!tool) {
    const names = tools.map((t) => t.name).join(", ") || "none";
    return failure(`Unknown tool '${call.name}'. Available tools: ${names}.`);
  }
  if (call.invalidArguments !== undefined) {
    return failure(`Invalid arguments for ${call.name}: they are not a JSON object (${preview(call.invalidArguments)}). Send the arguments as a JSON object matching the tool's schema.`);
  }
  const args = Value.Default(tool.parameters, Value.Convert(tool.parameters, structuredClone(call.arguments)));
  if (!Value.Check(tool.parameters, args)) {
    const problems = [...Value.Errors(tool.parameters, args)]
      .slice(0, 5)
      .map((e) => `${e.path || "(root)"}: ${e.message}`)
      .join("; ");
    return failure(`Invalid arguments for ${call.name}: ${problems}. Fix the arguments and call ${call.name} again.`);
  }
  if (signal.aborted) return failure("Not run: the turn was aborted.");
  try {
    const result = await tool.execute(call.id, args, signal, (update) => onUpdate(update.chunk), context);
    return { result: withinCap(result, byteCapFor(maxOutputChars)), isError: Boolean(result.isError) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // A thrown message is the tool's result too, and as bounded.
    return failure(withinCap({ content: signal.aborted ? `Aborted: ${message}` : message }, byteCapFor(maxOutputChars)).content);
  }
}

/** The backstop: a result past the cap keeps its head and tail, and says it was cut. */
export function withinCap(result: ToolResult, maxBytes: number): ToolResult {
  const bytes = Buffer.byteLength(result.content);
  if (bytes <= maxBytes) return result;
  const note = `[pitwall cut this result to ${Math.round(maxBytes / 1024)} KB (the tool returned ${formatBytes(bytes)}); the middle is left out: ask for less at a time.]\n`;
  return { ...result, content: note + capBytes(result.content, maxBytes - Buffer.byteLength(note)).text };
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.round(bytes / 1024)} KB`;
}

function failure(content: string): ToolRun {
  return { result: { content, isError: true }, isError: true };
}

function preview(text: string): string {
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}
