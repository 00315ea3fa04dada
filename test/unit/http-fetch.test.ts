// pitwall's HTTP client (agent/providers/http-fetch.ts) against a real server on 127.0.0.1: what
// it sends, what it answers (compared with Node's own fetch where both apply), streaming, the
// two stall timers, aborts, dropped connections, compression, redirects and kept connections.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createTlsServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { httpFetch } from "../../agent/providers/http-fetch.js";
import { findStall, StallError } from "../../agent/providers/stall-guard.js";
import { assertBuilt, REPO_ROOT } from "../helpers/cli-process.js";
import { tempDir } from "../helpers/temp-dir.js";
import { TEST_TLS_CERT, TEST_TLS_KEY } from "../helpers/tls-test-cert.js";

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

let server: Server;
let base: string;
let handler: Handler;
const sockets = new Set<Socket>();
const fetchIt = httpFetch({ headerMs: 2_000, idleMs: 2_000 });

beforeEach(async () => {
  server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on("data", (part: Buffer) => parts.push(part));
    request.on("end", () => handler(request, Buffer.concat(parts).toString("utf8"), response));
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => server.close(resolve));
});

/** Reads a stream to its end, chunk by chunk. */
async function chunksOf(body: ReadableStream<Uint8Array> | null): Promise<string[]> {
  const out: string[] = [];
  const decoder = new TextDecoder();
  for await (const part of body!) out.push(decoder.decode(part));
  return out;
}

describe("httpFetch", () => {
  it("sends the method, headers and body, and answers as Node's fetch does", async () => {
    const seen: Array<{ method?: string; headers: IncomingMessage["headers"]; body: string }> = [];
    handler = (request, body, response) => {
      seen.push({ method: request.method, headers: request.headers, body });
      response.writeHead(201, "Made", [["X-Request-Id", "r1"], ["Set-Cookie", "a=1"], ["Set-Cookie", "b=2"], ["Content-Type", "application/json"]]);
      response.end('{"ok":true}');
    };
    const init = { method: "post", headers: new Headers({ "X-Api-Key": "secret", "Content-Type": "application/json" }), body: '{"q":1}' };
    const ours = await fetchIt(`${base}/v1/messages`, init);
    const node = await fetch(`${base}/v1/messages`, init);

    expect(seen[0]).toMatchObject({ method: "POST", body: '{"q":1}' });
    expect(seen[0]!.headers).toMatchObject({ "x-api-key": "secret", "content-type": "application/json", "content-length": "7" });
    for (const key of ["status", "statusText", "ok", "url", "redirected"] as const) expect(ours[key]).toEqual(node[key]);
    expect([...ours.headers].filter(([name]) => name !== "date")).toEqual([...node.headers].filter(([name]) => name !== "date"));
    expect(ours.headers.get("x-request-id")).toBe("r1");
    expect(await ours.json()).toEqual(await node.json());
    expect(ours.bodyUsed).toBe(true);
    await expect(ours.text()).rejects.toThrow(TypeError);
  });

  it("gives a string body a text type unless one is set, and takes bytes and records of headers", async () => {
    const seen: IncomingMessage["headers"][] = [];
    handler = (request, body, response) => {
      seen.push({ ...request.headers, body });
      response.end();
    };
    await (await fetchIt(base, { method: "POST", body: "plain" })).text();
    await (await fetchIt(base, { method: "PUT", body: new TextEncoder().encode("bytes"), headers: { "Content-Type": "application/octet-stream" } })).text();
    expect(seen[0]).toMatchObject({ "content-type": "text/plain;charset=UTF-8", body: "plain" });
    expect(seen[1]).toMatchObject({ "content-type": "application/octet-stream", body: "bytes", "content-length": "5" });
  });

  it("streams the body as it arrives, before the server ends it", async () => {
    let finish: () => void = () => undefined;
    handler = (_request, _body, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("data: one\n\n");
      finish = () => response.end("data: two\n\n");
    };
    const response = await fetchIt(base);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("data: one\n\n");
    finish();
    const second = await reader.read();
    expect(new TextDecoder().decode(second.value)).toBe("data: two\n\n");
    expect((await reader.read()).done).toBe(true);
  });

  it("has no body for 204 and HEAD, and clones a body for two readers", async () => {
    handler = (request, _body, response) => {
      if (request.url === "/none") response.writeHead(204).end();
      else response.end("twice");
    };
    expect((await fetchIt(`${base}/none`)).body).toBeNull();
    expect((await fetchIt(base, { method: "HEAD" })).body).toBeNull();
    const response = await fetchIt(base);
    const copy = response.clone();
    expect(await copy.text()).toBe("twice");
    expect(await response.text()).toBe("twice");
  });

  it("fails a request whose headers do not come in time with a StallError", async () => {
    handler = () => undefined; // never answers
    const slow = httpFetch({ headerMs: 150, idleMs: 5_000 });
    const failure = await slow(base).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StallError);
    expect((failure as StallError).stage).toBe("headers");
  });

  it("fails a body that goes silent while its reader waits, but not while a reader that fell behind catches up", async () => {
    handler = (request, _body, response) => {
      response.writeHead(200);
      if (request.url === "/silent") {
        response.write("a".repeat(100));
        return;
      }
      // Far more than the stream keeps queued, then a silence longer than the idle time.
      for (let i = 0; i < 40; i++) response.write("b".repeat(65_536));
      setTimeout(() => response.end("c"), 400);
    };
    const quick = httpFetch({ headerMs: 5_000, idleMs: 150 });
    const silent = await quick(`${base}/silent`);
    const failure = await chunksOf(silent.body).catch((error: unknown) => error);
    expect(findStall(failure)?.stage).toBe("body");

    const behind = await quick(`${base}/behind`);
    await new Promise((resolve) => setTimeout(resolve, 600));
    const text = (await chunksOf(behind.body)).join("");
    expect(text).toBe(`${"b".repeat(40 * 65_536)}c`);
  });

  it("rejects with the signal's reason when aborted before the headers or while reading", async () => {
    handler = (request, _body, response) => {
      if (request.url === "/started") {
        response.writeHead(200);
        response.write("partial");
      }
    };
    const before = new AbortController();
    const pending = fetchIt(base, { signal: before.signal });
    before.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    await expect(fetchIt(base, { signal: before.signal })).rejects.toMatchObject({ name: "AbortError" });

    const during = new AbortController();
    const response = await fetchIt(`${base}/started`, { signal: during.signal });
    const reader = response.body!.getReader();
    await reader.read();
    during.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: "AbortError" });
  });

  it("sends nothing more to a body cancelled or aborted just as its reader made room (it once threw ERR_INVALID_STATE, uncaught)", async () => {
    handler = (_request, _body, response) => {
      response.writeHead(200);
      for (let i = 0; i < 200; i++) response.write("b".repeat(65_536));
    };
    for (const how of ["cancel", "abort"] as const) {
      for (let round = 0; round < 5; round++) {
        const controller = new AbortController();
        const response = await fetchIt(base, { signal: controller.signal });
        const reader = response.body!.getReader();
        // The stream's queue fills and the socket's reading pauses; a read makes room, and the reading
        // resumes on the next tick, with chunks already buffered: the body ends before that tick.
        await new Promise((resolve) => setTimeout(resolve, 30));
        await reader.read();
        if (how === "cancel") await reader.cancel();
        else controller.abort();
        await new Promise((resolve) => setTimeout(resolve, 20));
        if (how === "abort") await expect(reader.read()).rejects.toMatchObject({ name: "AbortError" });
      }
    }
  });

  it("reports a refused connection and one cut mid-body as fetch does: a TypeError with the cause", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = await fetchIt(`http://127.0.0.1:${port}/`).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TypeError);
    expect((refused as Error).message).toBe("fetch failed");
    expect((refused as { cause?: { code?: string } }).cause?.code).toBe("ECONNREFUSED");

    handler = (_request, _body, response) => {
      response.writeHead(200, { "content-length": "1000" });
      response.write("only part", () => response.socket?.destroy());
    };
    const cut = await fetchIt(base);
    const failure = await chunksOf(cut.body).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as Error).message).toBe("terminated");
  });

  it("undoes gzip, as fetch does", async () => {
    handler = (_request, _body, response) => {
      response.writeHead(200, { "content-encoding": "gzip", "content-type": "application/json" });
      response.end(gzipSync(JSON.stringify({ compressed: true })));
    };
    expect(await (await fetchIt(base)).json()).toEqual({ compressed: true });
  });

  it("follows redirects: 307 sends the body again, 303 turns into a GET, another origin loses the credentials", async () => {
    const seen: Array<{ url?: string; method?: string; body: string; key?: string | string[] }> = [];
    const other = createServer((request, response) => {
      seen.push({ url: `other${request.url}`, method: request.method, body: "", key: request.headers["x-api-key"] });
      response.end("elsewhere");
    });
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    const otherBase = `http://localhost:${(other.address() as AddressInfo).port}`;
    try {
      handler = (request, body, response) => {
        seen.push({ url: request.url, method: request.method, body, key: request.headers["x-api-key"] });
        if (request.url === "/keep") response.writeHead(307, { location: "/kept" }).end();
        else if (request.url === "/see") response.writeHead(303, { location: `${otherBase}/seen` }).end();
        else response.end("here");
      };
      const kept = await fetchIt(`${base}/keep`, { method: "POST", body: "again", headers: { "x-api-key": "k" } });
      expect(await kept.text()).toBe("here");
      expect(kept.redirected).toBe(true);
      expect(kept.url).toBe(`${base}/kept`);
      const seen303 = await fetchIt(`${base}/see`, { method: "POST", body: "dropped", headers: { "x-api-key": "k" } });
      expect(await seen303.text()).toBe("elsewhere");
      expect(seen).toEqual([
        { url: "/keep", method: "POST", body: "again", key: "k" },
        { url: "/kept", method: "POST", body: "again", key: "k" },
        { url: "/see", method: "POST", body: "dropped", key: "k" },
        { url: "other/seen", method: "GET", body: "", key: undefined },
      ]);
      const manual = await fetchIt(`${base}/keep`, { redirect: "manual" });
      expect(manual.status).toBe(307);
      await expect(fetchIt(`${base}/keep`, { redirect: "error" })).rejects.toThrow("fetch failed");
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it("sends the next request on the connection the last one used", async () => {
    const ports = new Set<number>();
    handler = (request, _body, response) => {
      ports.add(request.socket.remotePort ?? 0);
      response.end("x");
    };
    for (let i = 0; i < 3; i++) await (await fetchIt(base, { method: "POST", body: "{}" })).text();
    expect(ports.size).toBe(1);
  });
  it("speaks https, checking the certificate: refused when untrusted, streamed when trusted", async () => {
    const tls = createTlsServer({ key: TEST_TLS_KEY, cert: TEST_TLS_CERT }, (_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("data: one\n\n");
      setTimeout(() => response.end("data: two\n\n"), 20);
    });
    await new Promise<void>((resolve) => tls.listen(0, "127.0.0.1", resolve));
    const url = `https://127.0.0.1:${(tls.address() as AddressInfo).port}/v1/messages`;
    try {
      const untrusted = await fetchIt(url, { method: "POST", body: "{}" }).catch((error: unknown) => error);
      expect(untrusted).toBeInstanceOf(TypeError);
      expect((untrusted as { cause?: { code?: string } }).cause?.code).toBe("DEPTH_ZERO_SELF_SIGNED_CERT");

      // Trusted the way a person trusts a private CA: NODE_EXTRA_CA_CERTS, read when Node starts.
      assertBuilt();
      const folder = tempDir("tls");
      writeFileSync(join(folder, "ca.pem"), TEST_TLS_CERT);
      const module = JSON.stringify(join(REPO_ROOT, "dist", "agent", "providers", "http-fetch.js"));
      const script = `const { httpFetch } = await import(${module}); const r = await httpFetch({ headerMs: 5000, idleMs: 5000 })(${JSON.stringify(url)}, { method: "POST", body: "{}" }); const parts = []; for await (const p of r.body) parts.push(new TextDecoder().decode(p)); console.log(JSON.stringify({ status: r.status, parts }));`;
      const child = spawn(process.execPath, ["--input-type=module", "-e", script], { env: { PATH: process.env.PATH ?? "", NODE_EXTRA_CA_CERTS: join(folder, "ca.pem") } });
      let out = "";
      child.stdout.on("data", (d: Buffer) => (out += d.toString()));
      child.stderr.on("data", (d: Buffer) => (out += d.toString()));
      const code = await new Promise((resolve) => child.on("close", resolve));
      expect(code, out).toBe(0);
      const answer = JSON.parse(out) as { status: number; parts: string[] };
      expect(answer.status).toBe(200);
      expect(answer.parts.join("")).toBe("data: one\n\ndata: two\n\n");
    } finally {
      await new Promise((resolve) => tls.close(resolve));
    }
  });
});
