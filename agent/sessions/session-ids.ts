// Ids of session records: eight hex digits, random, unique within their file. Records written
// before ids existed are known by their line number ("L42"), which never collides with a hex id and
// stays stable because session files are only ever appended to.
import { randomBytes } from "node:crypto";

export function lineRecordId(lineNumber: number): string {
  return `L${lineNumber}`;
}

/** A fresh id not in `taken`; it is added to `taken`. */
export function newRecordId(taken: Set<string>): string {
  for (;;) {
    const id = randomBytes(4).toString("hex");
    if (taken.has(id)) continue;
    taken.add(id);
    return id;
  }
}
