// Prompt history for the input: Up at the first line goes back, Down at the last line forward,
// and the text being written is kept as a draft to come back to.

export class InputHistory {
  private readonly entries: string[] = [];
  /** Position while browsing: entries.length means "the draft". */
  private index = 0;
  private draft = "";

  constructor(private readonly limit = 500) {}

  add(text: string): void {
    if (!text.trim()) return;
    if (this.entries[this.entries.length - 1] !== text) this.entries.push(text);
    if (this.entries.length > this.limit) this.entries.shift();
    this.index = this.entries.length;
    this.draft = "";
  }

  get browsing(): boolean {
    return this.index < this.entries.length;
  }

  /** The previous entry, or undefined at the oldest. `current` is saved as the draft when leaving it. */
  previous(current: string): string | undefined {
    if (this.index === 0) return undefined;
    if (this.index === this.entries.length) this.draft = current;
    this.index--;
    return this.entries[this.index];
  }

  /** The next entry, the draft after the newest, or undefined when already at the draft. */
  next(): string | undefined {
    if (this.index >= this.entries.length) return undefined;
    this.index++;
    return this.index === this.entries.length ? this.draft : this.entries[this.index];
  }

  reset(): void {
    this.index = this.entries.length;
    this.draft = "";
  }
}
