// Someone is looking at a job's terminal: after the emulator parsed new output, the rows in view are
// read (screen-encoder.ts) and the ones that differ from what this watcher last got are sent, at
// most one update every SCREEN_UPDATE_MS (a frame). While the job floods (faster than anyone reads,
// see EmulatorFeed.isFlooding) it backs off to one every FLOOD_UPDATE_MS, as tmux backs off a pane
// that floods: each update costs the host an encoding and the dashboard a frame, and both take
// their CPU from the job's own pty. A scroll or a resize is sent at once: a person is waiting for
// it. In the job host the updates cross the socket; in-process they go straight to the pane's feed.
import type { Terminal } from "@xterm/headless";
import { encodeRows, screenMeta } from "./screen-encoder.js";
import type { JobEvent } from "../events.js";
import type { ScreenUpdate, ScrollRequest } from "./screen-state.js";

export const SCREEN_UPDATE_MS = 33;
/** The update interval while the job floods: 10 a second still shows it scrolling. */
export const FLOOD_UPDATE_MS = 100;

/** What a watch needs of a job (tools/jobs/process/job.ts's Job provides it). */
export interface ScreenSource {
  readonly terminal: Terminal;
  /** True once the job's emulator was freed (a restart replaced the job, or it was removed). */
  readonly disposed: boolean;
  /** True while the job prints faster than a person can read (updates back off then). */
  readonly flooding: boolean;
  onTerminalWrite(listener: () => void): () => void;
}

export class ScreenWatch {
  private source: ScreenSource | undefined;
  private unsubscribe: Array<() => void> = [];
  /** Each row as last sent (its JSON), to send only the rows that changed. */
  private sent: string[] = [];
  private sentMeta = "";
  private timer: NodeJS.Timeout | undefined;
  private lastSentAt = -Infinity;
  private closed = false;

  constructor(
    source: ScreenSource,
    /** Returns false when the update could not go out now (a slow client): it is sent again later. */
    private readonly send: (update: ScreenUpdate) => boolean | void,
    private readonly minIntervalMs: number = SCREEN_UPDATE_MS,
  ) {
    this.bind(source);
  }

  /** Watches another job under the same id (a restart): the next update sends every row. */
  bind(source: ScreenSource): void {
    for (const off of this.unsubscribe) off();
    this.source = source;
    this.sent = [];
    this.sentMeta = "";
    const terminal = source.terminal;
    const resized = terminal.onResize(() => this.soon(true));
    const scrolled = terminal.onScroll(() => this.soon(false));
    this.unsubscribe = [source.onTerminalWrite(() => this.soon(false)), () => resized.dispose(), () => scrolled.dispose()];
    this.soon(true);
  }

  /** Moves the view through the scrollback (the emulator's own viewport) and sends it at once. */
  scroll(request: ScrollRequest): void {
    const source = this.source;
    if (!source || source.disposed) return;
    const terminal = source.terminal;
    if ("by" in request) terminal.scrollLines(request.by);
    else if (request.to === "top") terminal.scrollToTop();
    else terminal.scrollToBottom();
    this.soon(true);
  }

  dispose(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const off of this.unsubscribe) off();
    this.unsubscribe = [];
    this.source = undefined;
  }

  private soon(now: boolean): void {
    if (this.closed) return;
    if (this.timer) {
      if (!now) return;
      clearTimeout(this.timer);
    }
    const interval = this.source?.flooding ? Math.max(this.minIntervalMs, FLOOD_UPDATE_MS) : this.minIntervalMs;
    const wait = now ? 0 : Math.max(0, this.lastSentAt + interval - performance.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, wait);
  }

  /** Sends what changed since the last update, if anything did. */
  flush(): void {
    const source = this.source;
    if (this.closed || !source || source.disposed) return;
    const terminal = source.terminal;
    const meta = screenMeta(terminal);
    const rows = encodeRows(terminal, meta.viewportY);
    const changed: ScreenUpdate["changed"] = [];
    const sent = this.sent.length === rows.length ? [...this.sent] : [];
    for (let y = 0; y < rows.length; y++) {
      const json = JSON.stringify(rows[y]);
      if (json === sent[y]) continue;
      sent[y] = json;
      changed.push([y, rows[y]!]);
    }
    const metaKey = JSON.stringify(meta);
    if (changed.length === 0 && metaKey === this.sentMeta) return;
    this.lastSentAt = performance.now();
    if (this.send({ ...meta, changed }) === false) {
      // Not sent: what was last sent stands, and another try follows.
      this.soon(false);
      return;
    }
    this.sent = sent;
    this.sentMeta = metaKey;
  }
}

/** The jobs a watch can find by id: the registry, whose restarts replace a job under the same id. */
export interface WatchedJobs {
  get(id: string): ScreenSource | undefined;
  subscribe(listener: (event: JobEvent) => void): () => void;
}

/**
 * Every watch of one registry's jobs: a job restarted under the same id is watched again at once,
 * so a pane (or a client of the job host) keeps its view across restarts.
 */
export class ScreenWatches {
  private readonly watches = new Map<ScreenWatch, string>();
  private readonly unsubscribe: () => void;

  constructor(private readonly jobs: WatchedJobs) {
    this.unsubscribe = jobs.subscribe((event) => {
      if (event.type !== "job_started") return;
      const source = jobs.get(event.job.id);
      if (!source) return;
      for (const [watch, id] of this.watches) if (id === event.job.id) watch.bind(source);
    });
  }

  /** Starts watching a job; undefined when there is no such job. */
  open(id: string, send: (update: ScreenUpdate) => boolean | void, minIntervalMs?: number): ScreenWatch | undefined {
    const source = this.jobs.get(id);
    if (!source) return undefined;
    const watch = new ScreenWatch(source, send, minIntervalMs);
    this.watches.set(watch, id);
    return watch;
  }

  close(watch: ScreenWatch): void {
    watch.dispose();
    this.watches.delete(watch);
  }

  dispose(): void {
    this.unsubscribe();
    for (const watch of this.watches.keys()) watch.dispose();
    this.watches.clear();
  }
}
