// The jobs of a session whose code lives on another machine: a HostJobService whose connection is an
// ssh link to the remote's job host (remote-host.ts) instead of a local socket. What differs:
// - the host is told the client is remote, so a dropped link yields its calls (bash goes on as a
//   job) and keeps its jobs for it; the client reconnects with backoff ("reconnecting…"), resumes its
//   old identity, and asks for the job output it missed (output-replay.ts);
// - no keys cross the link: the results are redacted here, where they are read
//   (agent/secret-redaction.ts), and bash's full-output files stay on the remote, where read finds them;
// - the file tools run there too (service.ts's serviceTools, run-tool.ts on the host); a read of an
//   image sends the file's bytes, which are prepared here, where the image library is (finishImageRead);
// - the sandbox policy crosses home-relative (`~/.ssh`), and the remote's host makes it its own
//   (its home, its ~/.pitwall, its bwrap: tools/sandbox/profiles.ts), so the same rules fence
//   commands and file tools there; whether the remote can fence is asked there (sandboxAvailability).
import type { JobServiceInputs, ServiceToolCall } from "../service.js";
import type { ToolResult } from "../../tool.js";
import { finishImageRead } from "../../read-tool.js";
import { REMOTE_IMAGE_PIECE_BYTES } from "../model-tools/file-tools.js";
import type { HostConnection } from "../client/host-connection.js";
import type { OpenedHost } from "../client/host-launcher.js";
import { HostJobService, type HostJobServiceOptions } from "../client/host-job-service.js";
import type { ClientInfo, Mismatch } from "../wire/handshake.js";
import { openRemoteHost } from "./remote-host.js";
import type { RemoteTarget } from "./remote-target.js";
import { RemoteError } from "./ssh-link.js";
import { homeRelativePolicy, type Availability, type SandboxPolicy } from "../../sandbox/index.js";

export interface RemoteJobServiceOptions extends HostJobServiceOptions {
  /** The person's ssh command (`ssh` by default; settings.ts reads sshCommand and PITWALL_SSH_COMMAND). */
  sshCommand: string;
  target: RemoteTarget;
  /** Told what pitwall does on the remote that the person should know (installing itself, reconnecting). */
  onStatus?: (text: string) => void;
  /** The first wait between reconnection attempts; it doubles up to RECONNECT_MAX_MS. */
  reconnectMs?: number;
  /** The sandbox's paths as the person wrote them (config's sandboxWritable, sandboxHidden): the remote expands `~` against its own home. */
  sandboxPaths?: { writable?: readonly string[]; hidden?: readonly string[] };
}

const RECONNECT_FIRST_MS = 250;
const RECONNECT_MAX_MS = 10_000;

export class RemoteJobService extends HostJobService {
  /** This client's id on its last connection: a reconnect takes back what it owned. */
  private lastClientId: string | undefined;
  private reconnecting: Promise<void> | undefined;
  /** Per job, the offset just past the last output seen: a reconnect resumes from there. */
  private readonly seen = new Map<string, number>();

  constructor(
    inputs: JobServiceInputs,
    private readonly remote: RemoteJobServiceOptions,
  ) {
    // This machine's environment stays here: commands there run with the remote's own (run-tool.ts).
    super({ ...inputs, env: {} }, remote);
    this.subscribe((event) => {
      if (event.type === "job_output" && event.offset !== undefined) this.seen.set(event.jobId, Math.max(this.seen.get(event.jobId) ?? 0, event.offset + event.chunk.length));
      else if (event.type === "job_removed") this.seen.delete(event.jobId);
    });
  }

  override get where(): "remote" {
    return "remote";
  }

  /** `dev@box:~/app`: where the jobs and the file tools run. */
  get label(): string {
    return this.remote.target.label;
  }

  /** `dev@box`: the machine (what a fix is made on). */
  get destination(): string {
    return this.remote.target.destination;
  }

  override get logPath(): string {
    return `host.log in ~/.pitwall/hosts/ on ${this.remote.target.destination}`;
  }

  override stopOtherHost(mismatch: Mismatch): Promise<boolean> {
    void mismatch;
    return Promise.reject(new RemoteError(`Stop it from here with \`pitwall jobs --remote ${this.remote.target.label} stop all\` (its jobs end), then start again.`));
  }

  protected override openConnection(client: ClientInfo, start: boolean): Promise<OpenedHost> {
    // The bridge starts the remote's host whenever it is reached: attaching costs one ssh login either way.
    void start;
    return openRemoteHost({
      sshCommand: this.remote.sshCommand,
      target: this.remote.target,
      client: {
        ...client,
        remote: true,
        ...(this.lastClientId !== undefined ? { resumes: this.lastClientId, since: [...this.seen].map(([id, offset]) => ({ id, offset })) } : {}),
      },
      settings: { ...this.settings },
      keepJobsMs: this.remote.keepJobsMs,
      // Over ssh the greeting waits for the login too: only the silence limit is shortened there.
      ...(this.remote.connection?.silenceMs !== undefined ? { connection: { silenceMs: this.remote.connection.silenceMs } } : {}),
      ...(this.remote.onStatus ? { onStatus: this.remote.onStatus } : {}),
    });
  }

  /**
   * A call the dropped link took with it fails with what happened to it, never as a bare "went away".
   * A read's image comes as the file's bytes, prepared here as a local read prepares its file.
   */
  override async runTool(call: ServiceToolCall): Promise<ToolResult> {
    let result: ToolResult;
    try {
      result = await super.runTool(call);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (!message.startsWith("The job host went away")) throw error;
      const where = this.remote.target.destination;
      const after =
        call.tool === "bash"
          ? `The command goes on there as a background job: once pitwall has reconnected, list_processes shows it and poll_process reads its output.`
          : call.tool === "bash_stream"
            ? "The job goes on there: once pitwall has reconnected, list_processes shows it."
            : "It may or may not have finished there: check before repeating anything that changes files.";
      throw new Error(`The link to ${where} dropped while ${call.tool} ran. ${after}`);
    }
    return call.tool === "read" ? finishImageRead(result, call.params, await this.restOfImage(result, call.signal)) : result;
  }

  /**
   * The whole image when the read's result holds only its first piece (an image over one message's
   * worth): the rest asked for piece by piece from the file the remote keeps open.
   */
  private async restOfImage(result: ToolResult, signal: AbortSignal): Promise<Buffer | undefined> {
    const image = result.unpreparedImage;
    if (!image?.rest || image.size === undefined) return undefined;
    const pieces = [Buffer.from(image.data, "base64")];
    let received = pieces[0]!.length;
    while (received < image.size) {
      if (signal.aborted) throw new Error("Reading the image was aborted.");
      const connection = await this.connect(false);
      if (!connection) throw new Error(`The link to ${this.remote.target.destination} dropped while an image was read: read it again.`);
      const { data } = await connection.call("imagePiece", { token: image.rest, offset: received, maxBytes: REMOTE_IMAGE_PIECE_BYTES });
      const piece = Buffer.from(data, "base64");
      if (piece.length === 0) throw new Error("The image got shorter while it was read: read it again once it is written.");
      pieces.push(piece);
      received += piece.length;
    }
    return Buffer.concat(pieces);
  }

  /** The start of a file on the remote (the files pane's preview): its size and up to `maxBytes` bytes. */
  async readFile(path: string, maxBytes: number): Promise<{ size: number; bytes: Buffer }> {
    const connection = await this.connect(true);
    if (!connection) throw new Error(`${this.remote.target.destination} cannot be reached.`);
    const { size, data } = await connection.call("readFile", { path, maxBytes });
    return { size, bytes: Buffer.from(data, "base64") };
  }

  /** Commands there see the remote host's own folder of bash's full-output files (run-tool.ts), not this machine's. */
  protected override toolCallExtras(): { secrets: string[]; sandbox?: { policy: SandboxPolicy; visible: string[] } } {
    return { secrets: [], ...(this.sandbox ? { sandbox: { policy: this.sentPolicy(this.sandbox.policy), visible: [] } } : {}) };
  }

  /** The person's rules with the paths under the home left `~/…` (the remote's host expands them against its home), naming the remote as the person knows it. */
  protected override sentPolicy(policy: SandboxPolicy): SandboxPolicy {
    const paths = this.remote.sandboxPaths ?? {};
    return homeRelativePolicy({
      profile: policy.profile,
      required: policy.required,
      machine: this.remote.target.destination,
      ...(paths.writable ? { writable: paths.writable } : {}),
      ...(paths.hidden ? { hidden: paths.hidden } : {}),
    });
  }

  /** Whether the remote can fence commands (bwrap and user namespaces there), asked of its host; undefined without a sandbox policy. */
  async sandboxAvailability(): Promise<Extract<Availability, { ok: false }> | { ok: true } | undefined> {
    if (!this.sandbox) return undefined;
    const connection = await this.connect(true);
    if (!connection) throw new Error(`${this.remote.target.destination} cannot be reached.`);
    return connection.call("sandboxCheck", { policy: this.sentPolicy(this.sandbox.policy) });
  }

  protected override connected(connection: HostConnection): void {
    this.lastClientId = connection.welcome.clientId;
    super.connected(connection);
    for (const { id, chars } of connection.welcome.missed ?? []) {
      const text = `Job ${id} printed ${chars} characters while the link to ${this.remote.target.destination} was down that are older than what its host keeps for a reconnect: they are not replayed here (get_process_log and the job's view still have its lines).`;
      this.ownNotices.push({ text, at: Date.now() });
      this.remote.onStatus?.(text);
    }
  }

  /** A link that dropped (not one the host broke, not one we closed) is reconnected with backoff. */
  protected override lost(connection: HostConnection, why: string | undefined, broken: boolean): void {
    if (this.connection !== connection || why === undefined || broken || this.shuttingDown) return super.lost(connection, why, broken);
    this.connection = undefined;
    const text = `The link to ${this.remote.target.destination} dropped (${why}): reconnecting…`;
    this.mirror.emit({ type: "job_host_state", answering: false, detail: text });
    this.remote.onStatus?.(text);
    this.reconnecting ??= this.reconnect().finally(() => (this.reconnecting = undefined));
  }

  private async reconnect(): Promise<void> {
    let wait = this.remote.reconnectMs ?? RECONNECT_FIRST_MS;
    let lastError = "";
    for (let attempt = 1; !this.shuttingDown; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, wait).unref());
      if (this.shuttingDown) return;
      try {
        const connection = await this.connect(false);
        if (connection) {
          const text = `Reconnected to ${this.remote.target.destination}${attempt > 1 ? ` after ${attempt} attempts` : ""}.`;
          this.mirror.emit({ type: "job_host_state", answering: true, detail: text });
          this.remote.onStatus?.(text);
          return;
        }
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (message !== lastError) {
          lastError = message;
          this.mirror.emit({ type: "job_host_state", answering: false, detail: `Reconnecting to ${this.remote.target.destination}… (${message})` });
        }
      }
      wait = Math.min(wait * 2, RECONNECT_MAX_MS);
    }
  }
}
