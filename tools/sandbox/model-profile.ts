// Which profile a command of the model's runs under: the person's, or a stricter one the model asks
// for. A looser one is refused, with a message that tells the model to ask the person: only the
// person loosens the fence (--sandbox, config.json, or a job restarted under another profile).
import { isLooser, type SandboxProfile } from "./profiles.js";

export class LoosenRefusedError extends Error {
  constructor(asked: SandboxProfile, floor: SandboxProfile) {
    super(
      `Not run: you asked for sandbox profile "${asked}", which is looser than "${floor}", the profile the person set. ` +
        `Only the person can loosen the sandbox. If the work needs it, say what and why, and ask them: they can restart ` +
        `the job under another profile from the jobs pane, or start pitwall with --sandbox ${asked}. You may always ask for a stricter profile.`,
    );
  }
}

/** The profile a model's command runs under: `asked` when it is at least as strict as `floor`. */
export function modelProfile(asked: SandboxProfile | undefined, floor: SandboxProfile): SandboxProfile {
  if (asked === undefined) return floor;
  if (isLooser(asked, floor)) throw new LoosenRefusedError(asked, floor);
  return asked;
}
