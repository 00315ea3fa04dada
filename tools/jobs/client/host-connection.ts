// A client's connection to the job host: the handshake (hello → welcome or mismatch), calls with
// their results (each checked against its method's schema), the live output and the steer/abort
// signals of a running tool call, and what the host sends unasked (job events, screen updates,
// followed log lines). A message that does not match the protocol ends the connection: nothing is
// acted on half understood.
import { connect } from "node:net";
import type { Duplex } from "node:stream";
import { decodeOutputFrame, encodeMessage, LineSplitter, MAX_FRAME_CHARS, outputFrameLength } from "../wire/framing.js";
import { checkMismatch, checkWelcome, PROTOCOL_VERSION, type ClientInfo, type Mismatch, type Welcome } from "../wire/handshake.js";
import { checkHostMessage, resultChecker, type HostMessage, type MethodArgs, type MethodName, type MethodResult } from "../wire/methods.js";
import { pitwallVersion } from "../../pitwall-version.js";
import { yieldCauseOf } from "../../tool.js";
import { errorFromRefusal } from "../wire/refusals.js";
import type { JobEvent } from "../events.js";
import type { ScreenUpdate } from "../terminal/screen-state.js";

/** How long a host that took the connection has to greet (ConnectionOptions.greetingMs shortens it). */
export const HOST_GREETING_MS = 5_000;
/**
 * While a call waits for its answer, the host must be heard at least this often: a host that says
 * nothing for this long (stopped, hung, a socket that only accepts) is given up on, and every call
 * waiting on it fails with HostSilentError. The host answers within milliseconds even under a flood.
 */
export const HOST_SILENCE_MS = 10_000;
/** After this much quiet while a call waits, the host is asked something small, so a long quiet call proves it alive. */
const PROBE_AFTER_MS = 2_000;
/** After an abort, how long the host has to answer the aborted call before it is ended here anyway. */
export const ABORT_ANSWER_MS = 500;

export interface CallOptions {
  onUpdate?: (chunk: string) => void;
  signal?: AbortSignal;
  yieldSignal?: AbortSignal;
}

interface Pending {
  method: MethodName;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  onUpdate: ((chunk: string) => void) | undefined;
  cleanup: () => void;
}

function silenceText(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

export interface ConnectionHandlers {
  event?: (event: JobEvent) => void;
  screen?: (watch: number, update: ScreenUpdate) => void;
  lines?: (watch: number, lines: string[]) => void;
  /**
   * The connection ended: `why` is set when it was not closed on purpose, `broken` when the host
   * sent something this pitwall does not understand.
   */
  closed?: (why: string | undefined, broken: boolean) => void;
}

export type Handshake = { kind: "welcome"; connection: HostConnection } | { kind: "mismatch"; mismatch: Mismatch };

/** The host stopped answering while calls waited on it: they failed, and the connection was let go. */
export class HostSilentError extends Error {}

export interface ConnectionOptions {
  /** HOST_SILENCE_MS unless a test shortens it. */
  silenceMs?: number;
  /** HOST_GREETING_MS unless a test shortens it. */
  greetingMs?: number;
}

/** A host that took the connection but sent no greeting within greetingMs (stopped, or stuck). */
export class NoGreetingError extends Error {
  constructor(readonly greetingMs: number) {
    super(`the job host did not answer within ${silenceText(greetingMs)}`);
  }
}

/** What a command is told of a host that does not greet: what happened, and what to do. */
export class StuckHostError extends Error {
  constructor(pid: number | undefined, greetingMs: number) {
    super(`The job host${pid ? ` (pid ${pid})` : ""} did not answer within ${silenceText(greetingMs)}. \`pitwall jobs\` shows it; \`pitwall jobs stop all\` stops it and its jobs, and the next command starts a new one.`);
  }
}

/** Why the socket could not be reached: no host there (start one) or something else (report it). */
export class NoHostError extends Error {
  constructor(readonly code: string | undefined) {
    super(`no job host answers (${code ?? "unknown"})`);
  }
}

export class HostConnection {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closedOnPurpose = false;
  private ended = false;
  /** Why it ended (undefined: closed on purpose, or still open), and whether the host broke the protocol. */
  endedBecause: { why: string | undefined; broken: boolean } | undefined;
  /** It ended because the host stopped answering. */
  silent = false;
  private handlerSet: ConnectionHandlers | undefined;
  /** What came right after the welcome (a reconnect's replayed output) before anyone listened. */
  private early: HostMessage[] = [];

  get handlers(): ConnectionHandlers {
    return this.handlerSet ?? {};
  }

  /** Who hears what the host sends unasked; what came before they were set is given to them first. */
  set handlers(handlers: ConnectionHandlers) {
    this.handlerSet = handlers;
    for (const message of this.early.splice(0)) this.dispatch(message);
  }
  /** When the host was last heard from (any message). */
  private heardAt = Date.now();
  private livenessTimer: NodeJS.Timeout | undefined;
  private probing = false;
  private readonly silenceMs: number;

  private constructor(
    private readonly socket: Duplex,
    readonly welcome: Welcome,
    options: ConnectionOptions,
  ) {
    this.silenceMs = options.silenceMs ?? HOST_SILENCE_MS;
  }

  /** Connects and greets. Rejects with NoHostError when nothing listens on the socket. */
  static open(socketPath: string, client: ClientInfo, options: ConnectionOptions = {}): Promise<Handshake> {
    const socket = connect(socketPath);
    return HostConnection.greet(socket, "connect", client, options);
  }

  /**
   * Greets a host over a stream that is already open (an ssh link to a remote host's bridge,
   * remote/ssh-link.ts): the hello goes out at once.
   */
  static over(stream: Duplex, client: ClientInfo, options: ConnectionOptions = {}): Promise<Handshake> {
    return HostConnection.greet(stream, undefined, client, options);
  }

  private static greet(socket: Duplex, ready: "connect" | undefined, client: ClientInfo, options: ConnectionOptions): Promise<Handshake> {
    return new Promise((resolve, reject) => {
      socket.setEncoding("utf8");
      let settled = false;
      let connection: HostConnection | undefined;
      const fail = (error: Error): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        socket.destroy();
        reject(error);
      };
      const greetingMs = options.greetingMs ?? HOST_GREETING_MS;
      const timer = setTimeout(() => fail(new NoGreetingError(greetingMs)), greetingMs);
      socket.once("error", (error: NodeJS.ErrnoException) => fail(error.code === "ENOENT" || error.code === "ECONNREFUSED" ? new NoHostError(error.code) : error));
      const hello = (): void => void socket.write(encodeMessage({ type: "hello", protocol: PROTOCOL_VERSION, version: pitwallVersion(), client }));
      if (ready) socket.once(ready, hello);
      else hello();
      socket.once("close", () => fail(new Error("the job host closed the connection before its greeting")));
      const lines = new LineSplitter((line, text) => {
        if (connection) return connection.receive(line, text);
        let message: unknown;
        try {
          message = JSON.parse(line);
        } catch {
          return fail(new Error("the job host answered with something that is not JSON"));
        }
        if (checkMismatch.check(message)) {
          settled = true;
          clearTimeout(timer);
          socket.destroy();
          return resolve({ kind: "mismatch", mismatch: message });
        }
        if (!checkWelcome.check(message)) return fail(new Error(`the job host's greeting is not understood (${checkWelcome.problem(message)})`));
        settled = true;
        clearTimeout(timer);
        socket.removeAllListeners("error");
        connection = new HostConnection(socket, message, options);
        connection.watch();
        // Whoever opened it sets its handlers as soon as the greeting resolves (within microtasks);
        // a user that never does (it only calls) keeps nothing.
        setImmediate(() => {
          if (connection && !connection.handlerSet) connection.handlers = {};
        });
        resolve({ kind: "welcome", connection });
      }, MAX_FRAME_CHARS, outputFrameLength);
      socket.on("data", (chunk: string) => {
        // A host sending a long message (a piece of an image over ssh on a busy machine) is heard
        // while it arrives, not only once its last byte has.
        connection?.heardFrom();
        try {
          lines.push(chunk);
        } catch (error) {
          const what = error instanceof Error ? error.message : String(error);
          if (connection) connection.fail(`sent ${what}`);
          else fail(new Error(`the job host sent ${what}`));
        }
      });
    });
  }

  get open(): boolean {
    return !this.ended;
  }

  /** Calls a method; resolves with its result (checked), rejects with the host's error message. */
  call<M extends MethodName>(method: M, args: MethodArgs<M>, options: CallOptions = {}): Promise<MethodResult<M>> {
    if (this.ended) return Promise.reject(new Error("The job host connection is closed."));
    const id = this.nextId++;
    return new Promise<MethodResult<M>>((resolve, reject) => {
      const frame = encodeMessage({ type: "call", id, method, args });
      // The host would refuse it and end the connection (framing.ts): refused here, the connection stays.
      if (frame.length > MAX_FRAME_CHARS) {
        reject(new Error(`Cannot send ${method} to the job host: the request is ${frame.length} characters, over the ${MAX_FRAME_CHARS} a message may have. Send less at a time.`));
        return;
      }
      const offs: Array<() => void> = [];
      const listen = (signal: AbortSignal | undefined, kind: "abort" | "yield"): void => {
        if (!signal) return;
        const send = (): void => {
          const cause = kind === "yield" ? yieldCauseOf(signal) : undefined;
          if (!this.ended) this.socket.write(encodeMessage({ type: "signal", id, signal: kind, ...(cause ? { cause } : {}) }));
          // Interrupt always wins: a host that does not answer the aborted call soon is not waited for.
          if (kind === "abort") {
            const timer = setTimeout(() => this.giveUp(id, "the job host did not confirm the stop in time (it may still be ending the command)."), ABORT_ANSWER_MS);
            offs.push(() => clearTimeout(timer));
          }
        };
        if (signal.aborted) send();
        else {
          signal.addEventListener("abort", send, { once: true });
          offs.push(() => signal.removeEventListener("abort", send));
        }
      };
      this.pending.set(id, {
        method,
        resolve: resolve as (value: unknown) => void,
        reject,
        onUpdate: options.onUpdate,
        cleanup: () => offs.forEach((off) => off()),
      });
      this.socket.write(frame);
      listen(options.signal, "abort");
      listen(options.yieldSignal, "yield");
      this.watchLiveness();
    });
  }

  /** Ends one waiting call here, whatever the host does later (its answer is then ignored). */
  private giveUp(id: number, why: string): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    pending.cleanup();
    pending.reject(new Error(why));
  }

  /**
   * While calls wait, the host must be heard from: after PROBE_AFTER_MS of quiet it is asked
   * something small (the answer only proves it alive), after the silence limit it is given up on.
   */
  private watchLiveness(): void {
    if (this.livenessTimer || this.ended) return;
    const every = Math.max(20, Math.min(1_000, Math.floor(this.silenceMs / 4)));
    this.livenessTimer = setInterval(() => {
      if (this.pending.size === 0 || this.ended) {
        clearInterval(this.livenessTimer);
        this.livenessTimer = undefined;
        return;
      }
      const quiet = Date.now() - this.heardAt;
      if (quiet >= this.silenceMs) return this.stoppedAnswering();
      if (quiet >= Math.min(PROBE_AFTER_MS, this.silenceMs / 2) && !this.probing) {
        this.probing = true;
        // An id no call uses: its answer only counts as being heard.
        this.socket.write(encodeMessage({ type: "call", id: this.nextId++, method: "status", args: {} }));
      }
    }, every);
    this.livenessTimer.unref();
  }

  /** The host said nothing for the silence limit while calls waited: they fail, and the connection goes. */
  private stoppedAnswering(): void {
    this.silent = true;
    const why = `the job host (pid ${this.welcome.pid}) stopped answering: nothing from it for ${silenceText(this.silenceMs)}`;
    for (const pending of this.pending.values()) {
      pending.cleanup();
      pending.reject(new HostSilentError(`${why.charAt(0).toUpperCase()}${why.slice(1)}. \`pitwall jobs\` shows it; \`pitwall jobs stop all\` stops it and its jobs, and the next command starts a new one.`));
    }
    this.pending.clear();
    this.closed(why);
    this.socket.destroy();
  }

  /** Closes the connection on purpose: the host treats it as this client leaving. */
  close(): void {
    this.closedOnPurpose = true;
    // Closed from now on, not once the socket's close event comes: nothing more is sent on it.
    this.closed(undefined);
    this.socket.end();
    this.socket.destroy();
  }

  private watch(): void {
    this.socket.on("error", () => undefined);
    this.socket.on("close", () => this.closed(this.closedOnPurpose ? undefined : "the job host closed the connection"));
  }

  private fail(why: string): void {
    this.closed(why, true);
    this.socket.destroy();
  }

  private closed(why: string | undefined, broken = false): void {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.livenessTimer);
    this.endedBecause = { why, broken };
    for (const pending of this.pending.values()) {
      pending.cleanup();
      pending.reject(new Error(why ? `The job host went away (${why}).` : "The job host connection was closed."));
    }
    this.pending.clear();
    this.handlers.closed?.(why, broken);
  }

  /** Bytes came from the host: it is alive, whatever it is in the middle of sending. */
  private heardFrom(): void {
    this.heardAt = Date.now();
  }

  /** A line, or an output frame's header line and its text (framing.ts). */
  private receive(line: string, text?: string): void {
    // Heard already: every chunk it came in counted (heardFrom).
    this.probing = false;
    let message: unknown;
    try {
      message = text === undefined ? JSON.parse(line) : decodeOutputFrame(line, text);
    } catch {
      return this.fail(text === undefined ? "sent a line that is not JSON" : "sent an output frame whose header is not JSON");
    }
    if (!checkHostMessage.check(message)) return this.fail(`sent a message this pitwall does not understand (${checkHostMessage.problem(message)})`);
    this.dispatch(message);
  }

  private dispatch(message: HostMessage): void {
    if (!this.handlerSet && (message.type === "event" || message.type === "screen" || message.type === "lines")) {
      this.early.push(message);
      return;
    }
    switch (message.type) {
      case "event":
        this.handlers.event?.(message.event);
        return;
      case "screen":
        this.handlers.screen?.(message.watch, message.update);
        return;
      case "lines":
        this.handlers.lines?.(message.watch, message.lines);
        return;
      case "update":
        this.pending.get(message.id)?.onUpdate?.(message.chunk);
        return;
      case "result":
      case "failure": {
        const pending = this.pending.get(message.id);
        if (!pending) return;
        this.pending.delete(message.id);
        pending.cleanup();
        if (message.type === "failure") return pending.reject(message.refusal ? errorFromRefusal(message.refusal) : new Error(message.message));
        const check = resultChecker(pending.method);
        if (!check.check(message.value)) {
          pending.reject(new Error(`The job host's answer to ${pending.method} is not understood (${check.problem(message.value)}).`));
          return this.fail(`answered ${pending.method} in a way that does not match the protocol`);
        }
        pending.resolve(message.value);
        return;
      }
    }
  }
}
