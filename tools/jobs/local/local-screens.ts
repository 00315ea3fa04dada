// The screens of this process's own jobs: each feed is fed by a ScreenWatch on the job's emulator
// directly (no socket), through the very encoding the job host sends, so a pane paints a local
// job exactly as it paints one of the host's.
import type { JobRegistry } from "../registry/job-registry.js";
import { ScreenFeed, type JobScreen, type JobScreens } from "../terminal/screen-feed.js";
import { ScreenWatches, type ScreenWatch } from "../terminal/screen-watch.js";

export class LocalScreens implements JobScreens {
  private readonly watches: ScreenWatches;

  constructor(private readonly registry: JobRegistry) {
    this.watches = new ScreenWatches(registry);
  }

  open(id: string): JobScreen | undefined {
    const job = this.registry.get(id);
    if (!job) return undefined;
    const opened: { watch?: ScreenWatch } = {};
    const feed = new ScreenFeed(id, job.command, {
      resize: (cols, rows) => this.registry.get(id)?.resize(cols, rows),
      scroll: (request) => opened.watch?.scroll(request),
      release: () => {
        if (opened.watch) this.watches.close(opened.watch);
      },
    });
    opened.watch = this.watches.open(id, (update) => feed.apply(update));
    return feed;
  }

  dispose(): void {
    this.watches.dispose();
  }
}
