// The fake LLM's own mechanics: the script queue across both APIs, reply functions, the fallback,
// request checks that do not consume a script, waits with deadlines, timing knobs, close(), and
// the JSON script files benches use.

import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeLlm, loadScriptFile, parseScripts, startFakeLlm } from "./fake-llm/index.js";
import { tempDir } from "./helpers/temp-dir.js";

let llm: FakeLlm;

beforeEach(async () => {
  llm = await startFakeLlm();
});

afterEach(async () => {
  await llm.close();
});

const USER_HI = [{ role: "user" as const, content: "hi" }];

function anthropic(): Anthropic {
  return new Anthropic({ apiKey: "test-key", baseURL: llm.anthropicBaseUrl, maxRetries: 0 });
}

function openai(): OpenAI {
  return new OpenAI({ apiKey: "test-key", baseURL: llm.openaiBaseUrl, maxRetries: 0 });
}

async function anthropicText(): Promise<string> {
  const message = await anthropic().messages.stream({ model: "m", max_tokens: 10, messages: USER_HI }).finalMessage();
  return message.content.map((b) => (b.type === "text" ? b.text : "")).join("");
}

async function openaiText(content = "hi"): Promise<string> {
  const completion = await openai()
    .chat.completions.stream({ model: "m", messages: [{ role: "user", content }], stream: true })
    .finalChatCompletion();
  return completion.choices[0]?.message.content ?? "";
}

function post(path: string, headers: Record<string, string>, body: string): Promise<Response> {
  return fetch(`${llm.url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
}

describe("script queue", () => {
  it("hands out scripts in order whichever API asks, then the fallback", { timeout: 20_000 }, async () => {
    llm.enqueue({ kind: "reply", text: "one" }, { kind: "reply", text: "two" });
    llm.enqueue((request) => ({ kind: "reply", text: `three for ${request.api}` }));
    expect(await openaiText()).toBe("one");
    expect(await anthropicText()).toBe("two");
    expect(await openaiText()).toBe("three for openai");

    const error = await anthropicText().then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.InternalServerError);
    expect((error as InstanceType<typeof Anthropic.APIError>).apiMessage).toBe("fake LLM: no scripted reply left");

    llm.setFallback({ kind: "reply", text: "again" });
    expect(await openaiText()).toBe("again");
    expect(await anthropicText()).toBe("again");
    llm.setFallback(undefined);
    await expect(openaiText()).rejects.toThrow("fake LLM: no scripted reply left");
    expect(llm.requests.map((r) => r.api)).toEqual(["openai", "anthropic", "openai", "anthropic", "openai", "anthropic", "openai"]);
  });

  it("reports a reply function that throws as a 500 naming the reason", { timeout: 20_000 }, async () => {
    llm.enqueue(() => {
      throw new Error("no such fixture");
    });
    await expect(openaiText()).rejects.toThrow("the scripted reply function threw: no such fixture");
  });

  it("answers requests without a key, without stream, or without JSON, and keeps the script", { timeout: 20_000 }, async () => {
    llm.enqueue({ kind: "reply", text: "kept" });
    const streamBody = JSON.stringify({ model: "m", max_tokens: 5, messages: USER_HI, stream: true });

    const noKey = await post("/v1/messages", {}, streamBody);
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toMatchObject({ type: "error", error: { type: "authentication_error" } });

    const noStream = await post("/v1/chat/completions", { authorization: "Bearer k" }, JSON.stringify({ model: "m", messages: USER_HI }));
    expect(noStream.status).toBe(400);
    expect(await noStream.json()).toMatchObject({ error: { message: expect.stringContaining("only streaming") } });

    const notJson = await post("/v1/chat/completions", { authorization: "Bearer k" }, "{oops");
    expect(notJson.status).toBe(400);

    expect(llm.requests).toHaveLength(3);
    expect(await anthropicText()).toBe("kept");
  });

  it("lists models for both SDKs and 404s unknown routes", { timeout: 20_000 }, async () => {
    const anthropicModels = await anthropic().models.list();
    expect(anthropicModels.data.map((m) => m.id)).toEqual(["fake-claude"]);
    const openaiModels = await openai().models.list();
    expect(openaiModels.data.map((m) => m.id)).toEqual(["fake-gpt"]);
    const missing = await fetch(`${llm.url}/v1/embeddings`, { method: "POST" });
    expect(missing.status).toBe(404);
    expect(llm.requests).toHaveLength(0);
  });
});

describe("waits", () => {
  it("waitForRequest and waitFor resolve for requests already received or still to come", { timeout: 20_000 }, async () => {
    llm.setFallback({ kind: "reply", text: "ok" });
    const second = llm.waitForRequest(2);
    const steer = llm.waitFor((r) => r.transcript.includes("STEER"));
    await openaiText("first");
    await openaiText("now the STEER arrives");
    expect((await second).transcript).toContain("now the STEER arrives");
    expect(await steer).toBe(llm.requests[1]);
    expect(await llm.waitForRequest(1)).toBe(llm.requests[0]);
    expect(await llm.waitFor((r) => r.transcript.includes("first"))).toBe(llm.requests[0]);
  });

  it("gives up after the deadline saying what did arrive", { timeout: 20_000 }, async () => {
    llm.enqueue({ kind: "reply", text: "ok" });
    await openaiText();
    await expect(llm.waitForRequest(2, 50)).rejects.toThrow(/request #2, but only 1 arrived[\s\S]*#1 openai POST \/v1\/chat\/completions/);
    await expect(llm.waitFor((r) => r.api === "anthropic", 50)).rejects.toThrow("none of the 1 received did");
  });

  it("fails pending waits when the server closes", { timeout: 20_000 }, async () => {
    const pending = llm.waitForRequest(1);
    await llm.close();
    await expect(pending).rejects.toThrow("closed");
  });
});

describe("timing and connections", () => {
  it("waits delayMs between events", { timeout: 20_000 }, async () => {
    // 1 role chunk + 4 text chunks + finish + [DONE] = 7 events, so at least 6 gaps of 40 ms.
    llm.enqueue({ kind: "reply", text: "abcdefghijklmnopqrst", delayMs: 40 });
    const started = Date.now();
    expect(await openaiText()).toBe("abcdefghijklmnopqrst");
    expect(Date.now() - started).toBeGreaterThanOrEqual(6 * 40 - 5);
  });

  it("lets a test act on a request while its reply is still streaming", { timeout: 20_000 }, async () => {
    llm.enqueue({ kind: "reply", text: "a long, slow answer", delayMs: 20 });
    const reply = openaiText();
    const request = await llm.waitForRequest(1);
    expect(request.receivedAt).toBeLessThanOrEqual(Date.now());
    expect(await reply).toBe("a long, slow answer");
  });

  it("close() ends a held-open stream and the client sees the connection go", { timeout: 20_000 }, async () => {
    llm.enqueue({ kind: "reply", text: "waiting forever", holdOpen: true });
    const stream = await anthropic().messages.create({ model: "m", max_tokens: 10, messages: USER_HI, stream: true });
    const consumed = (async () => {
      const types: string[] = [];
      for await (const event of stream) types.push(event.type);
      return types;
    })();
    await llm.waitForRequest(1);
    await llm.close();
    await expect(consumed).rejects.toThrow();
  });

  it("honours chunkSize", { timeout: 20_000 }, async () => {
    llm.enqueue({ kind: "reply", text: "0123456789", chunkSize: 3 });
    const deltas: string[] = [];
    const stream = anthropic().messages.stream({ model: "m", max_tokens: 10, messages: USER_HI });
    stream.on("text", (d) => deltas.push(d));
    await stream.finalMessage();
    expect(deltas).toEqual(["012", "345", "678", "9"]);
  });
});

describe("script files", () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir("fake-llm");
  });

  it("loads a valid script list", async () => {
    const path = join(dir, "script.json");
    const scripts = [
      { kind: "reply", text: "hi", toolCalls: [{ name: "read", arguments: { path: "a" } }], usage: { input: 1, output: 2 } },
      { kind: "error", status: 429, headers: { "retry-after": "1" } },
    ];
    await writeFile(path, JSON.stringify(scripts));
    expect(await loadScriptFile(path)).toEqual(scripts);
  });

  it("rejects bad scripts naming the bad field", async () => {
    expect(() => parseScripts([{ kind: "reply", txt: "typo" }], "bench.json")).toThrow(/bench\.json is not a valid fake-LLM script[\s\S]*txt/);
    expect(() => parseScripts([{ kind: "error", status: 200 }])).toThrow(/status/);
    expect(() => parseScripts([])).toThrow(/non-empty JSON array/);
    const path = join(dir, "broken.json");
    await writeFile(path, "[{");
    await expect(loadScriptFile(path)).rejects.toThrow(/broken\.json is not JSON/);
  });
});
