// What the tools work within, given to them by whoever makes them: app/settings.ts resolves it once
// (flags > environment > config.json > defaults); a library user passes what it wants and gets the
// defaults for the rest. Tools never read process.env for a setting themselves.

export interface ToolSettings {
  /** The environment commands run with (bash calls, jobs); the caller's own when left out. */
  env?: NodeJS.ProcessEnv;
  /** Characters of output one result gives the model (bash, grep, the job tools), head and tail kept. */
  maxOutputChars: number;
}
