// One full garbage collection once a process has started and sits idle. Starting leaves megabytes
// behind that V8 would collect only under pressure (copies of the 2 MB bundle source, parse and
// compile leftovers, a grown young generation): Node gives V8 no idle time to do it in, so an idle
// pitwall kept ~10 MB it does not use, and the first command's output then met the full collection
// that was due (~10–45 ms of its round trip on this VM). The dashboard and the job host each collect
// once, after their idle warm-ups.
import { collectGarbage } from "./v8-collector.js";

/** Collects once, `afterMs` from now, when `idle()` says nothing is going on then (else never). */
export function collectStartupGarbage(afterMs: number, idle: () => boolean): void {
  setTimeout(() => {
    if (idle()) collectGarbage();
  }, afterMs).unref();
}
