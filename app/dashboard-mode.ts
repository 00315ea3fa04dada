// `pitwall` on a terminal: the full-screen dashboard. The first frame is drawn before anything
// heavy loads (provider SDKs, highlighting, the tools and the job emulators come in through a
// dynamic import afterwards), keys typed meanwhile are kept, and however the dashboard ends the
// terminal is given back as it was. Its jobs run in the folder's job host: quitting with "stop"
// (or a signal) ends them; "keep", a closed terminal, a crash or kill -9 leave them for the next
// pitwall here, which attaches to them at start.
import { writeFileSync } from "node:fs";
import { basename } from "node:path";
import { DashboardView } from "../panes/dashboard-view.js";
import { KeyDecoder, type InputEvent } from "./keys/key-decoder.js";
import { sessionHistory } from "./chat-history.js";
import { startIdleWork } from "./idle-warm-up.js";
import { onRenderGenerationChange } from "../panes/markdown/render-generation.js";
import { RenderScheduler } from "../panes/screen/render-scheduler.js";
import { createScreen } from "../panes/screen/screen-factory.js";
import { frameWriter, updateDrawCapabilities } from "../panes/screen/blessed-patches/diff-draw.js";
import { answersTruecolor, truecolorQuery } from "../panes/screen/outer-terminal.js";
import { attr, type StyledLine } from "../panes/text/styled-text.js";
import { screenInternals } from "../panes/screen/blessed-internals.js";
import type { CliOptions } from "./cli-options.js";
import { captureConsole } from "./console-capture.js";
import { DashboardController } from "./dashboard-controller.js";
import { imageFileAt, pastedImageFiles } from "./image-attachments.js";
import { KeyDispatcher } from "./keys/key-dispatcher.js";
import { sessionRow } from "./session-picker.js";
import { enableTerminalModes } from "./terminal-modes.js";
import { initialTheme, TerminalTheme } from "./terminal-theme.js";
import { suspendProcess } from "./suspend.js";
import type { Setup } from "./session-setup.js";
import type { Settings } from "./settings.js";
import { StartupTrace } from "./startup-trace.js";
import type { QuitChoice } from "./quit-flow.js";
import { Notifier } from "./notifications.js";
import { AgentRoster, FIRST_AGENT } from "./agent-roster.js";

const SESSION_IN_USE_CHOICES: StyledLine[] = [
  [{ text: "Continue in a copy (fork); the other pitwall keeps the original", attr: attr() }],
  [{ text: "Start a new session", attr: attr() }],
  [{ text: "Quit", attr: attr() }],
];

/** How often animated things (spinners, running times) are redrawn. */
const FAST_TICK_MS = 100;
/** How long after the first key of a prompt the tools get ready (the job host starts). */
const PREPARE_AFTER_TYPING_MS = 150;
const SLOW_TICK_MS = 1000;

/** The bench's frame times: how many frames so far, and each recent one's time (emptied when `restart`). */
function writeFrameStats(path: string, scheduler: RenderScheduler, restart: boolean): void {
  writeFileSync(path, JSON.stringify({ frames: scheduler.stats.frames, recent: scheduler.stats.recent }));
  if (restart) scheduler.stats.recent.length = 0;
}

export async function runDashboard(options: CliOptions, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const stdin = process.stdin;
  const stdout = process.stdout;

  const screen = createScreen({ output: stdout, env, theme: initialTheme(env) });
  let setup: Setup | undefined;
  // Loaded after the first frame, with the rest of the agent.
  let sessionSetup: typeof import("./session-setup.js") | undefined;
  const view = new DashboardView(screen, {
    cwd: options.cwd,
    // The scheduler is made next; nothing asks for a frame before then.
    requestFrame: () => scheduler.request(),
    jobScreens: () => setup?.coding.jobs,
    images: { at: (path) => imageFileAt(path, options.cwd), pasted: (text) => pastedImageFiles(text, options.cwd) },
  });
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
  // After a resize blessed has cleared its grid: draw at once, inside one synchronized frame.
  screen.on("resize", () => scheduler.frameNow());

  const modes = enableTerminalModes({ input: stdin, output: stdout, mouse: options.mouse });
  // Whether the terminal keeps a job's 24-bit colours, where the environment does not say: the
  // answer comes back as a reply among the keys (below).
  const query = truecolorQuery(env);
  if (query) stdout.write(query);
  const onReply = (text: string): void => {
    if (answersTruecolor(text) && updateDrawCapabilities(screen, { truecolor: true })) {
      screen.realloc();
      scheduler.frameNow();
    }
  };
  const releaseConsole = captureConsole((level, text) => {
    view.chat.notice(level, text);
    scheduler.request();
  });
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

  // Keys typed before the key bindings have loaded wait for them.
  const early: InputEvent[] = [];
  let dispatch: ((event: InputEvent) => void) | undefined;
  const writer = frameWriter(screen);
  const theme = writer ? new TerminalTheme({ writer, write: (data) => stdout.write(data), requestFrame: () => scheduler.request(), env }) : undefined;
  // Notifications need to know whether the person is looking: focus reports, and keys.
  let notifier: Notifier | undefined;
  let focusedAtStart: boolean | undefined;
  const decoder = new KeyDecoder(
    (event) => {
      // The terminal's answers to questions (its colours, its background), not keys.
      if (event.type === "reply") return onReply(event.text);
      if (event.type === "report") return void theme?.report(event);
      notifier?.keyPressed();
      if (dispatch) dispatch(event);
      else early.push(event);
    },
    {
      onFocus: (focused) => {
        if (notifier) notifier.focus(focused);
        else focusedAtStart = focused;
      },
    },
  );
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

  const offGeneration = onRenderGenerationChange(() => scheduler.request());
  let controller: DashboardController | undefined;
  let settings: Settings | undefined;
  const trace = new StartupTrace();
  // Set by the quit: "keep" leaves the jobs running in the job host.
  let quitChoice = "stop" as QuitChoice;
  // The agents `/agent new` added; the first is `setup`.
  let agentRoster: AgentRoster | undefined;
  // Saves the agents for `pitwall -c` (sessions may have changed with /new or a fork).
  let saveRosterNow: (() => void) | undefined;

  try {
    scheduler.frameNow();
    trace.mark("first frame");
    // Asked after the first frame, which never waits for the answer.
    theme?.ask();

    // The settings (config.json checked against its schema) and the key bindings load after the
    // first frame: their validation brings in TypeBox, which the tools need anyway.
    // The agent's modules (SDKs, tools) start loading at the same time; they are awaited further down.
    const setupModule = import("./session-setup.js");
    setupModule.catch(() => undefined);
    const [{ resolveSettings }, { loadKeymap }] = await Promise.all([import("./settings.js"), import("./keys/keymap.js")]);
    settings = resolveSettings(options, env);
    theme?.configure(settings.theme);
    if (settings.readingHoldMs !== undefined) view.toolOutput.holdMs = settings.readingHoldMs;
    trace.writeTo(settings.instrumentation.startupTrace);
    notifier = new Notifier(settings.notify, { write: (bytes) => stdout.write(bytes), env });
    if (focusedAtStart !== undefined) notifier.focus(focusedAtStart);
    const statsFile = settings.instrumentation.frameStats;
    // For the bench's long runs: SIGUSR2 writes the frame times so far and starts a new window.
    if (statsFile) process.on("SIGUSR2", () => writeFrameStats(statsFile, scheduler, true));
    const keymap = loadKeymap({ home: settings.home, configured: settings.keymap });
    const redraw = (): void => {
      screen.realloc();
      scheduler.frameNow();
    };
    controller = new DashboardController(
      view,
      scheduler,
      keymap,
      {
        // The clipboard sequence goes out between frames, never inside one.
        writeTerminal: (data) => stdout.write(data),
        env,
        cwd: options.cwd,
      },
      {
        suspend: () =>
          suspendProcess({
            leave: () => {
              screenInternals(screen).leave();
              modes.suspend();
            },
            enter: () => {
              modes.resume();
              screenInternals(screen).enter();
              redraw();
            },
          }),
        redraw,
        editText: async (text) => {
          const { editInEditor } = await import("./external-editor.js");
          // The editor gets what commands get: the environment without the provider keys.
          const editorEnv = setup?.coding.toolEnv ?? { ...env, ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined };
          return editInEditor(text, editorEnv, {
            leave: () => {
              scheduler.pause();
              screenInternals(screen).leave();
              modes.suspend();
            },
            enter: () => {
              modes.resume();
              screenInternals(screen).enter();
              scheduler.resume();
              redraw();
            },
          });
        },
      },
    );
    const c = controller;
    // A job in front that asked for mouse reports gets them: after each frame the terminal is asked
    // for what the job needs (job-mouse.ts), and back to what --mouse says once it needs nothing.
    scheduler.onFrame(() => modes.setMouse(c.jobControl.mouse.wanted()));
    const keys = new KeyDispatcher(c, () => scheduler.requestForInput());
    const quit = new Promise<QuitChoice>((resolve) => c.onQuit(resolve));
    // Set as soon as the person quits, so a quit from a picker skips loading the agent.
    let quitEarly = false;
    void quit.then((choice) => {
      quitEarly = true;
      quitChoice = choice;
    });
    // A prompt being typed is likely to run bash: the job service gets ready (the job host starts)
    // while the person types, not when the model first calls it. A moment after the first key, so
    // that a prompt sent at once (pasted, or typed before "ready") goes out first.
    let preparedForPrompt = false;
    dispatch = (event) => {
      keys.handle(event);
      if (!preparedForPrompt && setup && view.input.buffer.text.trim() !== "") {
        preparedForPrompt = true;
        const coding = setup.coding;
        setTimeout(() => void coding.prepareTools(), PREPARE_AFTER_TYPING_MS).unref();
      }
    };
    for (const event of early.splice(0)) dispatch(event);
    scheduler.request();

    /** Shows the list picker (its keys are the overlay context's) and resolves with the index picked, or undefined for Esc or quit. */
    const choose = (title: string, rows: StyledLine[], footer: string, intro?: string[]): Promise<number | undefined> =>
      new Promise<number | undefined>((resolve) => {
        view.picker.show(title, rows, footer, { pick: resolve, cancel: () => resolve(undefined) }, intro);
        scheduler.request();
        void quit.then(() => resolve(undefined));
      }).finally(() => {
        view.picker.hide();
        scheduler.request();
      });

    sessionSetup = await setupModule;
    // Sessions bring their schema (TypeBox): loaded with the agent, after the first frame.
    const [{ listSessions }, { describeHolder, sessionLockHolder }] = await Promise.all([import("../agent/sessions/session-list.js"), import("../agent/sessions/session-lock.js")]);
    let sessionPath: string | undefined;
    if (options.resume) {
      // A remote session's are kept under its remote (sessionPlace).
      const place = sessionSetup.sessionPlace(options, settings);
      const sessions = await listSessions(settings.sessionRoot, place);
      if (sessions.length === 0) view.chat.notice("info", `No earlier sessions in ${place}: starting a new one.`);
      else {
        const picked = await choose(`resume a session (${sessions.length})`, sessions.map(sessionRow), "Enter resume · Esc start a new session · Ctrl+D quit");
        sessionPath = picked === undefined ? undefined : sessions[picked]?.path;
      }
    }

    // -c after a dashboard of several agents: the first continues its own session, the rest follow.
    const { rosterFilePath } = await import("./roster-file.js");
    const rosterSessions = await import("./roster-sessions.js");
    const rosterPath = rosterFilePath(settings.home, options.cwd);
    const savedRoster = options.continue && !options.sessionFile && !options.resume ? rosterSessions.rosterToContinue(rosterPath) : undefined;
    sessionPath ??= rosterSessions.firstAgentSession(savedRoster);

    // A session another live pitwall is writing: ask before anything is written to it.
    let fresh = false;
    const wanted = sessionPath ?? (options.resume ? undefined : await sessionSetup.requestedSessionPath(options, settings));
    const holder = wanted === undefined || quitEarly ? undefined : sessionLockHolder(wanted);
    if (wanted !== undefined && holder !== undefined) {
      const answer = await choose("this session is open in another pitwall", SESSION_IN_USE_CHOICES, "Enter choose · Esc start a new session · Ctrl+D quit", [
        `${describeHolder(holder)} is writing this session:`.replace(/^a/, "A"),
        basename(wanted),
        "Writing to it from both would interleave their messages.",
      ]);
      if (answer === 2) c.quit();
      fresh = answer !== 0;
      sessionPath = wanted;
    }

    // A project with skills or prompt templates of its own, and no remembered answer: asked once.
    const { askProjectTrust } = await import("./trust-question.js");
    const trustProject = quitEarly ? undefined : await askProjectTrust(options, settings, choose, (text) => view.chat.notice("warning", text));

    if (!quitEarly) {
      setup = await sessionSetup.createSetup(options, settings, { sessionPath, fresh, jobClient: "dashboard", trustProject, agentName: FIRST_AGENT });
      const { installJobCleanup } = await import("../tools/jobs/index.js");
      // A closed terminal or a crash leaves the jobs running in the job host, for the next pitwall.
      const uninstallCleanup = installJobCleanup(setup.coding.jobs, { guard: setup.guard, keepOn: { signals: ["SIGHUP"], crash: true } });
      jobCleanupInstalled = true;
      quit.then(uninstallCleanup, uninstallCleanup);
      const notify = notifier;
      const firstSetup = setup;
      const settingsNow = settings;
      const setupModuleNow = sessionSetup;
      // Every agent's notifications name it once the dashboard has several.
      const notifyFor = (made: Setup, name: string): void => {
        const stop = made.coding.bus.subscribe((event) => notify.onEvent(event, roster.list().length > 1 ? name : undefined));
        void quit.then(stop);
      };
      const roster: AgentRoster = new AgentRoster(firstSetup, async (spec) => {
        const agentOptions: CliOptions = { ...options, cwd: spec.worktree?.path ?? options.cwd, prompts: [], continue: false, resume: false, sessionFile: undefined };
        const made = await setupModuleNow.createSetup(agentOptions, rosterSessions.settingsForAgent(settingsNow, spec.sandbox), {
          ...(spec.sessionPath ? { sessionPath: spec.sessionPath } : { fresh: true }),
          jobClient: "dashboard",
          agentName: spec.name,
          // Its jobs pane is the first agent's (or, in a worktree, none): job output is not sent to it.
          noJobOutput: true,
          trustProject,
          guard: firstSetup.guard,
          sharedFiles: firstSetup.sharedFiles,
        });
        notifyFor(made, spec.name);
        return made;
      });
      agentRoster = roster;
      c.attach(setup, roster);
      view.chat.readOlderFrom(sessionHistory(setup.coding), () => scheduler.request());
      notifyFor(setup, FIRST_AGENT);
      trace.mark("agent loaded");
      // "ready" once the provider's SDK and the HTTP client are loaded: a prompt typed then goes out
      // at once. The idle work (idle-warm-up.ts: the markdown parser, the job host, warm-ups) starts
      // then, not after the job host's questions below: a person may answer them at leisure.
      const coding = setup.coding;
      void coding.agent.prepareProvider().then(() => {
        c.session.providerReady();
        scheduler.frameNow();
        trace.mark("ready");
        startIdleWork(coding, settingsNow.idleWarmUp);
      });
      const { attachJobHost } = await import("./job-host-attach.js");
      await attachJobHost(setup.coding.jobs, {
        notice: (level, text) => {
          view.chat.notice(level, text);
          scheduler.request();
        },
        choose,
      });
      c.session.earlierJobsEnded(sessionSetup.tellEarlierJobs(setup));
      const notice = (level: "info" | "warning", text: string): void => {
        view.chat.notice(level, text);
        scheduler.request();
      };
      if (savedRoster) await rosterSessions.bringBackAgents(roster, savedRoster, notice);
      saveRosterNow = rosterSessions.keepRosterSaved(roster, rosterPath, (text) => notice("warning", text));
      const [first, ...rest] = options.prompts;
      if (first !== undefined) c.sending.send(first, "enter");
      for (const prompt of rest) c.sending.send(prompt, "followUp");
      scheduler.frameNow();
    }

    await quit;
    const running = (agentRoster?.list().map((agent) => agent.setup) ?? (setup ? [setup] : [])).reduce((n, made) => n + made.coding.jobs.runningCount(), 0);
    view.status.state.transient = running === 0 ? "bye" : quitChoice === "keep" ? "leaving the jobs running…" : "stopping jobs…";
    scheduler.frameNow();
    return 0;
  } finally {
    if (ticker) clearInterval(ticker);
    // For the bench: how long each frame took to produce.
    const frameStats = settings?.instrumentation.frameStats;
    if (frameStats) writeFrameStats(frameStats, scheduler, false);
    offGeneration();
    stdin.off("data", onData);
    decoder.dispose();
    theme?.dispose();
    controller?.detach();
    view.jobTerminal.dispose();
    try {
      // "Keep them running": the job host keeps this dashboard's jobs for the next pitwall here.
      saveRosterNow?.();
      const others = agentRoster?.others().map((agent) => agent.setup) ?? [];
      if (quitChoice === "keep") for (const made of [...(setup ? [setup] : []), ...others]) await made.coding.jobs.detach?.();
      await controller?.jobControl.dispose();
      await Promise.all(others.map((made) => made.dispose()));
      await setup?.dispose();
    } finally {
      // Every agent's session: the first's, then the others'.
      const made = agentRoster?.list().map((agent) => agent.setup) ?? (setup ? [setup] : []);
      const unsaved = made.map((each) => sessionSetup?.closeSession(each)).filter((text): text is string => text !== undefined);
      restoreTerminal();
      process.off("uncaughtException", onCrash);
      // The dashboard is gone: the last thing said on the terminal.
      for (const text of unsaved) process.stderr.write(`pitwall: ${text}\n`);
    }
  }
}
