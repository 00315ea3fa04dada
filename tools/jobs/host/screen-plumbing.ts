// The job host's side of a client looking at jobs: screen watches (the rows of a job's terminal
// that changed, sent as screen messages under the watch number the client chose, held back while
// its socket is backlogged), scrolling a watch through the scrollback, and following a job's log
// line by line (`pitwall jobs tail -f`). All of it ends when the client goes (closeViews).
import type { ScreenWatches } from "../terminal/screen-watch.js";
import type { Handler } from "./host-context.js";
import type { HostClient } from "./host-client.js";

/** Starts screen updates of a job for this client; false: no such job. */
export const watchScreen: Handler<"watch"> = (args, { client, host }) => {
  const watch = host.watches.open(args.id, (update) => {
    if (client.backlogged) return false;
    client.send({ type: "screen", watch: args.watch, update });
    return true;
  });
  if (!watch) return false;
  client.watches.set(args.watch, watch);
  return true;
};

export const unwatchScreen: Handler<"unwatch"> = (args, { client, host }) => {
  const watch = client.watches.get(args.watch);
  if (watch) host.watches.close(watch);
  client.watches.delete(args.watch);
  return null;
};

export const scrollScreen: Handler<"scroll"> = (args, { client }) => {
  const watch = client.watches.get(args.watch);
  if (args.by !== undefined) watch?.scroll({ by: args.by });
  else if (args.to !== undefined) watch?.scroll({ to: args.to });
  return null;
};

/** Sends a job's completed log lines as they come; returns its last `last` lines now. */
export const followLog: Handler<"follow"> = (args, { client, host }) => {
  const job = host.registry.get(args.id);
  if (!job) throw new Error(`No job "${args.id}".`);
  const stop = job.log.onLine((line) => client.send({ type: "lines", watch: args.watch, lines: [line] }));
  client.follows.set(args.watch, stop);
  return args.last > 0 ? job.log.tail(args.last) : [];
};

/** The client went: its watches and follows end. */
export function closeViews(client: HostClient, watches: ScreenWatches): void {
  for (const watch of client.watches.values()) watches.close(watch);
  for (const stop of client.follows.values()) stop();
}
