// A client gives up on its job host after the silence limit with nothing from it while a call
// waits, and only then: a host in the middle of sending a long message (a piece of an image over a
// slow ssh link) is heard while the bytes arrive, not only once the line ends. The host here is
// the other end of an in-memory stream, and the clock is the test's.
import { Duplex, PassThrough } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HostConnection, HostSilentError } from "../../tools/jobs/client/host-connection.js";
import { PROTOCOL_VERSION } from "../../tools/jobs/wire/handshake.js";

const SILENCE_MS = 1_000;

afterEach(() => {
  vi.useRealTimers();
});

/** A client connected to a host played by the test: what the client wrote, and a way to answer. */
async function connected() {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
  const toHost = new PassThrough();
  const fromHost = new PassThrough();
  let written = "";
  toHost.setEncoding("utf8").on("data", (chunk: string) => (written += chunk));
  const opening = HostConnection.over(Duplex.from({ readable: fromHost, writable: toHost }), { kind: "cli", pid: process.pid, output: "none" }, { silenceMs: SILENCE_MS });
  fromHost.write(`${JSON.stringify({ type: "welcome", protocol: PROTOCOL_VERSION, version: "0.1.0", pid: 4242, clientId: "c1", jobs: [], adopted: [], exitsToTell: [], triggers: [] })}\n`);
  const handshake = await opening;
  if (handshake.kind !== "welcome") throw new Error("expected a welcome");
  /** The id of the last call the client sent for `method`. */
  const lastCallId = (method: string): number => {
    const calls = written
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { type: string; id?: number; method?: string })
      .filter((message) => message.type === "call" && message.method === method);
    const id = calls.at(-1)?.id;
    if (id === undefined) throw new Error(`no ${method} call was sent`);
    return id;
  };
  return { connection: handshake.connection, fromHost, lastCallId };
}

describe("a job host's liveness", () => {
  it("a long answer that arrives slowly, over several silence limits, is waited for", async () => {
    const { connection, fromHost, lastCallId } = await connected();
    const answer = connection.call("readFile", { path: "picture.png", maxBytes: 1024 });
    const padding = "x".repeat(40_000);
    const value = { size: 30_000, data: padding };
    const line = JSON.stringify({ type: "result", id: lastCallId("readFile"), value });
    // Ten slices, 0.4 s apart: 4 s from the first byte to the last, four times the silence limit.
    const slices = 10;
    const size = Math.ceil(line.length / slices);
    for (let i = 0; i < slices; i++) {
      fromHost.write(line.slice(i * size, (i + 1) * size));
      await vi.advanceTimersByTimeAsync(400);
    }
    fromHost.write("\n");
    await expect(answer).resolves.toEqual(value);
  });

  it("a host that sends nothing for the silence limit is given up on, with what to do", async () => {
    const { connection } = await connected();
    const answer = connection.call("readFile", { path: "picture.png", maxBytes: 1024 });
    const failed = expect(answer).rejects.toThrow(HostSilentError);
    await vi.advanceTimersByTimeAsync(SILENCE_MS + 1_100);
    await failed;
    await expect(answer).rejects.toThrow(/stopped answering: nothing from it for 1 s\..*pitwall jobs stop all/);
  });
});
