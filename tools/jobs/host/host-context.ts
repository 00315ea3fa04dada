// What the job host's method handlers get: the call (which client, which id) and a narrow view of
// the server, only the few things the handlers use (lazygit's ControllerCommon), so the handlers'
// files need nothing of the server's and no circle forms.
import type { JobRegistry } from "../registry/job-registry.js";
import type { ScreenWatches } from "../terminal/screen-watch.js";
import type { HostStatus, MethodArgs, MethodName, MethodResult } from "../wire/methods.js";
import type { ChildMarker } from "../../process/process-guard.js";
import type { PrestartedShells } from "../../process/prestarted-shells.js";
import type { HostClient } from "./host-client.js";
import type { OpenImages } from "./open-images.js";
import type { SandboxPolicy } from "../../sandbox/index.js";

export interface HostContext {
  readonly registry: JobRegistry;
  /** Screen updates of the jobs clients watch. */
  readonly watches: ScreenWatches;
  /** The folder the host serves: bash calls run there. */
  readonly cwd: string;
  /** The host's own guard: bash calls carry its marker (jobs get it from the registry). */
  readonly marker: ChildMarker | undefined;
  /** Fenced bash calls' shells, set up ahead of the next call. */
  readonly prestarted: PrestartedShells;
  /** Image files remote reads keep open for their later pieces. */
  readonly images: OpenImages;
  /** True while a dashboard is attached. */
  dashboardAttached(): boolean;
  /** Checks whether the host is done: no client and no job. */
  checkIdle(): void;
  /** The agent a client serves, as its hello named it; undefined for a client gone or unnamed. */
  agentOf(clientId: string): string | undefined;
  /** What `pitwall jobs` shows. */
  status(): HostStatus;
  /** A client's sandbox policy as this machine runs it: a remote client's home-relative one made absolute here (profiles.ts). */
  policyHere(policy: SandboxPolicy): SandboxPolicy;
}

export interface CallContext {
  client: HostClient;
  /** The call's id, which its live output (update messages) carries. */
  id: number;
  host: HostContext;
}

/** Runs one method. Contract: a refusal is thrown (refusals.ts words it across the socket), never returned. */
export type Handler<M extends MethodName> = (args: MethodArgs<M>, call: CallContext) => MethodResult<M> | Promise<MethodResult<M>>;
