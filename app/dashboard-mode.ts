// `pitwall` on a terminal: the full-screen dashboard. The first frame is drawn before anything
// heavy loads (provider SDKs, highlighting, the tools and the job emulators come in through a
// dynamic import afterwards), keys typed meanwhile are kept, and however the dashboard ends the
// terminal is given back as it was and every job is ended.
import { writeFileSync } from "node:fs";
import { basename } from "node:path";
import { performance } from "node:perf_hooks";
import { listSessions } from "../agent/sessions/session-list.js";
import { describeHolder, sessionLockHolder } from "../agent/sessions/session-lock.js";
import { DashboardView } from "../panes/dashboard-view.js";
import { KeyDecoder, type InputEvent } from "./keys/key-decoder.js";
import { loadMarkdownParser } from "../panes/markdown/markdown-render.js";
import { onRenderGenerationChange } from "../panes/markdown/render-generation.js";
import { RenderScheduler } from "../panes/screen/render-scheduler.js";
import { attr, type StyledLine } from "../panes/text/styled-text.js";
import { createScreen } from "../panes/screen/screen-factory.js";
import type { CliOptions } from "./cli-options.js";
import { loadConfig, pitwallHome } from "./config.js";
import { captureConsole } from "./console-capture.js";
import { DashboardController } from "./dashboard-controller.js";
import { imageFileAt, pastedImageFiles } from "./image-attachments.js";
import { KeyDispatcher } from "./keys/key-dispatcher.js";
import { JobControl } from "./job-control.js";
import { displayKeyName } from "./keys/key-names.js";
import { loadKeymap } from "./keys/keymap.js";
import { sessionRow } from "./session-picker.js";
import { enableTerminalModes } from "./terminal-modes.js";
import type { Setup } from "./session-setup.js";

const SESSION_IN_USE_CHOICES: StyledLine[] = [
  [{ text: "Continue in a copy (fork); the other pitwall keeps the original", attr: attr() }],
  [{ text: "Start a new session", attr: attr() }],
  [{ text: "Quit", attr: attr() }],
];

/** How often animated things (spinners, running times) are redrawn. */
const FAST_TICK_MS = 100;
const SLOW_TICK_MS = 1000;

export async function runDashboard(options: CliOptions, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const stdin = process.stdin;
  const stdout = process.stdout;
  const home = pitwallHome(env);
  const { config } = loadConfig(home);
  const keymap = loadKeymap({ home, configured: config.keymap });

  const screen = createScreen({ output: stdout, env });
  const view = new DashboardView(screen, options.cwd);
  const scheduler = new RenderScheduler(screen, {
    beforeFrame: () => view.relayout(),
    cursor: () => {
      if (view.prompt.open) return view.prompt.cursorPlacement();
      if (view.overlayOpen) return null;
      // Attached: the cursor is the job's.
      if (view.jobTerminal.attached) return view.jobTerminal.cursorPlacement();
      return view.input.cursorPlacement();
    },
  });
  view.requestFrame = () => scheduler.request();
  const controller = new DashboardController(view, scheduler, keymap);
  const jobControl = new JobControl(controller, () => scheduler.request(), {
    // The clipboard sequence goes out between frames, never inside one.
    writeTerminal: (data) => stdout.write(data),
    env,
    cwd: options.cwd,
  });
  controller.jobCommands = jobControl;
  const keys = new KeyDispatcher(controller, jobControl, () => scheduler.request());
  const newJobKey = keymap.keysFor("jobs", "newJob")[0];
  view.jobs.emptyHint = `No jobs yet: the agent's (bash_stream) and yours (${newJobKey ? `${displayKeyName(newJobKey)} here, ` : ""}/run) show here.`;
  const helpKey = keymap.keysFor("global", "help")[0];
  view.input.findImage = (path) => imageFileAt(path, options.cwd);
  view.input.findPastedImages = (text) => pastedImageFiles(text, options.cwd);
  view.input.placeholder = `Ask pitwall to do something · / for commands${helpKey ? ` · ${displayKeyName(helpKey)} for keys` : ""}`;
  // After a resize blessed has cleared its grid: draw at once, inside one synchronized frame.
  screen.on("resize", () => scheduler.frameNow());

  const modes = enableTerminalModes({ input: stdin, output: stdout, mouse: options.mouse });
  const releaseConsole = captureConsole((level, text) => {
    view.chat.notice(level, text);
    scheduler.request();
  });
  let setup: Setup | undefined;
  // Loaded after the first frame, with the rest of the agent.
  let sessionSetup: typeof import("./session-setup.js") | undefined;
  let restored = false;
  const restoreTerminal = (): void => {
    if (restored) return;
    restored = true;
    releaseConsole();
    scheduler.stop();
    modes.restore();
    screen.destroy();
  };
  // Registered before the job cleanup's handler, so the terminal is back when that one prints the
  // error and ends the jobs; before the agent has loaded there are no jobs, and this one exits.
  let jobCleanupInstalled = false;
  const onCrash = (error: unknown): void => {
    restoreTerminal();
    if (!jobCleanupInstalled) {
      process.stderr.write(`pitwall: unexpected error:\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    }
  };
  process.on("uncaughtException", onCrash);

  const decoder = new KeyDecoder((event) => {
    if (pickerChoice && view.picker.open) return pickerChoice(event);
    keys.handle(event);
  });
  const onData = (data: string): void => decoder.feed(data);
  stdin.on("data", onData);

  // The animation ticker runs only while something on screen moves.
  let ticker: NodeJS.Timeout | undefined;
  let tickEvery = 0;
  scheduler.onFrame(() => {
    const want = view.status.animated || view.chat.animated || view.toolOutput.animated ? FAST_TICK_MS : view.jobs.runningCount > 0 ? SLOW_TICK_MS : 0;
    if (want === tickEvery) return;
    if (ticker) clearInterval(ticker);
    ticker = want ? setInterval(() => scheduler.request(), want) : undefined;
    tickEvery = want;
  });

  const quit = new Promise<void>((resolve) => controller.onQuit(resolve));
  // Set as soon as the person quits, so a quit from a picker skips loading the agent.
  let quitEarly = false;
  void quit.then(() => (quitEarly = true));
  let pickerChoice: ((event: InputEvent) => void) | undefined;
  const offGeneration = onRenderGenerationChange(() => scheduler.request());

  try {
    scheduler.frameNow();
    if (env.PITWALL_STARTUP_TRACE) process.stderr.write(`first frame ${performance.now().toFixed(0)} ms\n`);
    // The markdown parser loads while the person reads the first frame.
    void loadMarkdownParser();

    /** Shows the list picker and resolves with the index picked, or undefined for Esc or quit. */
    const choose = (title: string, rows: StyledLine[], footer: string, intro?: string[]): Promise<number | undefined> =>
      new Promise<number | undefined>((resolve) => {
        view.picker.show(title, rows, footer, intro);
        scheduler.request();
        pickerChoice = (event) => {
          if (event.type !== "key") return;
          const action = keymap.lookup("overlay", event.name);
          if (action === "pick") resolve(view.picker.selected);
          else if (event.name === "escape") resolve(undefined);
          else if (keymap.lookup("global", event.name) === "quit") controller.quit();
          else keys.handle(event);
          scheduler.request();
        };
        void quit.then(() => resolve(undefined));
      }).finally(() => {
        view.picker.hide();
        pickerChoice = undefined;
        scheduler.request();
      });

    sessionSetup = await import("./session-setup.js");
    let sessionPath: string | undefined;
    if (options.resume) {
      const sessions = await listSessions(sessionSetup.sessionRootOf(options, env), options.cwd);
      if (sessions.length === 0) view.chat.notice("info", `No earlier sessions in ${options.cwd}: starting a new one.`);
      else {
        const picked = await choose(`resume a session (${sessions.length})`, sessions.map(sessionRow), "Enter resume · Esc start a new session · Ctrl+D quit");
        sessionPath = picked === undefined ? undefined : sessions[picked]?.path;
      }
    }

    // A session another live pitwall is writing: ask before anything is written to it.
    let fresh = false;
    const wanted = sessionPath ?? (options.resume ? undefined : await sessionSetup.requestedSessionPath(options, env));
    const holder = wanted === undefined ? undefined : sessionLockHolder(wanted);
    if (wanted !== undefined && holder !== undefined) {
      const answer = await choose("this session is open in another pitwall", SESSION_IN_USE_CHOICES, "Enter choose · Esc start a new session · Ctrl+D quit", [
        `${describeHolder(holder)} is writing this session:`.replace(/^a/, "A"),
        basename(wanted),
        "Writing to it from both would interleave their messages.",
      ]);
      if (answer === 2) controller.quit();
      fresh = answer !== 0;
      sessionPath = wanted;
    }

    if (!quitEarly) {
      setup = await sessionSetup.createSetup(options, env, { sessionPath, fresh });
      const { installJobCleanup } = await import("../tools/jobs/job-registry.js");
      const uninstallCleanup = installJobCleanup(setup.coding.jobs, { guard: setup.guard });
      jobCleanupInstalled = true;
      quit.then(uninstallCleanup, uninstallCleanup);
      const registry = setup.coding.jobs;
      view.jobTerminal.lookup = (id) => registry.get(id);
      controller.attach(setup);
      const [first, ...rest] = options.prompts;
      if (first !== undefined) controller.send(first, "enter");
      for (const prompt of rest) controller.send(prompt, "followUp");
      scheduler.request();
    }

    await quit;
    view.status.state.transient = setup && setup.coding.jobs.runningCount() > 0 ? "stopping jobs…" : "bye";
    scheduler.frameNow();
    return 0;
  } finally {
    if (ticker) clearInterval(ticker);
    // For the bench: how long each frame took to produce.
    if (env.PITWALL_FRAME_STATS) writeFileSync(env.PITWALL_FRAME_STATS, JSON.stringify({ frames: scheduler.stats.frames, recent: scheduler.stats.recent }));
    offGeneration();
    stdin.off("data", onData);
    decoder.dispose();
    controller.detach();
    view.jobTerminal.dispose();
    try {
      await jobControl.dispose();
      await setup?.dispose();
    } finally {
      const unsaved = setup ? sessionSetup?.closeSession(setup) : undefined;
      restoreTerminal();
      process.off("uncaughtException", onCrash);
      // The dashboard is gone: the last thing said on the terminal.
      if (unsaved) process.stderr.write(`pitwall: ${unsaved}\n`);
    }
  }
}
