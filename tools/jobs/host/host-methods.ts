// The job host's method dispatch: one handler per method of the protocol (wire/methods.ts), in a
// table typed by method, so a method without a handler (or a handler of the wrong shape) does not
// compile. A call reaches it with its method known and its arguments checked against the method's
// schema (host-client.ts); its result or its error goes back as the call's answer.
import { resolve } from "node:path";
import { readFileHead } from "./file-head.js";
import type { JobInfo } from "../events.js";
import { jobSnapshotLines } from "../format.js";
import { readJobText } from "../registry/job-text.js";
import type { MethodArgs, MethodName } from "../wire/methods.js";
import type { HostClient } from "./host-client.js";
import type { CallContext, Handler, HostContext } from "./host-context.js";
import { clientEnv, runTool } from "./run-tool.js";
import { bwrapAvailability } from "../../sandbox/index.js";
import { followLog, scrollScreen, unwatchScreen, watchScreen } from "./screen-plumbing.js";

const handlers: { [M in MethodName]: Handler<M> } = {
  runTool,
  start: async (args, { client, host }) => {
    const fence = args.sandbox ? await host.registry.makeFence({ policy: host.policyHere(args.sandbox) }) : undefined;
    return host.registry.start({ command: args.command, startedBy: "person", owner: client.id, baseEnv: clientEnv(client, args.env), ...(args.size ? { size: args.size } : {}), ...(fence ? { fence } : {}) }).info;
  },
  kill: (args, { client, host }) => host.registry.kill(args.id, { by: "person", actor: client.id, ...(args.signal ? { signal: args.signal as NodeJS.Signals } : {}) }),
  restart: async (args, { client, host }) => (await host.registry.restart(args.id, "person", args.size, client.id, args.profile)).info,
  remove: (args, { client, host }) => host.registry.remove(args.id, client.id),
  write: (args, { client, host }) => {
    host.registry.write(args.id, args.data, { eof: args.eof ?? false, by: "person", actor: client.id });
    return null;
  },
  text: (args, { host }) => readJobText(host.registry, args.id, args.kind, args.count),
  watch: watchScreen,
  unwatch: unwatchScreen,
  scroll: scrollScreen,
  resize: (args, { host }) => {
    host.registry.get(args.id)?.resize(args.cols, args.rows);
    return null;
  },
  follow: followLog,
  addTrigger: (args, { host, client }) => host.registry.watches.add(args.id, { pattern: args.pattern, action: args.action, setBy: "person", owner: client.id }),
  removeTriggers: (args, { host }) => host.registry.watches.remove(args.id, args.trigger, "person"),
  note: (args, { client, host }) => {
    host.registry.notePersonAction(args.text, client.id);
    return null;
  },
  notices: (_args, { client, host }) => host.registry.drainNotices(client.id),
  summary: (_args, { host }) => jobSnapshotLines(host.registry.list()),
  status: (_args, { host }) => host.status(),
  readFile: (args, { host }) => readFileHead(resolve(host.cwd, args.path), args.maxBytes),
  imagePiece: (args, { client, host }) => host.images.piece(args.token, client.id, args.offset, args.maxBytes),
  sandboxCheck: async (args, { host }) => {
    const available = await bwrapAvailability(host.policyHere(args.policy).bwrap);
    return available.ok ? { ok: true } : { ok: false, reason: available.reason, fix: available.fix };
  },
  stopOwned: async (_args, { client, host }) => {
    client.stopped = true;
    await host.registry.stopOwned(client.id);
    return null;
  },
  stop: (args, { host }) => stopJobs(args, host),
};

/** Runs a checked call and answers it: its result, or its error (a refusal with its fields). */
export function dispatch<M extends MethodName>(client: HostClient, id: number, method: M, args: MethodArgs<M>, host: HostContext): void {
  const handler: Handler<M> = handlers[method];
  const call: CallContext = { client, id, host };
  // Async, so that a handler that throws at once is answered like one that rejects.
  const run = async () => handler(args, call);
  run().then(
    (value) => client.reply(id, value),
    (error: unknown) => client.replyError(id, error),
  );
}

/**
 * `pitwall jobs stop`: each job (every job, with "all") is stopped with all it started, escapes
 * included; its agent is told. With no dashboard attached, the stopped jobs are forgotten too.
 */
async function stopJobs(args: MethodArgs<"stop">, host: HostContext): Promise<JobInfo[]> {
  const registry = host.registry;
  const ids = args.ids === "all" ? registry.list().map((job) => job.id) : args.ids;
  const stopped = await Promise.all(ids.map((id) => registry.kill(id, { by: "person", actor: registry.get(id)?.owner ?? "" })));
  if (args.ids === "all") await registry.endLeftoverGroups();
  if (!host.dashboardAttached()) await registry.stopOwned(undefined);
  host.checkIdle();
  return stopped;
}
