// Writes the session as it happens: each completed message, model change and thinking change is
// appended as one whole line. The file is created with the first message, so a session that never
// said anything leaves nothing behind. Secrets in use (API keys) are replaced before any write.
import { randomUUID } from "node:crypto";
import { appendFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import type { EventBus } from "./event-bus.js";
import type { PitwallEvent } from "./events.js";
import type { Message, ThinkingLevel, ToolResultMessage } from "./messages.js";
import { toolCallsOf } from "./messages.js";
import { INTERRUPTED_RESULT } from "./providers/transcript.js";
import { readSession, sessionFolder, type LoadedSession, type SessionHeader, type SessionLine } from "./session-file.js";

export interface SessionStats {
  path: string;
  id: string;
  messages: number;
  userMessages: number;
  toolCalls: number;
  tokens: number;
  /** Dollars, or null when no message had a known price. */
  cost: number | null;
}

export interface NewSessionOptions {
  root: string;
  cwd: string;
  provider: string;
  model: string;
  thinkingLevel: ThinkingLevel;
  pitwallVersion: string;
  /** Values never written to disk (API keys); replaced by [redacted]. */
  secrets?: string[];
}

export class SessionStore {
  private written: boolean;
  private readonly messages: Message[] = [];

  private constructor(
    readonly path: string,
    private header: SessionHeader,
    private readonly secrets: string[],
    existing: Message[] | undefined,
  ) {
    this.written = existing !== undefined;
    if (existing) this.messages.push(...existing);
  }

  static create(options: NewSessionOptions): SessionStore {
    const now = new Date();
    const id = randomUUID();
    const name = `${now.toISOString().replace(/[:.]/g, "-")}_${id}.jsonl`;
    const header: SessionHeader = {
      type: "session",
      version: 1,
      id,
      timestamp: now.toISOString(),
      cwd: options.cwd,
      provider: options.provider,
      model: options.model,
      thinkingLevel: options.thinkingLevel,
      pitwallVersion: options.pitwallVersion,
    };
    return new SessionStore(join(sessionFolder(options.root, options.cwd), name), header, cleanSecrets(options.secrets), undefined);
  }

  /**
   * Opens an existing session to continue it. Tool calls left without a result (pitwall was killed
   * mid-call) are closed with an error result, appended to the file, so the provider accepts it.
   */
  static open(path: string, secrets?: string[]): { store: SessionStore; session: LoadedSession } {
    const session = readSession(path);
    const store = new SessionStore(path, session.header, cleanSecrets(secrets), session.messages);
    for (const result of unansweredCalls(session.messages)) {
      store.append({ type: "message", message: result });
      store.messages.push(result);
      session.messages.push(result);
    }
    return { store, session };
  }

  get id(): string {
    return this.header.id;
  }

  /** Records what the bus says: completed messages, model and thinking changes. */
  attach(bus: EventBus<PitwallEvent>): () => void {
    return bus.subscribe((event) => {
      if (event.type === "message_end") this.recordMessage(event.message);
      else if (event.type === "model_change") this.append({ type: "model_change", provider: event.provider, model: event.model, timestamp: new Date().toISOString() });
      else if (event.type === "thinking_change") this.append({ type: "thinking_change", level: event.level, timestamp: new Date().toISOString() });
    });
  }

  recordMessage(message: Message): void {
    this.messages.push(message);
    this.append({ type: "message", message });
  }

  stats(): SessionStats {
    let tokens = 0;
    let cost: number | null = null;
    let toolCalls = 0;
    for (const m of this.messages) {
      if (m.role !== "assistant") continue;
      tokens += m.usage.totalTokens;
      toolCalls += toolCallsOf(m).length;
      if (m.usage.cost) cost = (cost ?? 0) + m.usage.cost.total;
    }
    return {
      path: this.path,
      id: this.id,
      messages: this.messages.length,
      userMessages: this.messages.filter((m) => m.role === "user").length,
      toolCalls,
      tokens,
      cost,
    };
  }

  /** True once the file exists on disk. */
  get persisted(): boolean {
    return this.written;
  }

  private append(line: SessionLine): void {
    // Model or thinking changes before the first message only update the header.
    if (!this.written && line.type !== "message") {
      if (line.type === "model_change") this.header = { ...this.header, provider: line.provider, model: line.model };
      if (line.type === "thinking_change") this.header = { ...this.header, thinkingLevel: line.level };
      return;
    }
    let text = "";
    if (!this.written) {
      mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
      text += this.serialise(this.header);
      this.written = true;
    }
    text += this.serialise(line);
    // One append per record: a crash can at worst cut the last line, which loading skips.
    appendFileSync(this.path, text, { mode: 0o600 });
  }

  private serialise(line: SessionLine): string {
    let json = JSON.stringify(line);
    for (const secret of this.secrets) json = json.split(secret).join("[redacted]");
    return `${json}\n`;
  }
}

function cleanSecrets(secrets: string[] | undefined): string[] {
  // Very short values would redact ordinary text; real keys are long.
  return (secrets ?? []).filter((s) => s.length >= 8);
}

/** Calls of the last assistant message that have no result (pitwall stopped while they ran). */
function unansweredCalls(messages: Message[]): ToolResultMessage[] {
  let i = messages.length - 1;
  while (i >= 0 && messages[i]!.role === "toolResult") i--;
  const last = messages[i];
  if (last?.role !== "assistant") return [];
  const answered = new Set(messages.slice(i + 1).map((m) => (m as ToolResultMessage).toolCallId));
  return toolCallsOf(last)
    .filter((call) => !answered.has(call.id))
    .map((call) => ({ role: "toolResult", toolCallId: call.id, toolName: call.name, content: INTERRUPTED_RESULT, isError: true, timestamp: Date.now() }));
}
