// The environment the model's commands and every job run in: pitwall's own, without the provider
// keys, so `env` or a careless script cannot send them to the model or write them to a log. A person
// who needs them in tools (a script that calls the API) opts in with --pass-keys or
// `passKeysToTools: true` in config.json.

/** The variables that hold provider keys. */
export const PROVIDER_KEY_VARIABLES = ["ANTHROPIC_API_KEY", "OPENAI_API_KEY"] as const;

export interface ToolEnvironmentOptions {
  /** Keep the keys (the person asked for it). */
  passKeys?: boolean;
  /**
   * The key values in use (also --api-key's): any variable whose value contains one goes too, whole
   * (`AUTH_HEADER="Bearer <key>"`, `https://u:<key>@host`): cutting the key out would leave a value
   * that looks usable and is not.
   */
  keys?: readonly string[];
}

/** Values shorter than this are not taken for keys: they would match ordinary text. */
const MIN_KEY_LENGTH = 8;

export function toolEnvironment(env: NodeJS.ProcessEnv, options: ToolEnvironmentOptions = {}): NodeJS.ProcessEnv {
  if (options.passKeys) return { ...env };
  const keys = [...new Set((options.keys ?? []).filter((key) => key.length >= MIN_KEY_LENGTH))];
  const names = new Set<string>(PROVIDER_KEY_VARIABLES);
  return Object.fromEntries(Object.entries(env).filter(([name, value]) => !names.has(name) && !(value !== undefined && keys.some((key) => value.includes(key)))));
}
