// One client's connection to the job host: reading its frames (framing.ts: lines, capped), parsing
// and checking each message before anything acts on it, dropping a client that does not speak the
// protocol (with a line in the host's log), and what the host keeps per client: who it is (its
// hello), its calls in flight (for steer and abort signals), its screen watches and followed logs,
// its sampled output, its output frames batched while a job floods (frame-batch.ts), and how much is
// still queued for its socket (a slow client gets fewer frames).
import type { Socket } from "node:net";
import type { JobEvent } from "../events.js";
import type { ClientInfo } from "../wire/handshake.js";
import { encodeMessage, encodeOutputFrame, LineSplitter, MAX_FRAME_CHARS } from "../wire/framing.js";
import { argsChecker, checkClientMessage, isMethodName, type HostMessage, type MethodArgs, type MethodName } from "../wire/methods.js";
import { refusalOf } from "../wire/refusals.js";
import type { ScreenWatch } from "../terminal/screen-watch.js";
import { FrameBatch } from "./frame-batch.js";
import { OutputSampler } from "./output-sampling.js";

/** Screen updates wait while this much is still queued for a client's socket (a slow client gets fewer frames). */
const SCREEN_BACKLOG_BYTES = 1024 * 1024;

/** A call in flight: Esc aborts it, a steering message makes a waiting tool return early. */
export interface Call {
  abort: AbortController;
  yield: AbortController;
}

/** What the server does with a client's messages. */
export interface ClientHandlers {
  /** The first message, unchecked: the hello (host-greeting.ts). */
  greet(client: HostClient, message: unknown): void;
  /** A call to a known method, its arguments checked against the method's schema. */
  call<M extends MethodName>(client: HostClient, id: number, method: M, args: MethodArgs<M>): void;
  /** The connection ended, however it ended. */
  closed(client: HostClient): void;
}

export class HostClient {
  /** Who the client is, once its hello was accepted. */
  info: ClientInfo | undefined;
  readonly calls = new Map<number, Call>();
  readonly watches = new Map<number, ScreenWatch>();
  readonly follows = new Map<number, () => void>();
  /** Job output for a sampled client, held between samples. */
  readonly output: OutputSampler;
  /** The client asked for its jobs to be stopped; nothing more to do when it goes. */
  stopped = false;
  /** Job output frames held while a job floods; every other frame sends them first. */
  private readonly frames: FrameBatch;

  constructor(
    readonly id: string,
    readonly socket: Socket,
    private readonly handlers: ClientHandlers,
  ) {
    this.frames = new FrameBatch((text) => {
      if (!socket.destroyed) socket.write(text);
    });
    this.output = new OutputSampler((event) => this.send({ type: "event", event }));
    socket.setEncoding("utf8");
    const lines = new LineSplitter((line) => this.receive(line));
    socket.on("data", (chunk: string) => {
      try {
        lines.push(chunk);
      } catch (error) {
        this.drop(error instanceof Error ? error.message : String(error));
      }
    });
    socket.on("error", () => undefined);
    socket.on("close", () => {
      this.frames.drop();
      handlers.closed(this);
    });
  }

  send(message: HostMessage | Record<string, unknown>): void {
    if (!this.socket.destroyed) this.frames.frame(encodeMessage(message));
  }

  /** A job_output event for a client that takes all output: batched while the job floods (frame-batch.ts). */
  sendOutput(event: Extract<JobEvent, { type: "job_output" }>): void {
    if (!this.socket.destroyed) this.frames.output(encodeOutputFrame(event));
  }

  /** Answers call `id`. An answer too large for one frame would end the connection: a failure says so instead. */
  reply(id: number, value: unknown): void {
    const frame = encodeMessage({ type: "result", id, value: value ?? null });
    if (frame.length > MAX_FRAME_CHARS) {
      return this.send({ type: "failure", id, message: `The job host's answer is ${frame.length} characters, over the ${MAX_FRAME_CHARS} a message may have. Ask for less at a time.` });
    }
    if (!this.socket.destroyed) this.frames.frame(frame);
  }

  /** Answers call `id` with the error it raised (a registry refusal keeps its fields, refusals.ts). */
  replyError(id: number, error: unknown): void {
    const refusal = refusalOf(error);
    this.send({ type: "failure", id, message: error instanceof Error ? error.message : String(error), ...(refusal ? { refusal } : {}) });
  }

  get backlogged(): boolean {
    return this.socket.writableLength + this.frames.pending > SCREEN_BACKLOG_BYTES;
  }

  /** Ends a connection that sent something that is not a message of this protocol. */
  drop(why: string): void {
    process.stderr.write(`job host: ${this.id} sent ${why}; disconnected\n`);
    this.socket.destroy();
  }

  private receive(line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      return this.drop("a line that is not JSON");
    }
    if (!this.info) return this.handlers.greet(this, message);
    if (!checkClientMessage.check(message)) return this.drop(`a malformed message (${checkClientMessage.problem(message)})`);
    if (message.type === "signal") {
      const call = this.calls.get(message.id);
      if (call && message.signal === "abort") call.abort.abort();
      else if (call) call.yield.abort(message.cause);
      return;
    }
    const { id, method, args } = message;
    if (!isMethodName(method)) return this.send({ type: "failure", id, message: `The job host knows no method "${method}".` });
    const check = argsChecker(method);
    if (!check.check(args)) return this.send({ type: "failure", id, message: `Bad arguments for ${method}: ${check.problem(args)}` });
    this.handlers.call(this, id, method, args);
  }
}
