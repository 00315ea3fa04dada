// The HTTP client both SDKs are given as their `fetch`, on Node's own http and https modules.
// Node's global fetch is undici: on first use it loads ~40 ms of modules (HTTP/2, web IDL, a
// WebAssembly HTTP parser), most of what stood between the dashboard's first frame and "ready",
// and its first request ran cold besides. pitwall sends JSON and reads the answer, streamed or
// whole, which node:http does with what Node has loaded already; anything else (a form, a stream
// to upload) goes to the global fetch.
//
// It also ends stalls (stall-guard.ts): one timer from sending the request to its headers, one
// reset by every byte of the body while the reader waits for more.
import * as http from "node:http";
import type { RequestOptions as HttpsRequestOptions } from "node:https";
import type { Readable } from "node:stream";
import { HttpResponse } from "./http-response.js";
import { StallError, type StreamTimeouts } from "./stall-guard.js";
import { describeProxy, proxyFor, type ProxySettings } from "./proxy.js";

type Fetch = typeof globalThis.fetch;
type FetchInit = NonNullable<Parameters<Fetch>[1]>;

const MAX_REDIRECTS = 20;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Statuses whose response has no body. */
const NO_BODY = new Set([101, 204, 205, 304]);
/** Headers a redirect to another origin must not carry along: they hold credentials. */
const CREDENTIALS = ["authorization", "proxy-authorization", "cookie", "x-api-key"];
/**
 * Idle connections are kept for the next request and closed after 4 s, before servers close
 * theirs (uvicorn and Node after 5 s), so that a request seldom goes out on a closing connection
 * (one that does fails as a dropped connection, and the agent loop retries it).
 */
const KEEP_ALIVE = { keepAlive: true, timeout: 4_000, scheduling: "lifo" } as const;

interface Transport {
  request: typeof http.request;
  agent: http.Agent;
  /** What each request to `url` adds to its options (the server's name to check through a tunnel). */
  options?: (url: URL) => HttpsRequestOptions;
}

let plain: Transport | undefined;
let secure: Promise<Transport> | undefined;
/** Agents that go through a proxy, one per proxy and scheme. */
const proxied = new Map<string, Promise<Transport>>();

/** Loads what requests to `url` need (https brings TLS, ~10 ms; a proxy its agent), so that the first one need not. */
export async function prepareHttp(url: string | undefined, proxy?: ProxySettings): Promise<void> {
  await transport(new URL(url ?? "https://localhost/"), proxy);
}

async function transport(url: URL, proxies?: ProxySettings): Promise<Transport | undefined> {
  const proxy = proxyFor(url, proxies);
  if (proxy) return throughProxy(url.protocol, proxy);
  if (url.protocol === "http:") return (plain ??= { request: http.request, agent: new http.Agent(KEEP_ALIVE) });
  if (url.protocol !== "https:") return undefined;
  secure ??= import("node:https").then((module) => ({ request: module.request, agent: new module.Agent(KEEP_ALIVE) }));
  return secure;
}

/** An agent that reaches `protocol` servers through `proxy`: a CONNECT tunnel for https, the absolute-URL form for http. */
function throughProxy(protocol: string, proxy: URL): Promise<Transport> {
  const key = `${protocol} ${proxy.href}`;
  let made = proxied.get(key);
  if (!made) {
    if (proxy.protocol !== "http:" && proxy.protocol !== "https:") {
      return Promise.reject(new TypeError("fetch failed", { cause: new Error(`the proxy ${describeProxy(proxy)} is not an http:// or https:// proxy, which is what pitwall speaks to`) }));
    }
    made =
      protocol === "https:"
        ? Promise.all([import("node:https"), import("node:tls"), import("https-proxy-agent")]).then(([https, tls, { HttpsProxyAgent }]) => ({
            request: https.request,
            agent: new HttpsProxyAgent(proxy, KEEP_ALIVE),
            // The agent starts TLS inside the tunnel without the server's host when it is an IP
            // address (a TLS server name cannot be one), and Node would then check the certificate
            // against "localhost": the check is given the server's own name.
            options: (url: URL) => ({ checkServerIdentity: (_host: string, cert: import("node:tls").PeerCertificate) => tls.checkServerIdentity(url.hostname.replace(/^\[(.*)\]$/, "$1"), cert) }),
          }))
        : import("http-proxy-agent").then(({ HttpProxyAgent }) => ({ request: http.request, agent: new HttpProxyAgent(proxy, KEEP_ALIVE) }));
    proxied.set(key, made);
  }
  return made;
}

/** A fetch on node:http that fails stalled requests with a StallError (see stall-guard.ts), through `proxy` where it applies. */
export function httpFetch(timeouts: StreamTimeouts, proxy?: ProxySettings): Fetch {
  return async (input, init = {}) => {
    // A Request carries its own method, headers and body; fetch knows what to do with those.
    if (typeof input !== "string" && !(input instanceof URL)) return globalThis.fetch(input, init);
    const url = new URL(input);
    const body = requestBody(init.body);
    const via = await transport(url, proxy);
    if (body === undefined || !via) return globalThis.fetch(input, init);
    const headers = outgoingHeaders(init.headers);
    if (body.type && !("content-type" in headers)) headers["content-type"] = body.type;
    if (!("accept-encoding" in headers)) headers["accept-encoding"] = "gzip, deflate, br";
    const response = await send({ url, via, method: (init.method ?? "GET").toUpperCase(), headers, body: body.bytes }, init, timeouts, proxy);
    // The SDKs and pitwall use what HttpResponse has of a Response (see http-response.ts).
    return response as unknown as Response;
  };
}

/** The body as bytes with its default type, or undefined for a body this client leaves to fetch. */
function requestBody(body: FetchInit["body"]): { bytes: Buffer | null; type?: string } | undefined {
  if (body === undefined || body === null) return { bytes: null };
  if (typeof body === "string") return { bytes: Buffer.from(body), type: "text/plain;charset=UTF-8" };
  if (body instanceof ArrayBuffer) return { bytes: Buffer.from(body) };
  if (ArrayBuffer.isView(body)) return { bytes: Buffer.from(body.buffer, body.byteOffset, body.byteLength) };
  if (body instanceof URLSearchParams) return { bytes: Buffer.from(body.toString()), type: "application/x-www-form-urlencoded;charset=UTF-8" };
  return undefined;
}

/** Headers as node:http takes them, names lower-cased: from a Headers, pairs or a record. */
function outgoingHeaders(source: FetchInit["headers"]): Record<string, string> {
  const headers: Record<string, string> = {};
  if (!source) return headers;
  const pairs: Iterable<readonly [string, string]> =
    Symbol.iterator in source ? (source as Iterable<[string, string]>) : Object.entries(source as Record<string, string>);
  for (const [name, value] of pairs) {
    const key = name.toLowerCase();
    headers[key] = key in headers ? `${headers[key]}, ${value}` : value;
  }
  return headers;
}

interface Outgoing {
  url: URL;
  via: Transport;
  method: string;
  headers: Record<string, string>;
  body: Buffer | null;
}

async function send(first: Outgoing, init: FetchInit, timeouts: StreamTimeouts, proxy: ProxySettings | undefined): Promise<HttpResponse> {
  const signal = init.signal ?? undefined;
  let request = first;
  for (let redirects = 0; ; redirects++) {
    const answer = await exchange(request, signal, timeouts.headerMs);
    const status = answer.statusCode ?? 0;
    const location = answer.headers.location;
    if (!REDIRECTS.has(status) || location === undefined || init.redirect === "manual") {
      return respond(answer, request, redirects > 0, signal, timeouts.idleMs);
    }
    answer.destroy();
    if (init.redirect === "error") throw new TypeError("fetch failed", { cause: new Error(`redirected to ${location}, and redirects were refused`) });
    if (redirects === MAX_REDIRECTS) throw new TypeError("fetch failed", { cause: new Error(`more than ${MAX_REDIRECTS} redirects`) });
    request = await redirected(request, status, location, proxy);
  }
}

/** The request a redirect asks for, as the Fetch standard makes it. */
async function redirected(from: Outgoing, status: number, location: string, proxy: ProxySettings | undefined): Promise<Outgoing> {
  const url = new URL(location, from.url);
  const via = await transport(url, proxy);
  if (!via) throw new TypeError("fetch failed", { cause: new Error(`redirected to ${url.protocol} ${url.href}, which is not HTTP`) });
  const headers = { ...from.headers };
  let { method, body } = from;
  if ((status === 303 && method !== "GET" && method !== "HEAD") || ((status === 301 || status === 302) && method === "POST")) {
    method = "GET";
    body = null;
    for (const name of ["content-type", "content-length", "content-encoding", "content-language", "content-location"]) delete headers[name];
  }
  if (url.origin !== from.url.origin) for (const name of CREDENTIALS) delete headers[name];
  return { url, via, method, headers, body };
}

/** Sends one request; resolves when its response headers arrive. */
function exchange(outgoing: Outgoing, signal: AbortSignal | undefined, headerMs: number): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const { url, via, method, headers, body } = outgoing;
    const request = via.request(url, { ...via.options?.(url), method, headers: body ? { ...headers, "content-length": String(body.length) } : headers, agent: via.agent });
    const settle = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    const fail = (error: unknown): void => {
      settle();
      reject(error);
      request.destroy();
    };
    const onAbort = (): void => fail(signal?.reason);
    const timer = setTimeout(() => fail(new StallError("headers", headerMs)), headerMs);
    signal?.addEventListener("abort", onAbort, { once: true });
    // As fetch does: a network failure is a TypeError whose cause says what failed.
    request.on("error", (error) => fail(new TypeError("fetch failed", { cause: error })));
    request.on("response", (answer) => {
      settle();
      resolve(answer);
    });
    request.end(body ?? undefined);
  });
}

async function respond(answer: http.IncomingMessage, request: Outgoing, redirected: boolean, signal: AbortSignal | undefined, idleMs: number): Promise<HttpResponse> {
  const headers = new Headers();
  for (let i = 0; i + 1 < answer.rawHeaders.length; i += 2) headers.append(answer.rawHeaders[i]!, answer.rawHeaders[i + 1]!);
  const status = answer.statusCode ?? 0;
  let body: ReadableStream<Uint8Array> | null = null;
  if (request.method === "HEAD" || NO_BODY.has(status)) answer.resume();
  else body = bodyStream(answer, await decoded(answer), signal, idleMs);
  return new HttpResponse({ status, statusText: answer.statusMessage ?? "", headers, body, url: request.url.href, redirected });
}

/** The body with its content coding undone (gzip, deflate, br), as fetch does. */
async function decoded(answer: http.IncomingMessage): Promise<Readable> {
  const coding = answer.headers["content-encoding"]?.trim().toLowerCase();
  if (coding !== "gzip" && coding !== "x-gzip" && coding !== "deflate" && coding !== "br") return answer;
  // Loaded only for a compressed answer; streams are flushed as they come, for server-sent events.
  const zlib = await import("node:zlib");
  const flush = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  const decoder =
    coding === "br"
      ? zlib.createBrotliDecompress({ flush: zlib.constants.BROTLI_OPERATION_FLUSH, finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH })
      : coding === "deflate"
        ? zlib.createInflate(flush)
        : zlib.createGunzip(flush);
  answer.on("error", (error) => decoder.destroy(error));
  return answer.pipe(decoder);
}

/**
 * The body as a web stream that keeps at most a few chunks ahead of its reader. A connection cut
 * short errors it with a TypeError ("terminated", as fetch says), an abort with the signal's
 * reason, and silence longer than `idleMs` while the reader waits with a StallError.
 */
function bodyStream(answer: http.IncomingMessage, source: Readable, signal: AbortSignal | undefined, idleMs: number): ReadableStream<Uint8Array> {
  let idle: NodeJS.Timeout | undefined;
  let ended = false;
  let stop: (error?: unknown) => void = () => undefined;
  const wait = (): void => {
    clearTimeout(idle);
    idle = setTimeout(() => stop(new StallError("body", idleMs)), idleMs);
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const onAbort = (): void => stop(signal?.reason);
        stop = (error) => {
          if (ended) return;
          ended = true;
          clearTimeout(idle);
          signal?.removeEventListener("abort", onAbort);
          if (error === undefined) {
            controller.close();
            return;
          }
          controller.error(error);
          source.destroy();
          answer.destroy();
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        if (signal?.aborted) return onAbort();
        source.on("data", (chunk: Buffer) => {
          // A resume the reader asked for runs on the next tick and may hand over what the source
          // had buffered after the body was cancelled or failed (destroy keeps the buffer).
          if (ended) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          // A reader that keeps up is waiting for more: the silence counts. One that does not
          // holds the stream back, and its own pace is no stall.
          if ((controller.desiredSize ?? 0) > 0) wait();
          else {
            clearTimeout(idle);
            source.pause();
          }
        });
        source.on("end", () => stop());
        source.on("error", (error) => stop(new TypeError("terminated", { cause: error })));
        // A response cut short without an error (the socket closed before the last byte).
        answer.on("close", () => {
          if (!answer.complete) stop(new TypeError("terminated", { cause: Object.assign(new Error("the connection closed before the response ended"), { code: "ECONNRESET" }) }));
        });
        wait();
      },
      pull() {
        if (ended || !source.isPaused()) return;
        wait();
        source.resume();
      },
      cancel() {
        ended = true;
        clearTimeout(idle);
        source.destroy();
        answer.destroy();
      },
    },
    { highWaterMark: 16 },
  );
}
