// What an SDK's failure becomes: a ProviderError whose message says what happened and what to do,
// retryable when trying again can help. Only our own abort is an abort.
import { describe, expect, it } from "vitest";
import { isAbortError, toProviderError } from "../../agent/providers/errors.js";
import { ProviderError } from "../../agent/providers/provider.js";

const context = { label: "Anthropic", keyVariable: "ANTHROPIC_API_KEY", model: "claude-sonnet-5-5" };
const http = (status: number, extra: object = {}) => Object.assign(new Error(`${status} {"error":{"message":"said so"}}`), { status, ...extra });

describe("provider errors", () => {
  it("classifies HTTP statuses: 429, 408, 409 and 5xx retry; 4xx do not, with the next step named", () => {
    const limited = toProviderError(http(429, { headers: { "retry-after": "2" } }), context);
    expect(limited).toMatchObject({ kind: "http", options: { status: 429, retryable: true, retryAfterMs: 2000 } });
    expect(limited.message).toMatch(/rate limiting/);
    for (const status of [408, 409, 500, 529]) expect(toProviderError(http(status), context).options.retryable, String(status)).toBe(true);
    const unauthorized = toProviderError(http(401), context);
    expect(unauthorized.options.retryable).toBe(false);
    expect(unauthorized.message).toMatch(/check ANTHROPIC_API_KEY or --api-key/);
    expect(toProviderError(http(404), context).message).toMatch(/404 for model 'claude-sonnet-5-5'.*check --model/);
    expect(toProviderError(http(400), context).options.retryable).toBe(false);
  });

  it("reads the server's own message from the error body", () => {
    const error = Object.assign(new Error("529"), { status: 529, error: { error: { type: "overloaded_error", message: "Overloaded" } } });
    expect(toProviderError(error, context).message).toContain("(Overloaded)");
  });

  it("treats an error event inside the stream by its type", () => {
    const overloaded = toProviderError({ error: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } } }, context);
    expect(overloaded).toMatchObject({ kind: "stream", options: { retryable: true } });
    const invalid = toProviderError({ error: { type: "error", error: { type: "invalid_request_error", message: "bad" } } }, context);
    expect(invalid).toMatchObject({ kind: "stream", options: { retryable: false } });
  });

  it("retries connections that failed or dropped, naming the server for a refused one", () => {
    const refused = toProviderError(Object.assign(new Error("fetch failed"), { cause: { code: "ECONNREFUSED" } }), { ...context, baseUrl: "http://127.0.0.1:9" });
    expect(refused).toMatchObject({ kind: "connection", options: { retryable: true } });
    expect(refused.message).toMatch(/Could not reach http:\/\/127.0.0.1:9 \(ECONNREFUSED\).*--base-url/);
    const dropped = toProviderError(Object.assign(new Error("aborted"), { code: "ECONNRESET" }), context);
    expect(dropped).toMatchObject({ kind: "connection", options: { retryable: true, detail: "ECONNRESET" } });
  });

  it("calls an error an abort only by its name, never for text that merely says 'aborted'", () => {
    expect(isAbortError(Object.assign(new Error("This operation was aborted"), { name: "AbortError" }))).toBe(true);
    expect(isAbortError(Object.assign(new Error("Request was aborted."), { name: "APIUserAbortError" }))).toBe(true);
    expect(isAbortError(Object.assign(new Error("aborted"), { code: "ECONNRESET" }))).toBe(false);
    expect(isAbortError(new Error("socket hang up: request aborted by the proxy"))).toBe(false);
    expect(isAbortError(new ProviderError("The connection dropped (aborted)", "connection", { retryable: true }))).toBe(false);
    expect(isAbortError("aborted")).toBe(false);
  });

  it("passes a ProviderError through unchanged", () => {
    const original = new ProviderError("already explained", "config");
    expect(toProviderError(original, context)).toBe(original);
  });
});
