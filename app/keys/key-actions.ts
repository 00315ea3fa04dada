// Every action a key can be bound to, per context, with the words F1 shows for it. keymap.json at
// the repository root binds them; this table says what they mean, is what the person's keymap is
// checked against, and is where the action types come from: the key dispatcher's handler table is
// a Record<ActionOf<Context>, Handler>, so an action without a handler does not compile.

export const KEY_CONTEXTS = ["global", "input", "chat", "tool-output", "jobs", "attached", "files", "overlay"] as const;
export type KeyContext = (typeof KEY_CONTEXTS)[number];

export const ACTIONS = {
  global: {
    quit: "Quit; while jobs run it asks once, then stops them",
    clearOrQuit: "Clear the input; twice on an empty input quits",
    abort: "Abort the turn (queued messages come back into the input); when idle, stop your ! command or dismiss the error; twice on an idle, empty input, rewind to before one of your messages",
    help: "Show the key bindings in force",
    focusNext: "Focus the next pane",
    focusPrev: "Focus the previous pane",
    focusChat: "Focus the chat",
    focusToolOutput: "Focus the tool output",
    focusJobs: "Focus the jobs",
    focusFiles: "Focus the files",
    focusInput: "Focus the input",
    zoom: "Maximise the focused pane, or restore the layout",
    toggleThinking: "Show or hide the model's thinking",
    selectPrevTool: "Select the previous tool call (its output shows in the tool-output pane)",
    selectNextTool: "Select the next tool call; past the last, follow the live one again",
    chatPageUp: "Scroll the chat up a page",
    chatPageDown: "Scroll the chat down a page",
    chatFollow: "Follow the end of the chat again",
    dismissError: "Dismiss the error in the status bar",
    redraw: "Redraw the whole screen",
    suspend: "Suspend pitwall (fg in the shell brings it back; jobs keep running)",
    editor: "Edit the input in $VISUAL or $EDITOR (vi if neither); the saved text comes back into the input, unsent",
    agents: "Show every agent (state, last line, cost, context, changed files); steer, follow up or stop one from there",
    nextAgent: "Put the next agent in the chat",
    prevAgent: "Put the previous agent in the chat",
  },
  input: {
    submit: "Send; while the agent works, queue a steering message",
    followUp: "While the agent works, queue a follow-up (delivered when it would stop)",
    newline: "New line",
    complete: "Complete a slash command",
    historyPrev: "Previous line, or at the top: the last queued message (it keeps its kind), then history",
    historyNext: "Next line, or at the bottom: newer history",
    left: "Cursor left",
    right: "Cursor right",
    lineStart: "Start of line",
    lineEnd: "End of line",
    wordLeft: "Word left",
    wordRight: "Word right",
    backspace: "Delete the character before the cursor",
    deleteForward: "Delete the character under the cursor",
    deleteWordBack: "Delete the word before the cursor",
    deleteToLineStart: "Delete to the start of the line",
    deleteToLineEnd: "Delete to the end of the line",
  },
  chat: {
    scrollUp: "Scroll up",
    scrollDown: "Scroll down",
    pageUp: "Page up",
    pageDown: "Page down",
    top: "Go to the start",
    bottom: "Go to the end and follow it (clears the tool selection)",
    selectPrevTool: "Select the previous tool call",
    selectNextTool: "Select the next tool call",
    showTool: "Focus the selected tool call's output",
    toggleThinking: "Show or hide thinking",
    zoom: "Maximise the chat",
  },
  "tool-output": {
    scrollUp: "Scroll up",
    scrollDown: "Scroll down",
    pageUp: "Page up",
    pageDown: "Page down",
    top: "Go to the start",
    bottom: "Go to the end and follow the output; held on an older call, go to the live one",
    zoom: "Maximise the tool output",
  },
  jobs: {
    up: "Select the job above",
    down: "Select the job below",
    newJob: "Start a new job: asks for the command (the agent sees it in list_processes)",
    kill: "Stop the selected job (TERM, then KILL after a grace period)",
    killHard: "Kill the selected job now (KILL)",
    restart: "Restart the selected job (same command, folder and environment; same id)",
    restartProfile: "Restart the selected job under another sandbox profile (workspace, strict or off): asks which",
    start: "Start the selected job again if it has stopped",
    remove: "Remove the selected job from the list once it has finished",
    attach: "Attach: your keys go to the job's terminal until the detach key",
    zoom: "Maximise the jobs pane (its terminal grows with it)",
    scrollUp: "Scroll the job's terminal up a line",
    scrollDown: "Scroll the job's terminal down a line",
    pageUp: "Scroll the job's terminal up a page (pauses following)",
    pageDown: "Scroll the job's terminal down a page",
    top: "Go to the start of the job's scrollback",
    bottom: "Go to the end of the job's output and follow it",
    copyScreen: "Copy the job terminal's visible screen to the clipboard (OSC 52)",
    copyLog: "Copy the job's whole output (plain text) to the clipboard (OSC 52)",
    watch: "Watch the selected job: asks for a pattern (and an action); matching lines reach the agent",
    unwatch: "Remove every watch trigger of the selected job",
  },
  attached: {
    detach: "Detach from the job (this key is never sent to it)",
  },
  files: {
    up: "Select the file above",
    down: "Select the file below",
    open: "Open the whole file (or its last diff) in the tool-output pane",
    toggleDiff: "Preview an edited file's content instead of its last diff, or back",
    pageUp: "Scroll the preview up a page",
    pageDown: "Scroll the preview down a page",
    zoom: "Maximise the files pane",
  },
  overlay: {
    close: "Close; in the session picker, start a new session instead",
    up: "Scroll up / previous item",
    down: "Scroll down / next item",
    pageUp: "Page up",
    pageDown: "Page down",
    top: "Go to the start",
    bottom: "Go to the end",
    pick: "Choose the selected item",
    agentSteer: "In the agents overview: steer the selected agent without switching to it",
    agentFollowUp: "In the agents overview: give the selected agent a follow-up",
    agentStop: "In the agents overview: stop the selected agent's turn",
    agentNew: "In the agents overview: start another agent",
  },
} as const satisfies Record<KeyContext, Record<string, string>>;

/** The actions of one context, e.g. ActionOf<"jobs"> is "up" | "down" | "newJob" | … */
export type ActionOf<C extends KeyContext> = keyof (typeof ACTIONS)[C] & string;

export function isActionOf<C extends KeyContext>(context: C, action: string): action is ActionOf<C> {
  return Object.hasOwn(ACTIONS[context], action);
}

/** The actions of a context in the table's order. */
export function actionsOf<C extends KeyContext>(context: C): Array<ActionOf<C>> {
  return Object.keys(ACTIONS[context]) as Array<ActionOf<C>>;
}

/** What F1 says an action does. */
export function describeAction<C extends KeyContext>(context: C, action: ActionOf<C>): string {
  return (ACTIONS[context] as Record<string, string>)[action]!;
}

export const CONTEXT_TITLES: Record<KeyContext, string> = {
  global: "Everywhere",
  input: "Input",
  chat: "Chat pane",
  "tool-output": "Tool-output pane",
  jobs: "Jobs pane",
  attached: "Attached to a job (every other key goes to the job)",
  files: "Files pane",
  overlay: "Overlays (help, session picker)",
};
