// Turns the command line, the config file and the environment into a running setup: the model, the
// provider connections, the coding agent and the session file. Every mode starts here.
import { join } from "node:path";
import { createCodingAgent, UnknownToolError, type CodingAgent } from "../agent/coding-agent.js";
import type { ThinkingLevel } from "../agent/messages.js";
import { isProviderName, ModelSpecError, resolveModel, type ModelInfo, type ProviderName } from "../agent/models.js";
import { defaultProvider, isConfigured, missingKeyMessage, resolveConnections, type Connections } from "../agent/providers/connections.js";
import { retryPolicyFromEnv } from "../agent/retry.js";
import { contextBudget, type ContextSettings } from "../agent/context/context-budget.js";
import { SessionFileError } from "../agent/session-file.js";
import { newestSession } from "../agent/session-list.js";
import { olderHistoryOf, type LoadedSession } from "../agent/session-load.js";
import { SessionStore } from "../agent/session-store.js";
import { UsageError, type CliOptions } from "./cli-options.js";
import { loadConfig, pitwallHome, type PitwallConfig } from "./config.js";
import { pitwallVersion } from "./version.js";

export interface Setup {
  options: CliOptions;
  config: PitwallConfig;
  home: string;
  sessionRoot: string;
  connections: Connections;
  model: ModelInfo;
  thinkingLevel: ThinkingLevel;
  coding: CodingAgent;
  /** The session being written; undefined with --no-session. */
  readonly session: SessionStore | undefined;
  /** /new: clears the conversation and starts writing a new session file (the agent must be idle). */
  newSession(): SessionStore | undefined;
  /** The session being continued, if any. */
  resumed: LoadedSession | undefined;
  /** Things a person should know (bad config fields, a torn session line); shown, never fatal. */
  warnings: string[];
  /** Set when no provider is usable: the message says how to configure one. */
  missingKey: string | undefined;
}

export interface SetupChoices {
  /** A session picked by the person (--resume), already chosen by the mode. */
  sessionPath?: string;
}

/** The model whose window bounds what a resumed session loads: the one named on the command line, else the session's. */
function modelForBudget(options: CliOptions, configProvider: ProviderName | undefined, provider: string, model: string): ModelInfo {
  try {
    if (options.model) return resolveModel(options.model, options.provider ?? configProvider, "anthropic");
  } catch {
    // A bad --model is reported when the setup resolves it; the session's model serves here.
  }
  const sessionProvider = isProviderName(provider) ? provider : "anthropic";
  return resolveModel(model || undefined, options.provider ?? sessionProvider, sessionProvider);
}

export function sessionRootOf(options: CliOptions, env: NodeJS.ProcessEnv): string {
  return options.sessionDir ?? join(pitwallHome(env), "sessions");
}

export async function createSetup(options: CliOptions, env: NodeJS.ProcessEnv = process.env, choices: SetupChoices = {}): Promise<Setup> {
  const home = pitwallHome(env);
  const { config, warnings } = loadConfig(home);
  const sessionRoot = sessionRootOf(options, env);
  const context: ContextSettings = { contextWindow: options.contextWindow ?? config.contextWindow, compactAtPercent: options.compactAt ?? config.compactAt };

  let resumePath = choices.sessionPath ?? options.sessionFile;
  if (!resumePath && options.continue) {
    resumePath = await newestSession(sessionRoot, options.cwd);
    if (!resumePath) warnings.push(`No earlier session in ${options.cwd}: starting a new one.`);
  }

  let resumed: { store: SessionStore; session: LoadedSession } | undefined;
  const flags = {
    provider: options.provider ?? config.provider,
    apiKey: options.apiKey,
    baseUrl: options.baseUrl ?? config.baseUrl,
  };
  const connections = resolveConnections(flags, env);
  const secrets = [connections.anthropic.apiKey, connections.openai.apiKey].filter((k): k is string => Boolean(k));
  if (resumePath) {
    try {
      // Only what the model in force can be sent is loaded; older messages stay on disk.
      const budgetFor = (provider: string, model: string): number => {
        const budget = contextBudget(modelForBudget(options, config.provider, provider, model), context);
        return budget.window - budget.reserve;
      };
      resumed = await SessionStore.open(resumePath, { secrets, budgetFor });
    } catch (error) {
      if (error instanceof SessionFileError) throw new UsageError(error.message);
      throw error;
    }
    warnings.push(...resumed.session.warnings);
  }

  // A resumed session keeps its model unless the command line names another.
  const sessionProvider = resumed && isProviderName(resumed.session.provider) ? resumed.session.provider : undefined;
  const modelSpec = options.model ?? (resumed ? resumed.session.model : config.model);
  let model: ModelInfo;
  try {
    model = resolveModel(modelSpec, options.provider ?? (options.model ? undefined : sessionProvider) ?? config.provider, defaultProvider(flags, connections));
  } catch (error) {
    if (error instanceof ModelSpecError) throw new UsageError(error.message);
    throw error;
  }
  const thinkingLevel = options.thinking ?? (resumed ? resumed.session.thinkingLevel : config.thinking) ?? "off";

  let coding: CodingAgent;
  try {
    coding = createCodingAgent({
      cwd: options.cwd,
      model,
      connections,
      thinkingLevel,
      tools: options.tools ?? "default",
      customPrompt: options.systemPrompt,
      pitwallHome: home,
      jobSettings: options.bashYieldMs !== undefined ? { defaultYieldMs: options.bashYieldMs } : undefined,
      messages: resumed?.session.messages,
      olderHistory: resumed ? olderHistoryOf(resumed.session) : undefined,
      retry: retryPolicyFromEnv(env),
      context,
    });
  } catch (error) {
    if (error instanceof UnknownToolError) throw new UsageError(`--tools: ${error.message}`);
    throw error;
  }

  const freshStore = (): SessionStore | undefined =>
    options.noSession
      ? undefined
      : SessionStore.create({
          root: sessionRoot,
          cwd: options.cwd,
          provider: coding.agent.state.model.provider,
          model: coding.agent.state.model.id,
          thinkingLevel: coding.agent.state.thinkingLevel,
          pitwallVersion: pitwallVersion(),
          secrets,
        });
  let session = resumed?.store ?? freshStore();
  let detach = session?.attach(coding.bus);

  return {
    options,
    config,
    home,
    sessionRoot,
    connections,
    model,
    thinkingLevel,
    coding,
    get session() {
      return session;
    },
    newSession() {
      coding.agent.clearMessages();
      detach?.();
      session = freshStore();
      detach = session?.attach(coding.bus);
      return session;
    },
    resumed: resumed?.session,
    warnings,
    missingKey: isConfigured(connections[model.provider]) ? undefined : missingKeyMessage(model.provider),
  };
}
