// The fake LLM's public types: what a test scripts (a reply or an error per model request) and what
// the server records about each request it receives. Other test helpers code against these.

export interface FakeToolCall {
  /** Defaults to a generated id in the API's own style (toolu_… / call_…). */
  id?: string;
  name: string;
  /** An object is sent as JSON; a string is sent verbatim, so tests can send invalid JSON. */
  arguments: Record<string, unknown> | string;
}

export interface FakeUsage {
  /** Input tokens not served from or written to the cache (Anthropic's `input_tokens` meaning). */
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

export interface FakeReply {
  kind: "reply";
  /** Streamed as thinking: an Anthropic thinking block with a signature; OpenAI `delta.reasoning_content`. */
  thinking?: string;
  text?: string;
  /** Streamed after the text, in order; each call's arguments JSON is split across several deltas. */
  toolCalls?: FakeToolCall[];
  usage?: FakeUsage;
  /**
   * Report usage as a real server would, from sizes: input tokens = the request body's bytes / 4,
   * output tokens = the reply's characters / 4. Ignored when `usage` is given.
   */
  estimateUsage?: boolean;
  /** Default: "toolUse" when toolCalls are present, else "stop". */
  stopReason?: "stop" | "length" | "toolUse";
  /** Characters per text/thinking/arguments delta. Default 5, so tests see many deltas. */
  chunkSize?: number;
  /** Wait between SSE events. Default 0. Lets tests abort or steer mid-stream. */
  delayMs?: number;
  /**
   * Destroy the socket after this many SSE events (pings and the final `[DONE]` count too): the
   * client sees a connection dropped mid-stream. If the reply has fewer events, the socket is
   * destroyed after the last one, still without the clean end of the HTTP response.
   */
  dropAfterChunks?: number;
  /** After the content, keep the stream open without finishing until the client disconnects. */
  holdOpen?: boolean;
  /** Never send the response headers: the request hangs until the client gives up. */
  withholdHeaders?: boolean;
  /** Send the headers and this many SSE events, then go silent with the connection open (0: headers only). */
  stallAfterChunks?: number;
  /**
   * After this many SSE events, send an error event inside the stream in the API's own format
   * (Anthropic: `event: error` with e.g. overloaded_error; Chat Completions: a `data:` chunk with
   * `error`, e.g. server_error; Responses: an `error` event) and end the response.
   */
  streamError?: { afterChunks: number; type: string; message?: string };
  /**
   * Responses API only: after the content, fail inside the stream instead of completing, with a
   * `response.failed` event (the error on the response) or an `error` event.
   */
  responsesFailure?: { event: "response.failed" | "error"; code: string; message?: string };
}

export interface FakeError {
  kind: "error";
  status: number;
  /** Default: a message naming the status. */
  message?: string;
  /** Extra response headers, e.g. {"retry-after": "0"}. */
  headers?: Record<string, string>;
  /** OpenAI's error `code` (e.g. "context_length_exceeded"); Anthropic bodies have none. */
  code?: string;
}

export type FakeScript = FakeReply | FakeError | ((request: RecordedRequest) => FakeReply | FakeError);

/** "openai" is Chat Completions; "responses" the OpenAI Responses API. */
export type FakeApi = "anthropic" | "openai" | "responses";

/** An image found in a request, in whichever API's format it came. */
export interface RecordedImage {
  /** In a user message, or inside a tool result (Chat Completions has none: it sends a user message). */
  in: "user" | "tool_result";
  mimeType: string;
  /** Base64, as sent. */
  data: string;
}

export interface RecordedRequest {
  api: FakeApi;
  path: string;
  method: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body (undefined when the body was not JSON). */
  body: unknown;
  /** Size of the body as received. */
  bodyBytes: number;
  /** The body when it is a JSON object, else {}: handy for `json.model`, `json.tools`, … */
  json: Record<string, unknown>;
  /**
   * Text of every message in the request flattened (system, user, assistant text, thinking, tool
   * calls, tool results), one line per part, so tests can assert with `includes`.
   */
  transcript: string;
  /** Every image in the request's messages, in order. */
  images: RecordedImage[];
  /** Date.now() when the body had been read. */
  receivedAt: number;
}

export interface FakeLlm {
  /** http://127.0.0.1:PORT */
  url: string;
  /** baseURL for the Anthropic SDK (the SDK adds /v1/messages). */
  anthropicBaseUrl: string;
  /** baseURL for the OpenAI SDK: …/v1 (the SDK adds /chat/completions or /responses). */
  openaiBaseUrl: string;
  /** Every model request (Anthropic messages, OpenAI chat completions and responses), in arrival order. */
  requests: RecordedRequest[];
  /** Consumed one per model request, in order, whichever API asks. */
  enqueue(...scripts: FakeScript[]): void;
  /** Used when the queue is empty. Default (undefined): a 500 saying "fake LLM: no scripted reply left". */
  setFallback(script: FakeScript | undefined): void;
  /**
   * Answers summary requests (no tools offered, a system prompt that asks for a summary: what an
   * agent sends to compact its conversation) with this script instead of taking from the queue.
   * Undefined (the default): they take from the queue like any request.
   */
  setSummaryReply(script: FakeScript | undefined): void;
  /** Resolves when `count` requests have arrived (1-based) with the count-th; rejects after timeoutMs. */
  waitForRequest(count: number, timeoutMs?: number): Promise<RecordedRequest>;
  /** Resolves with the first request (already received or still to come) the predicate accepts. */
  waitFor(predicate: (r: RecordedRequest) => boolean, timeoutMs?: number): Promise<RecordedRequest>;
  /** Stops listening and destroys open sockets, held-open streams included. */
  close(): Promise<void>;
}

export interface FakeLlmOptions {
  /** Default 0: any free port. */
  port?: number;
  /** Keep only the newest this many requests in `requests` (a soak run sends thousands). Default: all. */
  keepRequests?: number;
}
