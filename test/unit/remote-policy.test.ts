// The sandbox policy of a remote session: sent home-relative, made absolute by the machine that runs
// the commands (its home, its pitwall folder, its runtime folder and ssh agent, its bwrap), while a
// policy a client on the same machine made is used as it is.
import { describe, expect, it } from "vitest";
import { DEFAULT_HIDDEN, DEFAULT_WRITABLE, homeRelativePolicy, policyHere, sandboxPolicy } from "../../tools/sandbox/profiles.js";

const THERE = { home: "/srv/remote-home", pitwallHome: "/srv/remote-home/.pitwall" };

describe("a policy for another machine", () => {
  it("keeps the person's paths as written: `~/…` for that machine's home, absolute ones as they are", () => {
    const policy = homeRelativePolicy({ profile: "strict", required: true, writable: ["~/.npm", "build-cache", "/opt/shared-cache"], hidden: ["~/.config/my-secrets", "/etc/secret-thing"] });
    expect(policy).toEqual({
      profile: "strict",
      required: true,
      home: "~",
      writable: ["~/.npm", "~/build-cache", "/opt/shared-cache"],
      hidden: [...DEFAULT_HIDDEN, "~/.config/my-secrets", "/etc/secret-thing"],
      protected: [],
    });
    // Nothing of this machine's: no bwrap program, no pitwall folder, no runtime folder.
    expect(homeRelativePolicy({ profile: "workspace" }).writable).toEqual(DEFAULT_WRITABLE);
  });

  it("is made that machine's own: its home, its pitwall folder read-only with the hosts hidden, its agent socket hidden, its bwrap", () => {
    const here = policyHere(homeRelativePolicy({ profile: "workspace", writable: ["~/.npm", "/opt/shared-cache"] }), {
      ...THERE,
      sshAuthSock: "/run/user/7/agent.sock",
      runtimeDir: "/run/user/7",
      bwrap: "/opt/bwrap",
    });
    expect(here.home).toBe("/srv/remote-home");
    expect(here.writable).toEqual(["/srv/remote-home/.npm", "/opt/shared-cache"]);
    expect(here.hidden).toContain("/srv/remote-home/.ssh");
    expect(here.hidden).toContain("/srv/remote-home/.pitwall/hosts");
    expect(here.hidden).toContain("/run/user/7/agent.sock");
    expect(here.hidden).toContain("/run/user/7");
    expect(here.protected).toEqual(["/srv/remote-home/.pitwall"]);
    expect(here.bwrap).toBe("/opt/bwrap");
  });

  it("leaves a policy made on this machine as it is", () => {
    const local = sandboxPolicy({ profile: "workspace", home: "/home/me", pitwallHome: "/home/me/.pitwall", bwrap: "/usr/local/bin/bwrap" });
    expect(policyHere(local, { ...THERE, bwrap: "/elsewhere" })).toBe(local);
  });
});
