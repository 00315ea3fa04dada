// Recognises a provider saying "this request is longer than my context window", whichever server
// says it: Anthropic ("prompt is too long: 213462 tokens > 200000 maximum"), OpenAI
// (code context_length_exceeded, "This model's maximum context length is …"), vLLM (the same
// sentence), llama.cpp ("the request exceeds the available context size"), Ollama and LM Studio
// ("input length exceeds the context length", "… context length of only 8192 tokens").

const OVERFLOW_PATTERNS: readonly RegExp[] = [
  /prompt is too long/i,
  /context[_ ]length[_ ]exceeded/i,
  /maximum context length/i,
  /exceeds? (?:the )?(?:available |maximum |model'?s? )?context(?: window| size| length)/i,
  /context (?:window|size|length) (?:is |was |has been )?(?:exceeded|overflow)/i,
  /exceed_context_size/i,
  /input (?:length|is too long|too long).*(?:context|token)/i,
  /reduce the length of the (?:messages|input|prompt)/i,
  /input length and `?max_tokens`? exceed context limit/i,
  /context (?:length|size|window) of only/i,
  /\bcontext\b.{0,20}\boverflows?\b/i,
];

/**
 * True when an HTTP status and the server's message (or error code) say the request did not fit the
 * model's context window. 413 (the body itself was too large) counts too: compacting helps there
 * as well. Local servers sometimes say it with a 500 (Ollama), so 5xx count when the words do.
 */
export function isContextOverflow(status: number | undefined, text: string): boolean {
  if (status === 413) return true;
  if (status !== undefined && (status < 400 || status === 401 || status === 403 || status === 404 || status === 429)) return false;
  return OVERFLOW_PATTERNS.some((pattern) => pattern.test(text));
}
