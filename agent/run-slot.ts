// The Agent's one slot: a run, a compaction or a rewind's hold takes it, and nothing else starts
// while it is taken (AgentBusyError). A run lets it go the moment its `agent_end` is emitted, so a
// listener of that event finds the agent idle and may start the next thing; what it starts takes
// the slot at once but begins only once `agent_end` has reached every listener (`afterEnd`), so its
// events come after that one.

/** What holds the slot; released once (later calls do nothing). */
export interface SlotTicket {
  release(): void;
}

export class RunSlot {
  private holder: { ticket: SlotTicket; free: Promise<void> } | undefined;
  /** Set while a run's last event is delivered; resolves once it has been. */
  private delivering: Promise<void> | undefined;

  /** Whether something holds the slot (the agent is busy). */
  get taken(): boolean {
    return this.holder !== undefined;
  }

  /** Whether a run's `agent_end` is being delivered right now. */
  get ending(): boolean {
    return this.delivering !== undefined;
  }

  /** Whether `ticket` is what holds the slot. */
  holds(ticket: SlotTicket | undefined): boolean {
    return ticket !== undefined && this.holder?.ticket === ticket;
  }

  /** Resolves (never rejects) when what holds the slot now lets it go; at once when nothing does. */
  whenFree(): Promise<void> {
    return this.holder?.free ?? Promise.resolve();
  }

  /** Takes the slot; the caller has checked that it was free. */
  take(): SlotTicket {
    let resolve!: () => void;
    const free = new Promise<void>((r) => (resolve = r));
    let released = false;
    const ticket: SlotTicket = {
      release: () => {
        if (released) return;
        released = true;
        if (this.holder?.ticket === ticket) this.holder = undefined;
        resolve();
      },
    };
    this.holder = { ticket, free };
    return ticket;
  }

  /**
   * Waits until a run's `agent_end` being delivered has reached every listener. Ask only while
   * `ending`: otherwise there is nothing to wait for, and what starts should start at once.
   */
  async afterEnd(): Promise<void> {
    if (this.delivering) await this.delivering;
  }

  /** Releases the run's ticket, then delivers its last event (`deliver` emits `agent_end`). */
  endRun(ticket: SlotTicket, deliver: () => void): void {
    ticket.release();
    let delivered!: () => void;
    this.delivering = new Promise<void>((resolve) => (delivered = resolve));
    try {
      deliver();
    } finally {
      this.delivering = undefined;
      delivered();
    }
  }
}
