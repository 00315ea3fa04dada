// The library entry: everything needed to run pitwall's agent headless (an editor extension, a web
// server streaming events) without loading the dashboard.
export { Agent, AgentBusyError, ImageInputError, promptWhenIdle, untilIdle, type AgentOptions, type AgentState, type QueuedKind, type QueuedMessage } from "./agent.js";
export { createCodingAgent, UnknownToolError, type CodingAgent, type CodingAgentOptions, type CodingAgentSettings, type ToolSelection } from "./coding-agent.js";
export { EventBus, type Listener } from "./event-bus.js";
export { PITWALL_EVENT_TYPES, type AssistantDelta, type CompactionReason, type PitwallEvent, type PitwallEventType, type QueueState } from "./events.js";
export { DEFAULT_CONTEXT_WINDOW, type ContextSettings } from "./context/context-budget.js";
export type { ContextUsage } from "./context/context-keeper.js";
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
export { listSessions, newestSession, type SessionSummary } from "./sessions/session-list.js";
export { loadSession, type LoadedSession, type OlderPart } from "./sessions/session-load.js";
export { SessionStore } from "./sessions/session-store.js";
export { BranchError, type BranchChange, type RewindTarget, type SessionForked } from "./session-control.js";
export type { FileChange, PersonMessage, SessionTreeView, TreeNode } from "./sessions/session-tree.js";
export type { FileRestoreReport } from "./sessions/file-restore.js";
export { describeSystemPrompt, type SystemPromptReport } from "./system-prompt.js";
