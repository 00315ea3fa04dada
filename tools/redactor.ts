// Replaces secrets (the provider keys) in a stream of text before it reaches disk, as sessions do.
// A key can be cut between two chunks, so the last few characters wait for the next chunk.

export const REDACTED = "[redacted]";

/** Values shorter than this are not treated as secrets: they would redact ordinary text. */
const MIN_SECRET_LENGTH = 8;

export class Redactor {
  private readonly secrets: string[];
  private readonly holdBack: number;
  private carry = "";

  constructor(secrets: readonly string[] = []) {
    this.secrets = [...new Set(secrets.filter((s) => s.length >= MIN_SECRET_LENGTH))];
    this.holdBack = Math.max(0, ...this.secrets.map((s) => s.length - 1));
  }

  /** The part of `chunk` (and what was held back before it) that is safe to write now. */
  push(chunk: string): string {
    if (this.secrets.length === 0) return chunk;
    const text = this.redact(this.carry + chunk);
    const cut = Math.max(0, text.length - this.holdBack);
    this.carry = text.slice(cut);
    return text.slice(0, cut);
  }

  /** What is still held back, redacted. */
  flush(): string {
    const rest = this.redact(this.carry);
    this.carry = "";
    return rest;
  }

  private redact(text: string): string {
    return redactSecrets(text, this.secrets);
  }
}

/** `text` with every occurrence of each secret (of at least 8 characters) replaced by [redacted]. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= MIN_SECRET_LENGTH && out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}
