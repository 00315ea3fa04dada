// The fake LLM server for tests and benches: start it, script replies, inspect what was asked.
//
//   const llm = await startFakeLlm();
//   llm.enqueue({ kind: "reply", text: "Reading.", toolCalls: [{ name: "read", arguments: { path: "a.ts" } }] },
//               { kind: "reply", text: "Done." });
//   new Anthropic({ apiKey: "test", baseURL: llm.anthropicBaseUrl, maxRetries: 0 })  // or
//   new OpenAI({ apiKey: "test", baseURL: llm.openaiBaseUrl, maxRetries: 0 })
//   expect((await llm.waitForRequest(2)).transcript).toContain("<the read tool's output>");
//   await llm.close();

export { startFakeLlm } from "./server.js";
export { fakeSignature } from "./anthropic-sse.js";
export { fakeEncryptedReasoning } from "./responses-sse.js";
export { loadScriptFile, parseScripts } from "./script-file.js";
export type {
  FakeApi,
  FakeError,
  FakeLlm,
  FakeLlmOptions,
  FakeReply,
  FakeScript,
  FakeToolCall,
  FakeUsage,
  RecordedImage,
  RecordedRequest,
} from "./script.js";
