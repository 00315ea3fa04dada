// The fake LLM HTTP server on 127.0.0.1: routes Anthropic Messages and OpenAI Chat Completions
// requests, records each one, and answers with the next scripted reply or error in the real
// streaming wire format, so the real SDK clients run against it unmocked.

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { anthropicError, anthropicStream } from "./anthropic-sse.js";
import { openaiError, openaiStream } from "./openai-sse.js";
import { imagesOf } from "./request-images.js";
import { responsesStream } from "./responses-sse.js";
import type { ErrorReply } from "./reply-parts.js";
import { RequestLog } from "./request-log.js";
import type { FakeApi, FakeError, FakeLlm, FakeLlmOptions, FakeReply, FakeScript, RecordedRequest } from "./script.js";
import { writeSse } from "./sse-stream.js";
import { transcriptOf } from "./transcript.js";

const NO_REPLY_LEFT: FakeError = { kind: "error", status: 500, message: "fake LLM: no scripted reply left" };

const ROUTES: Record<string, FakeApi> = {
  "/v1/messages": "anthropic",
  "/v1/chat/completions": "openai",
  "/v1/responses": "responses",
};

export async function startFakeLlm(options: FakeLlmOptions = {}): Promise<FakeLlm> {
  const log = new RequestLog(options.keepRequests);
  const queue: FakeScript[] = [];
  let fallback: FakeScript | undefined;
  let summaryReply: FakeScript | undefined;

  const nextOutcome = (request: RecordedRequest): FakeReply | FakeError => {
    const script = (summaryReply && isSummaryRequest(request) ? summaryReply : undefined) ?? queue.shift() ?? fallback ?? NO_REPLY_LEFT;
    let outcome: FakeReply | FakeError;
    if (typeof script !== "function") outcome = script;
    else {
      try {
        outcome = script(request);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        return { kind: "error", status: 500, message: `fake LLM: the scripted reply function threw: ${reason}` };
      }
    }
    return outcome.kind === "reply" && outcome.estimateUsage && !outcome.usage ? { ...outcome, usage: estimatedUsage(request, outcome) } : outcome;
  };

  const handleModelRequest = async (api: FakeApi, req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const raw = await readBody(req);
    let body: unknown;
    try {
      body = raw.length > 0 ? JSON.parse(raw) : undefined;
    } catch {
      body = undefined;
    }
    const json = isRecord(body) ? body : {};
    const request: RecordedRequest = {
      api,
      path: req.url ?? "",
      method: req.method ?? "",
      headers: { ...req.headers },
      body,
      bodyBytes: Buffer.byteLength(raw),
      json,
      transcript: transcriptOf(body),
      images: imagesOf(body),
      receivedAt: Date.now(),
    };
    log.record(request);

    const toError = api === "anthropic" ? anthropicError : openaiError;
    // Problems with the request itself are answered without consuming a scripted reply.
    if (body === undefined) {
      return sendError(res, toError({ kind: "error", status: 400, message: "fake LLM: the request body is not JSON" }));
    }
    if (!hasAuth(api, req)) {
      const expected = api === "anthropic" ? "an x-api-key or Authorization header" : "an Authorization: Bearer header";
      return sendError(res, toError({ kind: "error", status: 401, message: `fake LLM: the request has no API key (expected ${expected})` }));
    }
    if (json["stream"] !== true) {
      return sendError(res, toError({ kind: "error", status: 400, message: "fake LLM: only streaming requests are supported (set stream: true)" }));
    }

    const outcome = nextOutcome(request);
    if (outcome.kind === "error") return sendError(res, toError(outcome));
    const model = typeof json["model"] === "string" ? json["model"] : "fake-model";
    const plan =
      api === "anthropic"
        ? anthropicStream(outcome, model)
        : api === "responses"
          ? responsesStream(outcome, { model, encryptedReasoning: wantsEncryptedReasoning(json) })
          : openaiStream(outcome, { model, includeUsage: wantsUsage(json) });
    await writeSse(res, plan, outcome);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? "").split("?")[0] ?? "";
    const api = ROUTES[path];
    if (req.method === "POST" && api !== undefined) return handleModelRequest(api, req, res);
    if (req.method === "GET" && path === "/v1/models") return sendModels(req, res);
    const toError = req.headers["anthropic-version"] !== undefined ? anthropicError : openaiError;
    sendError(res, toError({ kind: "error", status: 404, message: `fake LLM: no route for ${req.method} ${path}` }));
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      if (!res.headersSent) {
        sendError(res, openaiError({ kind: "error", status: 500, message: `fake LLM: internal error: ${reason}` }));
      } else {
        res.destroy();
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  let closing: Promise<void> | undefined;
  return {
    url,
    anthropicBaseUrl: url,
    openaiBaseUrl: `${url}/v1`,
    requests: log.requests,
    enqueue: (...scripts) => {
      queue.push(...scripts);
    },
    setFallback: (script) => {
      fallback = script;
    },
    setSummaryReply: (script) => {
      summaryReply = script;
    },
    waitForRequest: (count, timeoutMs) => log.waitForRequest(count, timeoutMs),
    waitFor: (predicate, timeoutMs) => log.waitFor(predicate, timeoutMs),
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        log.rejectAll("fake LLM: the server was closed before the request arrived");
        server.close(() => resolve());
        // Held-open streams and idle keep-alive connections would otherwise keep close() waiting.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/** A request offering no tools whose system prompt asks for a summary: an agent compacting its conversation. */
function isSummaryRequest(request: RecordedRequest): boolean {
  const tools = request.json["tools"];
  if (Array.isArray(tools) && tools.length > 0) return false;
  return request.transcript.split("\n").some((line) => line.startsWith("system:") && /summar/i.test(line));
}

function estimatedUsage(request: RecordedRequest, reply: FakeReply): { input: number; output: number } {
  const replyChars = (reply.text ?? "").length + (reply.thinking ?? "").length + (reply.toolCalls ?? []).reduce((n, c) => n + JSON.stringify(c.arguments).length, 0);
  return { input: Math.ceil(request.bodyBytes / 4), output: Math.ceil(replyChars / 4) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function headerValue(req: IncomingMessage, name: string): string {
  const value = req.headers[name];
  return (Array.isArray(value) ? value[0] : value)?.trim() ?? "";
}

/** Any key is accepted, but one must be sent, the way each SDK sends it. */
function hasAuth(api: FakeApi, req: IncomingMessage): boolean {
  const bearer = /^Bearer\s+\S/i.test(headerValue(req, "authorization"));
  return api === "anthropic" ? headerValue(req, "x-api-key") !== "" || bearer : bearer;
}

function wantsUsage(json: Record<string, unknown>): boolean {
  const streamOptions = json["stream_options"];
  return isRecord(streamOptions) && streamOptions["include_usage"] === true;
}

function wantsEncryptedReasoning(json: Record<string, unknown>): boolean {
  const include = json["include"];
  return Array.isArray(include) && include.includes("reasoning.encrypted_content");
}

function sendError(res: ServerResponse, reply: ErrorReply): void {
  res.writeHead(reply.status, reply.headers);
  res.end(reply.body);
}

function sendModels(req: IncomingMessage, res: ServerResponse): void {
  // Both APIs list models at GET /v1/models; only the Anthropic SDK sends anthropic-version.
  const body =
    req.headers["anthropic-version"] !== undefined
      ? {
          data: [{ type: "model", id: "fake-claude", display_name: "Fake Claude", created_at: "2025-01-01T00:00:00Z" }],
          has_more: false,
          first_id: "fake-claude",
          last_id: "fake-claude",
        }
      : { object: "list", data: [{ id: "fake-gpt", object: "model", created: 1735689600, owned_by: "fake-llm" }] };
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}
