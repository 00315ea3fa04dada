// --resume in the dashboard: the working directory's sessions in a list (when, first prompt,
// messages, cost), newest first. Enter resumes the one selected; Esc starts a new session.
import type { SessionSummary } from "../agent/sessions/session-list.js";
import { formatCost } from "../panes/text/format.js";
import { attr, Color, type StyledLine } from "../panes/text/styled-text.js";
import { sanitizeText } from "../panes/text/terminal-text.js";
import { fitText } from "../panes/text/text-width.js";

const DIM = attr({ fg: Color.grey });

function when(date: Date): string {
  const pad = (n: number): string => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function sessionRow(s: SessionSummary): StyledLine {
  const prompt = sanitizeText(s.firstPrompt).replace(/\s+/g, " ").trim() || "(no prompt)";
  return [
    { text: `${when(s.modified)}  `, attr: DIM },
    { text: `${fitText(`${s.messageCount} msgs`, 9)} `, attr: attr({ fg: Color.cyan }) },
    { text: `${fitText(formatCost(s.cost), 12)} `, attr: DIM },
    { text: prompt, attr: attr() },
  ];
}
