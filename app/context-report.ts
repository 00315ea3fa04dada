// /context as a person reads it: how full the window is, where the window's size came from, when
// compaction starts, and where the tokens go (system prompt, AGENTS.md, skills, tools, summary, messages,
// tool results).
import type { ContextReport } from "../agent/coding-agent.js";
import { formatTokens } from "../panes/text/format.js";

const WINDOW_SOURCE = {
  model: "the model's window",
  setting: "your --context-window / contextWindow",
  default: "the default for a model pitwall does not know; set --context-window",
} as const;

export function contextReportLines(report: ContextReport): string[] {
  const { usage, breakdown } = report;
  const row = (label: string, tokens: number): string => `  ${label.padEnd(18)} ${formatTokens(tokens).padStart(6)}`;
  const lines = [
    `Context: ${Math.round(usage.percent)}% of ${formatTokens(usage.window)} tokens (${WINDOW_SOURCE[usage.windowSource]}); compacts past ${formatTokens(usage.triggerAt)}, keeping about ${formatTokens(usage.keepRecent)} recent tokens word for word.`,
    usage.counted > 0
      ? `Next request: ${formatTokens(usage.tokens)} tokens: ${formatTokens(usage.counted)} counted by the provider for the last request, ${formatTokens(usage.estimated)} estimated since.`
      : `Next request: about ${formatTokens(usage.tokens)} tokens (estimated: no count from the provider yet).`,
    "Where they go (estimated):",
    row("system prompt", breakdown.instructions),
    ...(breakdown.contextFiles.length === 0 ? ["  (no AGENTS.md or CLAUDE.md loaded)"] : breakdown.contextFiles.map((f) => row(f.path, f.tokens))),
    breakdown.skills.count === 0 ? "  (no skills loaded)" : row(`skills (${breakdown.skills.count})`, breakdown.skills.tokens),
    row("tool definitions", breakdown.tools),
    row("summary", breakdown.summary),
    row("messages", breakdown.messages),
    row("tool results", breakdown.toolResults),
  ];
  if (report.olderPending > 0) lines.push(`${report.olderPending} older messages of the resumed session are on disk, to be summarised before the next request.`);
  return lines;
}
