// The conversation pane: the chat log drawn through a scroller that follows the bottom until the
// person scrolls up (End follows again), thinking collapsed or expanded, and a selectable tool-call
// line whose full output the tool-output pane shows.
import type { Widgets } from "blessed";
import type { PitwallEvent } from "../../agent/events.js";
import type { Message } from "../../agent/messages.js";
import { BlockScroller } from "../screen/block-scroller.js";
import type { Canvas } from "../screen/canvas.js";
import { spinnerFrame } from "../text/format.js";
import { ScrollingPane } from "../screen/scrolling-pane.js";
import type { ToolCallStore } from "../tool-output/tool-calls.js";
import { ChatLog, type OlderReader } from "./chat-log.js";
import type { NoticeLevel } from "./chat-entries.js";

/** Scrolling up to within this many entries of the oldest held reads the page before it. */
const NEAR_TOP_BLOCKS = 40;

export class ChatPane extends ScrollingPane {
  readonly log: ChatLog;
  protected readonly scroller: BlockScroller;
  thinkingExpanded = false;
  /** The tool call picked by the person; undefined follows the latest call. */
  selectedToolId: string | undefined;
  private readonly selectionListeners = new Set<(id: string | undefined) => void>();
  private older: { read: OlderReader; loaded: () => void } | undefined;

  constructor(
    screen: Widgets.Screen,
    readonly tools: ToolCallStore,
  ) {
    super(screen, { title: "chat" });
    this.log = new ChatLog(tools);
    this.scroller = new BlockScroller(this.log);
  }

  handle(event: PitwallEvent): boolean {
    const changed = this.log.handle(event);
    // Only while following: a person reading back keeps what they read.
    if (changed && this.scroller.following) this.log.trim();
    return changed;
  }

  /** Where older messages come from once the chat has let go of them (the session file), and who redraws. */
  readOlderFrom(read: OlderReader, loaded: () => void): void {
    this.older = { read, loaded };
  }

  override scrollBy(rows: number): void {
    super.scrollBy(rows);
    if (rows < 0) this.readOlderIfNear(false);
  }

  /** Home: the top of the whole conversation, read back from the session file when it was let go. */
  override toTop(): void {
    super.toTop();
    this.readOlderIfNear(true);
  }

  private readOlderIfNear(all: boolean): void {
    const top = this.scroller.topBlock;
    if (!this.older || !this.log.hasOlder || top === undefined || top - this.log.first() > NEAR_TOP_BLOCKS) return;
    const { read, loaded } = this.older;
    void this.log.loadOlder(read, all).then(
      (added) => {
        if (!added) return;
        if (all) this.scroller.toTop();
        loaded();
      },
      (error: unknown) => {
        this.log.notice("warning", `Older messages could not be read back from the session file (${error instanceof Error ? error.message : String(error)}); the chat shows what it still holds.`);
        loaded();
      },
    );
  }

  loadMessages(messages: readonly Message[]): void {
    this.log.loadMessages(messages);
    if (this.scroller.following) this.log.trim();
  }

  notice(level: NoticeLevel, text: string): void {
    this.log.notice(level, text);
  }

  clear(): void {
    this.log.clear();
    this.select(undefined);
    this.scroller.toBottom();
  }

  get following(): boolean {
    return this.scroller.following;
  }

  /** Whether anything on screen animates (a running tool's spinner). */
  get animated(): boolean {
    return this.tools.latestId !== undefined && this.tools.get(this.tools.latestId)?.status === "running";
  }

  protected override prepareScroll(width: number): void {
    this.prepareContext(width);
  }

  /** Rows the conversation takes at a text width, up to `max` (the layout gives the rest to the tool output). */
  contentRows(width: number, max: number): number {
    this.prepareContext(width);
    return this.scroller.contentRows(width, max);
  }

  toggleThinking(): void {
    this.thinkingExpanded = !this.thinkingExpanded;
  }

  onSelectionChange(listener: (id: string | undefined) => void): () => void {
    this.selectionListeners.add(listener);
    return () => this.selectionListeners.delete(listener);
  }

  select(id: string | undefined): void {
    if (id === this.selectedToolId) return;
    this.selectedToolId = id;
    for (const listener of this.selectionListeners) listener(id);
    if (id !== undefined) {
      const index = this.log.indexOfTool(id);
      if (index !== undefined) {
        const { width, height } = this.inner;
        this.prepareContext(width);
        this.scroller.reveal(index, width, height);
      }
    }
  }

  /** Moves the tool-call selection (-1: the one before, 1: the one after). */
  selectTool(direction: 1 | -1): void {
    const ids = this.log.toolIds();
    if (ids.length === 0) return;
    const current = this.selectedToolId ?? this.tools.latestId;
    const at = current === undefined ? -1 : ids.indexOf(current);
    let next: number;
    // Nothing selected means the latest call is shown: Up goes to the one before it.
    if (this.selectedToolId === undefined) {
      if (direction > 0) return;
      next = at === -1 ? ids.length - 1 : Math.max(0, at - 1);
    } else if (direction > 0 && at === ids.length - 1) {
      // Past the last call: follow the live one again.
      this.select(undefined);
      return;
    } else next = Math.min(ids.length - 1, Math.max(0, at + direction));
    this.select(ids[next]);
  }

  private prepareContext(width: number): void {
    const now = Date.now();
    this.log.context = {
      width,
      thinkingExpanded: this.thinkingExpanded,
      selectedToolId: this.selectedToolId,
      spinner: spinnerFrame(now),
      now,
      tools: this.tools,
    };
  }

  protected paintContent(canvas: Canvas): void {
    this.prepareContext(canvas.width);
    const view = this.scroller.view(canvas.width, canvas.height);
    // While following, a short conversation sits at the top; scrolled views fill the pane.
    canvas.paintRows(view.rows);
    this.titleRight = this.scroller.following ? "" : view.blocksBelow > 0 ? `↓ ${view.blocksBelow} more · End` : "paused · End";
  }
}
