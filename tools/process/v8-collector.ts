// V8's own collection, which Node 20 offers no API for: the --expose-gc flag, set at run time, puts
// `gc` in contexts made after it. Used only where a process knows better than V8 when a collection
// is cheap (startup-garbage.ts, young-generation.ts).
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** `gc()` collects the whole heap; `gc({ type: "minor" })` only the young generation (a scavenge). */
type Collector = (options?: { type: "minor" | "major" }) => void;

let found: Collector | null | undefined;

function v8Collector(): Collector | undefined {
  if (found === undefined) {
    try {
      setFlagsFromString("--expose-gc");
      const gc = runInNewContext("gc") as unknown;
      found = typeof gc === "function" ? (gc as Collector) : null;
    } catch {
      found = null;
    }
  }
  return found ?? undefined;
}

/** Collects the whole heap, or with `{ type: "minor" }` the young generation; nothing where this V8 will not. */
export function collectGarbage(options?: { type: "minor" | "major" }): void {
  try {
    v8Collector()?.(options);
  } catch {
    // Only memory is at stake.
  }
}
