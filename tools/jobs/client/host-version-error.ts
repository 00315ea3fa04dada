// The error for a job host of another pitwall version in this folder: this pitwall cannot use it,
// and the message says how to stop it (its jobs end with it).
import type { Mismatch } from "../wire/handshake.js";

export class HostVersionError extends Error {
  constructor(readonly mismatch: Mismatch) {
    super(
      `A job host of another pitwall version (${mismatch.version}, protocol ${mismatch.protocol}, pid ${mismatch.pid}) runs in this folder with ${mismatch.jobs.length} job${mismatch.jobs.length === 1 ? "" : "s"}. ` +
        "This pitwall cannot use it: stop it with `pitwall jobs stop all` (its jobs end), then try again.",
    );
  }
}
