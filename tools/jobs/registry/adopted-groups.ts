// Process groups a bash call left running in the background (`server &`), which the job registry
// takes over so that they end with its jobs: who owns each (a job host's client, or nobody once its
// client left them running), and the PITWALL_JOB mark of their processes, so that what escaped a
// group ends too. A group none of whose processes is left is forgotten: its pid may be reused.
import { groupAlive, signalGroup, terminateGroup } from "../../process-group.js";
import type { ChildMarker } from "../../process/process-guard.js";

/** Once a group (a job's or an adopted one) has no live member, the watchdog must forget it: its pid may be reused. */
export function untrackIfGone(marker: ChildMarker | undefined, pgid: number): void {
  if (marker && !groupAlive(pgid)) marker.untrackGroup(pgid);
}

/** How often adopted groups are checked for being gone, unless the options say otherwise. */
const GONE_CHECK_MS = 5_000;

interface AdoptedGroup {
  owner: string | undefined;
  mark: string | undefined;
}

export interface AdoptedGroupsOptions {
  /** The watchdog that ends tracked groups if this process dies. */
  marker: ChildMarker | undefined;
  killGraceMs: number;
  /** How often the groups are checked for being gone (5 s). */
  goneCheckMs?: number;
  /** Ends what carries `mark` outside its group (setsid, a double fork). */
  endEscapes: (mark: string | undefined) => Promise<void>;
}

export class AdoptedGroups {
  private readonly groups = new Map<number, AdoptedGroup>();
  private goneCheck: NodeJS.Timeout | undefined;

  constructor(private readonly options: AdoptedGroupsOptions) {}

  adopt(pgid: number, owner: string | undefined, mark: string | undefined): void {
    this.groups.set(pgid, { owner, mark });
    this.options.marker?.trackGroup(pgid);
    this.goneCheck ??= setInterval(() => {
      for (const group of this.groups.keys()) {
        if (groupAlive(group)) continue;
        this.groups.delete(group);
        this.options.marker?.untrackGroup(group);
      }
      if (this.groups.size === 0) this.stopGoneCheck();
    }, this.options.goneCheckMs ?? GONE_CHECK_MS);
    this.goneCheck.unref();
  }

  /** Gives `from`'s groups to `to` (undefined: nobody, a client that left them running). */
  handOver(from: string | undefined, to: string | undefined): void {
    for (const group of this.groups.values()) if (group.owner === from) group.owner = to;
  }

  /** Ends the groups `owner` owns, each with its escapes. */
  endOwnedBy(owner: string | undefined): Promise<void> {
    return this.endWhere((group) => group.owner === owner);
  }

  /** Ends every group, each with its escapes (the groups stay watched for new ones). */
  endEvery(): Promise<void> {
    return this.endWhere(() => true);
  }

  private async endWhere(ending: (group: AdoptedGroup) => boolean): Promise<void> {
    const groups = [...this.groups].filter(([, group]) => ending(group));
    await Promise.all(
      groups.map(async ([pgid, group]) => {
        await terminateGroup(pgid, this.options.killGraceMs);
        untrackIfGone(this.options.marker, pgid);
        this.groups.delete(pgid);
        await this.options.endEscapes(group.mark);
      }),
    );
  }

  /**
   * Ends every group and stops watching: at shutdown, where what escaped them is ended afterwards
   * for all of the registry's marks at once.
   */
  async endAll(): Promise<void> {
    await Promise.all([...this.groups.keys()].map((pgid) => terminateGroup(pgid, this.options.killGraceMs)));
    for (const pgid of this.groups.keys()) untrackIfGone(this.options.marker, pgid);
    this.groups.clear();
    this.stopGoneCheck();
  }

  /** SIGKILL to every group, synchronously: for process 'exit', where nothing async runs. */
  killAllSync(): void {
    for (const pgid of this.groups.keys()) signalGroup(pgid, "SIGKILL");
  }

  private stopGoneCheck(): void {
    clearInterval(this.goneCheck);
    this.goneCheck = undefined;
  }
}
