// What the bash tool is called with and what it reports: its parameters (as the model is shown
// them) and the details its result carries for the UI and the session. The tool (bash-tool.ts) and
// the hand-over of a long call to a job (bash-yield.ts) both speak these.
import { Type, type Static } from "@sinclair/typebox";
import { SANDBOX_PROFILES, type FenceHit, type SandboxProfile } from "../../sandbox/index.js";

/** The sandbox parameter bash and bash_stream share: the model may only ask for a stricter profile. */
export const sandboxParameter = Type.Optional(
  Type.Union(
    SANDBOX_PROFILES.map((profile) => Type.Literal(profile)),
    {
      description:
        'Run this command under a stricter sandbox profile than the person set: "strict" takes the network away (a loopback of its own inside), "workspace" allows writes only in the working directory, /tmp and build caches. A looser profile than the person\'s is refused. Default: the person\'s profile.',
    },
  ),
);

export const bashToolSchema = Type.Object({
  command: Type.String({ minLength: 1, description: "The command line to run, as you would type it in a shell." }),
  timeout: Type.Optional(
    Type.Number({ exclusiveMinimum: 0, description: "Seconds after which the command is killed. Default: no timeout." }),
  ),
  sandbox: sandboxParameter,
});

export type BashToolParams = Static<typeof bashToolSchema>;

export interface BashToolDetails {
  command: string;
  /** Null when the command was killed by a signal. */
  exitCode: number | null;
  /** The signal that ended the shell, e.g. "SIGTERM". */
  signal?: string;
  durationMs: number;
  /** True when the model saw only the head and tail of the output. */
  truncated: boolean;
  /** The complete output, saved when it was longer than the cap. */
  fullOutputPath?: string;
  timedOut: boolean;
  aborted: boolean;
  /** The job the command became when it outlived the call's wait (it runs on). */
  jobId?: string;
  /** The profile it ran under, when it had a sandbox policy. */
  sandbox?: SandboxProfile;
  /** True when its profile asked for a fence that could not be made here. */
  unfenced?: boolean;
  /** What the fence stopped it doing. */
  fence?: FenceHit[];
}
