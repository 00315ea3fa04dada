// pitwall's version, read once from package.json (two folders up from the compiled file). It lives
// in tools/ because the job host checks it too: a dashboard and a host of different versions never
// talk past each other.
import { readFileSync } from "node:fs";

let cached: string | undefined;

export function pitwallVersion(): string {
  if (cached) return cached;
  // ./package.json: a remote's copy (tools/jobs/remote/remote-bundle.ts writes one beside its programs).
  for (const candidate of ["../../package.json", "../package.json", "./package.json"]) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(candidate, import.meta.url), "utf8")) as { name?: string; version?: string };
      if (pkg.name === "pitwall" && pkg.version) return (cached = pkg.version);
    } catch {
      // Try the next location (compiled vs. source layout).
    }
  }
  return (cached = "0.0.0");
}
