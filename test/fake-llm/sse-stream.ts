// Writes a planned server-sent-event stream to an HTTP response, with the reply's timing and
// failure knobs: a delay between events, a socket destroyed mid-stream, or a stream held open
// until the client goes away. Each event is flushed before the next, so counts are exact.

import type { ServerResponse } from "node:http";
import type { FakeReply } from "./script.js";

export interface SsePlan {
  /** Extra response headers (request ids). */
  headers: Record<string, string>;
  /** The events carrying the content, each a complete SSE frame ending in a blank line. */
  content: string[];
  /** The events that finish the message; not sent when the reply holds the stream open. */
  finish: string[];
  /** An error event inside the stream, in the API's format. */
  errorFrame(type: string, message: string): string;
}

export async function writeSse(res: ServerResponse, plan: SsePlan, reply: FakeReply): Promise<void> {
  let closed = false;
  const whenClosed = new Promise<void>((resolve) => {
    res.once("close", () => {
      closed = true;
      resolve();
    });
  });
  if (reply.withholdHeaders === true) {
    await whenClosed;
    return;
  }

  res.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    connection: "keep-alive",
    ...plan.headers,
  });
  // Headers first, so the SDK's request resolves even when the first event is delayed or never comes.
  res.flushHeaders();

  let frames = reply.holdOpen === true ? plan.content : [...plan.content, ...plan.finish];
  if (reply.streamError !== undefined) {
    const { afterChunks, type, message } = reply.streamError;
    frames = [...frames.slice(0, afterChunks), plan.errorFrame(type, message ?? `fake LLM: scripted in-stream ${type}`)];
  }
  const stallAt = reply.stallAfterChunks;
  const drop = reply.dropAfterChunks;
  const delayMs = reply.delayMs ?? 0;

  const dropNow = (): void => {
    res.socket?.destroy();
  };

  if (drop !== undefined && drop <= 0) return dropNow();

  let sent = 0;
  for (const frame of frames) {
    if (stallAt !== undefined && sent >= stallAt) break;
    if (sent > 0 && delayMs > 0) await Promise.race([sleep(delayMs), whenClosed]);
    if (closed) return;
    await Promise.race([writeFrame(res, frame), whenClosed]);
    if (closed) return;
    sent += 1;
    if (drop !== undefined && sent >= drop) return dropNow();
  }

  if (drop !== undefined) return dropNow();
  if (reply.holdOpen === true || stallAt !== undefined) {
    await whenClosed;
    return;
  }
  res.end();
}

function writeFrame(res: ServerResponse, frame: string): Promise<void> {
  // The callback fires once the bytes are handed to the kernel (or the write failed because the
  // client left); either way the next step may proceed.
  return new Promise((resolve) => {
    res.write(frame, () => resolve());
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
