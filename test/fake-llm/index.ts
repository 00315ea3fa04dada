// The fake LLM server for tests and benches: start it, script replies, inspect what was asked.

export { startFakeLlm } from "./server.js";
export { fakeSignature } from "./anthropic-sse.js";
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
  RecordedRequest,
} from "./script.js";
