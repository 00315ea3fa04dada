// Turns whatever an SDK threw into a ProviderError whose message says what happened and what to do
// next, and decides whether trying again can help (429, 5xx, dropped connections: yes; 4xx: no).
// A request longer than the model's context window is its own kind, "overflow": the agent loop
// answers it by compacting the conversation, not by waiting.
import { isContextOverflow } from "../context/overflow.js";
import { ProviderError } from "./provider.js";
import { findStall } from "./stall-guard.js";

export interface FailureContext {
  /** "Anthropic" or "OpenAI" (or the base URL's host for a compatible server). */
  label: string;
  /** The environment variable that holds the key. */
  keyVariable: string;
  model: string;
  baseUrl?: string;
  /** The proxy requests go through, without its credentials (proxy.ts's describeProxy). */
  proxy?: string;
}

interface HttpLikeError {
  status?: number;
  headers?: unknown;
  message?: string;
  error?: unknown;
  cause?: unknown;
  name?: string;
}

/**
 * Whether an error is the SDK's (or fetch's) answer to our own abort. Only its name says so: a
 * network failure whose text contains "aborted" (Node's "aborted" when a response is cut, a
 * proxy's "request aborted") is a dropped connection, to be retried, not the person's Esc. The
 * callers check their own signal too.
 */
export function isAbortError(error: unknown): boolean {
  if (!(error instanceof Error) || error instanceof ProviderError) return false;
  return error.name === "AbortError" || error.name === "APIUserAbortError";
}

/** In-stream error types that are the server's trouble, not the request's: worth another attempt. */
const RETRYABLE_STREAM_ERRORS = /overloaded|api_error|server_error|internal|rate_limit|timeout/i;

export function toProviderError(error: unknown, context: FailureContext): ProviderError {
  if (error instanceof ProviderError) return error;
  const stall = findStall(error);
  if (stall) {
    // The person's settings (app/settings.ts): the variable, or the field of config.json.
    const knob = stall.stage === "headers" ? "PITWALL_HEADER_TIMEOUT_MS or headerTimeoutMs in config.json" : "PITWALL_IDLE_TIMEOUT_MS or idleTimeoutMs in config.json";
    return new ProviderError(
      `The request to ${context.baseUrl ?? context.label} stalled: ${stall.message}. Check the network or the server; ${knob} sets how long pitwall waits.`,
      "connection",
      { retryable: true, detail: stall.message },
    );
  }
  const e = (typeof error === "object" && error !== null ? error : { message: String(error) }) as HttpLikeError;
  const status = typeof e.status === "number" ? e.status : undefined;
  const serverMessage = extractServerMessage(e);
  const overflowText = `${errorCodeOf(e.error) ?? ""} ${serverMessage}`;
  if (status !== undefined && isContextOverflow(status, overflowText)) {
    const said = serverMessage ? ` (${serverMessage})` : "";
    return new ProviderError(`${context.label} rejected the request as longer than the context window of ${context.model}${said}.`, "overflow", {
      status,
      retryable: false,
      detail: serverMessage,
    });
  }
  if (status === 407 && context.proxy) {
    return new ProviderError(
      `The proxy ${context.proxy} asks for credentials (407): put them in the proxy's URL (http://user:password@host:port in HTTPS_PROXY or HTTP_PROXY).`,
      "http",
      { status, retryable: false, detail: serverMessage },
    );
  }
  if (status !== undefined) {
    const retryAfterMs = retryAfterFrom(e.headers);
    const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
    return new ProviderError(describeStatus(status, serverMessage, context), "http", { status, retryAfterMs, retryable, detail: serverMessage });
  }
  const errorType = errorTypeOf(e.error);
  // An error event inside the stream (Anthropic sends overloaded_error this way).
  if (errorType) return inStreamError(`${errorType} ${errorCodeOf(e.error) ?? ""}`.trim(), serverMessage, context);
  const code = connectionCode(e);
  const where = `${context.baseUrl ?? context.label}${context.proxy ? ` through the proxy ${context.proxy} (HTTPS_PROXY / HTTP_PROXY; NO_PROXY skips it)` : ""}`;
  if (code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "EAI_AGAIN") {
    return new ProviderError(
      `Could not reach ${where} (${code}): is the server running and is the address right? Check --base-url.`,
      "connection",
      { retryable: true, detail: code },
    );
  }
  return new ProviderError(
    `The connection to ${where} failed or dropped mid-stream (${code ?? serverMessage}): check the network or the server, then try again.`,
    "connection",
    { retryable: true, detail: code ?? serverMessage },
  );
}

/**
 * An error the server reported inside a stream that had started (Anthropic's `error` event, the
 * Responses API's `error` and `response.failed`): retried when the type says the server was busy.
 */
export function inStreamError(errorType: string, serverMessage: string, context: FailureContext): ProviderError {
  if (isContextOverflow(undefined, `${errorType} ${serverMessage}`)) {
    return new ProviderError(`${context.label} rejected the request as longer than the context window of ${context.model} (${serverMessage}).`, "overflow", { retryable: false, detail: serverMessage });
  }
  const retryable = RETRYABLE_STREAM_ERRORS.test(errorType);
  return new ProviderError(`${context.label} reported ${errorType} mid-stream: ${serverMessage}`, "stream", { retryable, detail: serverMessage });
}

function describeStatus(status: number, serverMessage: string, c: FailureContext): string {
  const said = serverMessage ? ` (${serverMessage})` : "";
  if (status === 401 || status === 403) {
    const where = c.baseUrl ? ` for ${c.baseUrl}` : "";
    return `${c.label} returned ${status}${said}: check ${c.keyVariable} or --api-key${where}.`;
  }
  if (status === 404) return `${c.label} returned 404 for model '${c.model}'${said}: check --model${c.baseUrl ? " and --base-url" : ""}.`;
  if (status === 429) return `${c.label} is rate limiting requests (429)${said}: wait a little, or switch model with /model.`;
  if (status >= 500) return `${c.label} failed with ${status}${said}: the service is having trouble; try again shortly.`;
  return `${c.label} rejected the request with ${status}${said}.`;
}

function extractServerMessage(e: HttpLikeError): string {
  const body = e.error;
  if (typeof body === "object" && body !== null) {
    const inner = (body as { error?: unknown }).error;
    const source = typeof inner === "object" && inner !== null ? inner : body;
    const message = (source as { message?: unknown }).message;
    if (typeof message === "string" && message) return message;
  }
  const text = typeof e.message === "string" ? e.message : "";
  // SDK messages start with the status ("429 {json}"); keep just the readable part.
  return text.replace(/^\d{3}\s+/, "").slice(0, 300);
}

function errorTypeOf(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const inner = (body as { error?: unknown }).error;
  const source = (typeof inner === "object" && inner !== null ? inner : body) as { type?: unknown; code?: unknown };
  // OpenAI sometimes names the error only by its code.
  const type = typeof source.type === "string" && source.type !== "error" ? source.type : source.code;
  return typeof type === "string" && type !== "error" ? type : undefined;
}

/** OpenAI's machine-readable `code` (context_length_exceeded, …). */
function errorCodeOf(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const inner = (body as { error?: unknown }).error;
  const code = typeof inner === "object" && inner !== null ? (inner as { code?: unknown }).code : (body as { code?: unknown }).code;
  return typeof code === "string" ? code : undefined;
}

function connectionCode(e: HttpLikeError): string | undefined {
  for (let cause: unknown = e, depth = 0; cause && depth < 5; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string") return code;
    cause = (cause as { cause?: unknown }).cause;
  }
  return undefined;
}

/** `retry-after-ms`, or `retry-after` as seconds or an HTTP date. */
export function retryAfterFrom(headers: unknown): number | undefined {
  const get = (name: string): string | null => {
    if (!headers) return null;
    if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name);
    const value = (headers as Record<string, unknown>)[name];
    return typeof value === "string" ? value : null;
  };
  const ms = Number(get("retry-after-ms"));
  if (get("retry-after-ms") !== null && Number.isFinite(ms) && ms >= 0) return ms;
  const raw = get("retry-after");
  if (raw === null) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
