// When a watch trigger may wake the agent: a `wake` starts a run by itself only while triggers have
// started fewer than MAX_UNATTENDED_WAKES runs since the person's last message, so a job that keeps
// failing cannot keep the agent running, and spending, while nobody watches. Past the cap, wakes wait
// in the queue (the person is told once) until the person sends something. A wake queued while the
// agent works starts a run once it is idle, unless Esc cancelled it. The Agent owns the queue and the
// runs and asks this policy; the count is plain data (`count`, `restore`) that the session keeps
// (every change is reported), so the cap holds across a resume.

/** Runs watch triggers may start one after another without a message from the person in between. */
export const MAX_UNATTENDED_WAKES = 5;

/** What the policy remembers between runs, as plain data. */
export interface WakeCount {
  /** Runs triggers started since the person's last message. */
  unattended: number;
  /** The person was told that wakes now wait (said once until the person sends something). */
  told: boolean;
}

/** `Wake` is whatever stands for one queued wake (the Agent's queued message); compared by identity. */
export class WakePolicy<Wake> {
  /** Wakes queued while the agent worked, each to start a run once it is idle. */
  private readonly waiting = new Set<Wake>();
  private unattended = 0;
  private told = false;

  /**
   * `changed` gets the count after every change (to keep it), and, when the change is that wakes
   * now wait, the sentence to tell the person (a notice, not an error: nothing failed). Contract:
   * must not throw.
   */
  constructor(private readonly changed: (count: WakeCount, tell?: string) => void) {}

  /**
   * Whether a wake may start a run now. False once triggers have started MAX_UNATTENDED_WAKES runs
   * since the person's last message; the first such answer tells the person, later ones do not.
   */
  mayWake(): boolean {
    if (this.unattended < MAX_UNATTENDED_WAKES) return true;
    if (!this.told) {
      this.told = true;
      this.changed(
        this.count,
        `Watch triggers have woken the agent ${MAX_UNATTENDED_WAKES} times since your last message, so their next firings wait in the queue (merged, nothing lost) instead of starting more turns. Send a message to deliver them and let triggers wake the agent again; /unwatch removes a trigger.`,
      );
    }
    return false;
  }

  /** A trigger's wake started a run: it counts toward the cap. */
  woke(): void {
    this.unattended++;
    this.changed(this.count);
  }

  /** The person sent a message (a prompt, a steer, a follow-up): triggers may wake the agent again. */
  personSpoke(): void {
    if (this.unattended === 0 && !this.told) return;
    this.unattended = 0;
    this.told = false;
    this.changed(this.count);
  }

  /** A wake was queued while the agent works: it is to start a run once the agent is idle. */
  deferUntilIdle(wake: Wake): void {
    this.waiting.add(wake);
  }

  /**
   * The agent is idle: true when `wake` was deferred and not cancelled since (whether it may start a
   * run is still mayWake's to say). Forgets it either way.
   */
  takeDeferred(wake: Wake): boolean {
    return this.waiting.delete(wake);
  }

  /** Esc: the deferred wakes no longer start a run by themselves; they wait for the person's next message. */
  cancelDeferred(): void {
    this.waiting.clear();
  }

  /** The count now, to keep (a session file) and give back with `restore`. */
  get count(): WakeCount {
    return { unattended: this.unattended, told: this.told };
  }

  /** Continues from a count read earlier (a resumed session): the cap counts on from there. Not reported: it is already kept. */
  restore(count: WakeCount): void {
    this.unattended = Math.max(0, Math.floor(count.unattended));
    this.told = count.told;
  }
}
