// The front door of the sandbox: everything outside tools/sandbox/ imports from here. What each file
// behind it does is in README.md beside this one.

// The profiles and the person's policy (plain data: it crosses the job host's socket).
export {
  DEFAULT_HIDDEN,
  DEFAULT_WRITABLE,
  expandHome,
  HOME_RELATIVE,
  homeRelativePolicy,
  isLooser,
  isSandboxProfile,
  policyHere,
  SANDBOX_PROFILES,
  sandboxPolicy,
  withProfile,
  type HomeRelativeOptions,
  type PolicyOptions,
  type PolicyPlace,
  type SandboxPolicy,
  type SandboxProfile,
} from "./profiles.js";

// Running a command fenced, and who may ask for which profile.
export { CommandSandbox, requestedProfile, SandboxUnavailableError, type CommandFence, type FenceRequest } from "./command-sandbox.js";
export { bwrapAvailability, type Availability } from "./bwrap.js";
export { LoosenRefusedError, modelProfile } from "./model-profile.js";

// What the fence stopped: found in a command's output, and how it reads.
export { FenceScanner } from "./fence-scanner.js";
export { describeHit, fenceHitsOf, fenceNoteForModel, fenceNoticeForPerson, remedy, type FenceHit, type FenceHitKind } from "./fence-hit.js";

// The same profile for the tools that touch files in pitwall's own process.
export { FenceError, FileFence } from "./file-fence.js";
