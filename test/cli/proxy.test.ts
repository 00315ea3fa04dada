// Provider requests behind a proxy, through the real CLI: HTTPS_PROXY tunnels an https:// provider
// through CONNECT (with the credentials of the proxy's URL, which appear nowhere else), HTTP_PROXY
// carries an http:// one, NO_PROXY goes around the proxy, and a proxy that cannot be reached is
// named in the error without its password.
import { createServer as createHttpServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import { connect as connectTcp, createServer as createTcpServer, type AddressInfo, type Socket } from "node:net";
import { createServer as createTlsServer } from "node:tls";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";
import { cliEnv, runCli } from "../helpers/cli-process.js";
import { tempDir } from "../helpers/temp-dir.js";
import { TEST_TLS_CERT, TEST_TLS_KEY } from "../helpers/tls-test-cert.js";

const llm = useFakeLlm();
const PASSWORD = "s3cret-proxy-pass";

interface Seen {
  method: string;
  target: string;
  auth: string | undefined;
}

/** A small forward proxy on loopback: CONNECT tunnels, and plain requests in absolute-URL form. */
function startProxy(): Promise<{ server: Server; url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  const server = createHttpServer((request: IncomingMessage, response) => {
    seen.push({ method: request.method ?? "", target: request.url ?? "", auth: request.headers["proxy-authorization"] });
    const target = new URL(request.url ?? "");
    const headers = { ...request.headers };
    delete headers["proxy-authorization"];
    delete headers["proxy-connection"];
    const upstream = httpRequest({ host: target.hostname, port: target.port, path: target.pathname + target.search, method: request.method, headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    request.pipe(upstream);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.on("connect", (request: IncomingMessage, client: Socket, head: Buffer) => {
    seen.push({ method: "CONNECT", target: request.url ?? "", auth: request.headers["proxy-authorization"] });
    const [host, port] = (request.url ?? "").split(":");
    const upstream = connectTcp(Number(port), host!, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  });
  server.on("close", () => sockets.forEach((s) => s.destroy()));
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen })));
}

let proxy: Awaited<ReturnType<typeof startProxy>>;
let tlsPort = 0;
let tlsFront: ReturnType<typeof createTlsServer>;
let caFile = "";

beforeAll(async () => {
  proxy = await startProxy();
  // An https:// provider: TLS in front of the fake LLM, with a certificate the CLI is told to trust.
  const llmPort = Number(new URL(llm.url).port);
  tlsFront = createTlsServer({ key: TEST_TLS_KEY, cert: TEST_TLS_CERT }, (socket) => {
    const upstream = connectTcp(llmPort, "127.0.0.1");
    socket.pipe(upstream).pipe(socket);
    socket.on("error", () => upstream.destroy());
    upstream.on("error", () => socket.destroy());
  });
  await new Promise<void>((resolve) => tlsFront.listen(0, "127.0.0.1", resolve));
  tlsPort = (tlsFront.address() as AddressInfo).port;
  caFile = join(tempDir("ca"), "ca.pem");
  writeFileSync(caFile, TEST_TLS_CERT);
});

afterAll(async () => {
  proxy.server.closeAllConnections();
  await new Promise((resolve) => proxy.server.close(resolve));
  await new Promise((resolve) => tlsFront.close(resolve));
});

function env(extra: Record<string, string>, baseUrl = `https://127.0.0.1:${tlsPort}`): NodeJS.ProcessEnv {
  return cliEnv({ apiKey: "sk-test-0123456789", anthropicBaseUrl: baseUrl, extra: { NODE_EXTRA_CA_CERTS: caFile, ...extra } });
}

describe("behind a proxy", () => {
  it("HTTPS_PROXY tunnels the provider's requests through CONNECT, with the URL's credentials", async () => {
    proxy.seen.length = 0;
    llm.enqueue({ kind: "reply", text: "through the tunnel" });
    const proxyUrl = proxy.url.replace("//", `//alice:${PASSWORD}@`);
    const result = await runCli(["-p", "hello", "--no-session"], env({ HTTPS_PROXY: proxyUrl }));
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("through the tunnel\n");
    expect(result.code).toBe(0);
    expect(proxy.seen).toEqual([{ method: "CONNECT", target: `127.0.0.1:${tlsPort}`, auth: `Basic ${Buffer.from(`alice:${PASSWORD}`).toString("base64")}` }]);
    expect(llm.requests).toHaveLength(1);
  });

  it("http_proxy (lower case) carries an http:// provider's requests in the proxy's absolute form", async () => {
    proxy.seen.length = 0;
    llm.enqueue({ kind: "reply", text: "via http proxy" });
    const result = await runCli(["-p", "hello", "--no-session"], env({ http_proxy: proxy.url }, llm.anthropicBaseUrl));
    expect(result.stdout).toBe("via http proxy\n");
    expect(proxy.seen.map((s) => `${s.method} ${s.target}`)).toEqual([`POST ${llm.url}/v1/messages`]);
  });

  it("NO_PROXY sends the request around the proxy", async () => {
    proxy.seen.length = 0;
    llm.enqueue({ kind: "reply", text: "direct" });
    const result = await runCli(["-p", "hello", "--no-session"], env({ HTTPS_PROXY: proxy.url, no_proxy: "example.com, 127.0.0.1" }));
    expect(result.stdout).toBe("direct\n");
    expect(result.code).toBe(0);
    expect(proxy.seen).toEqual([]);
    expect(llm.requests).toHaveLength(1);
  });

  it("a proxy that cannot be reached is named without its password, in the message and the session", async () => {
    const closed = createTcpServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const home = tempDir("home");
    const runEnv = cliEnv({ home, apiKey: "sk-test-0123456789", anthropicBaseUrl: `https://127.0.0.1:${tlsPort}`, extra: { HTTPS_PROXY: `http://bob:${PASSWORD}@127.0.0.1:${port}`, PITWALL_RETRY_BASE_MS: "1" } });
    const result = await runCli(["-p", "hello"], runEnv);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`through the proxy http://127.0.0.1:${port}`);
    expect(result.stderr).toContain("ECONNREFUSED");
    expect(result.stderr).not.toContain(PASSWORD);
    const sessions = join(runEnv.PITWALL_HOME!, "sessions");
    const files = readdirSync(sessions, { recursive: true }).map(String).filter((f) => f.endsWith(".jsonl"));
    expect(files).toHaveLength(1);
    const session = readFileSync(join(sessions, files[0]!), "utf8");
    expect(session).toContain("through the proxy");
    expect(session).not.toContain(PASSWORD);
  });
});
