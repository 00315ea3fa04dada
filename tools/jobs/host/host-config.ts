// The job host's configuration, given by whoever starts it (host-launcher.ts) as its one argument:
// the folder, the pitwall home its socket lives under, the starting client's limits and how long
// jobs left without a dashboard are kept. Its own module: the remote bridge checks part of it too,
// without running the host's program.
import { Type, type Static } from "@sinclair/typebox";

export const HostConfigSchema = Type.Object(
  {
    cwd: Type.String(),
    home: Type.String(),
    /** The registry's limits (the starting client's). */
    settings: Type.Object({
      ttlMs: Type.Optional(Type.Number()),
      maxJobs: Type.Optional(Type.Integer()),
      killGraceMs: Type.Optional(Type.Number()),
      cols: Type.Optional(Type.Integer()),
      rows: Type.Optional(Type.Integer()),
      scrollback: Type.Optional(Type.Integer()),
      maxOutputChars: Type.Optional(Type.Integer()),
      defaultYieldMs: Type.Optional(Type.Integer()),
      minYieldMs: Type.Optional(Type.Integer()),
      steerGraceMs: Type.Optional(Type.Integer()),
      watchDebounceMs: Type.Optional(Type.Number()),
      minWatchDebounceMs: Type.Optional(Type.Number()),
    }),
    keepJobsMs: Type.Number({ minimum: 0 }),
    /** The bubblewrap program for a remote client's commands (PITWALL_BWRAP on that machine); the PATH's when not given. */
    bwrap: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type HostConfig = Static<typeof HostConfigSchema>;
