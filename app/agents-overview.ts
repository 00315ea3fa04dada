// The overview's rows: one per agent, its name (● for the one in the chat), state with the reason,
// cost, context meter, how many files it changed, and its last line.
import { formatCost } from "../panes/text/format.js";
import { attr, Color, type StyledLine } from "../panes/text/styled-text.js";
import type { AgentState } from "./agent-activity.js";
import type { AgentRoster } from "./agent-roster.js";

const STATE_COLOUR: Record<AgentState, number> = {
  working: Color.yellow,
  waiting: Color.cyan,
  idle: Color.green,
  error: Color.red,
  blocked: Color.magenta,
};
const DIM = attr({ fg: Color.grey });

export function overviewRows(roster: AgentRoster): StyledLine[] {
  const agents = roster.list();
  const nameWidth = Math.max(...agents.map((agent) => agent.name.length));
  return agents.map((agent) => {
    const a = agent.activity;
    const files = a.changedFiles.size;
    const mark = agent === roster.current ? "● " : "  ";
    const where = `${agent.worktree ? ` (worktree ${agent.worktree.branch})` : ""}${agent.sandbox ? ` (sandbox ${agent.sandbox})` : ""}`;
    return [
      { text: `${mark}${agent.name.padEnd(nameWidth)}${where}  `, attr: attr({ bold: agent === roster.current }) },
      { text: a.describe(), attr: attr({ fg: STATE_COLOUR[a.state] }) },
      { text: ` · ${formatCost(a.cost)} · ctx ${Math.round(a.contextPercent)}% · ${files} file${files === 1 ? "" : "s"} changed`, attr: DIM },
      ...(a.lastLine ? [{ text: ` · ${a.lastLine}`, attr: attr() }] : []),
    ];
  });
}
