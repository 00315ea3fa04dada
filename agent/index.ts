// The library entry: everything needed to run pitwall's agent headless (an editor extension, a web
// server streaming events) without loading the dashboard.
export { Agent, AgentBusyError, ImageInputError, type AgentOptions, type AgentState, type QueuedKind } from "./agent.js";
export { createCodingAgent, UnknownToolError, type CodingAgent, type CodingAgentOptions, type ToolSelection } from "./coding-agent.js";
export { EventBus, type Listener } from "./event-bus.js";
export type { AssistantDelta, PitwallEvent, PitwallEventType, QueueState } from "./events.js";
export * from "./messages.js";
export { DEFAULT_MODELS, knownModelIds, lookupModel, resolveModel, type ModelInfo, type OpenAIApi, type ProviderName } from "./models.js";
export {
  createProviderResolver,
  defaultProvider,
  isConfigured,
  missingKeyMessage,
  resolveConnections,
  type Connections,
} from "./providers/connections.js";
export { loadImageFile, prepareImage, type PreparedImage } from "../tools/images/image-prepare.js";
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry.js";
export { listSessions, readSession, type LoadedSession, type SessionSummary } from "./session-file.js";
export { SessionStore } from "./session-store.js";
export { describeSystemPrompt, type SystemPromptReport } from "./system-prompt.js";
