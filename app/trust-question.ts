// The dashboard's question, asked once per project that has skills or prompt templates of its own
// and no remembered answer: trust it (they load, now and from then on), or not (they stay
// unloaded, and the start says so in one line). Esc answers "not now": nothing is remembered and
// the question comes back next time.
import { unloadedProjectResources } from "../agent/resources/project-resources.js";
import { attr, type StyledLine } from "../panes/text/styled-text.js";
import type { CliOptions } from "./cli-options.js";
import { trustFile } from "./project-trust.js";
import type { Settings } from "./settings.js";

export type Choose = (title: string, rows: StyledLine[], footer: string, intro?: string[]) => Promise<number | undefined>;

const ROWS: StyledLine[] = [
  [{ text: "Trust this project: load its skills and prompt templates (remembered)", attr: attr() }],
  [{ text: "Do not trust it: leave them unloaded (remembered; --trust-project loads them for one run)", attr: attr() }],
];

/** The person's answer for this run, or undefined when there was nothing to ask. */
export async function askProjectTrust(options: CliOptions, settings: Settings, choose: Choose, notice: (text: string) => void): Promise<boolean | undefined> {
  if (options.trustProject) return undefined;
  const unloaded = unloadedProjectResources(options.cwd);
  if (!unloaded) return undefined;
  const file = trustFile(settings.home);
  // A remembered answer holds; a damaged file is reported by the setup and asks nothing.
  if (file.choice(options.cwd) !== "unknown" || file.warning) return undefined;
  const what = [unloaded.skills && `${unloaded.skills} skill${unloaded.skills === 1 ? "" : "s"}`, unloaded.templates && `${unloaded.templates} prompt template${unloaded.templates === 1 ? "" : "s"}`].filter(Boolean).join(" and ");
  const answer = await choose("trust this project?", ROWS, "Enter choose · Esc not now (asked again next time)", [
    `${options.cwd} has ${what} of its own (${unloaded.folders.join(", ")}).`,
    "They are instructions to the model: load them only from a project you trust.",
    "They never change pitwall's settings or its sandbox; AGENTS.md loads either way.",
  ]);
  if (answer === undefined) return false;
  const trusted = answer === 0;
  try {
    file.remember(options.cwd, trusted);
  } catch (error) {
    notice(error instanceof Error ? error.message : String(error));
  }
  return trusted;
}
