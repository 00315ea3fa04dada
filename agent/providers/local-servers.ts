// With no provider key, the usual local OpenAI-compatible servers are asked on loopback what
// models they serve (GET /v1/models), so the no-key message can offer one with the exact flags.
// The probe takes 150 ms at most in all (every server is asked at once; whoever has not answered
// by then is left out) and only ever offers: pitwall never switches to a server by itself.
import * as http from "node:http";
import { isProviderName } from "../models.js";

/** The servers people run, by their default ports. */
export const LOCAL_SERVERS: ReadonlyArray<{ name: string; port: number }> = [
  { name: "Ollama", port: 11434 },
  { name: "llama.cpp", port: 8080 },
  { name: "LM Studio", port: 1234 },
  { name: "vLLM", port: 8000 },
];

export const PROBE_DEADLINE_MS = 150;
/** A models list is small; anything longer is not one. */
const MAX_BODY = 256 * 1024;
const SHOWN_MODELS = 5;

export interface LocalServer {
  name: string;
  /** What --base-url takes: http://127.0.0.1:<port>/v1. */
  baseUrl: string;
  models: string[];
}

export interface ProbeOptions {
  servers?: ReadonlyArray<{ name: string; port: number }>;
  deadlineMs?: number;
}

/** The servers that answered /v1/models with at least one model within the deadline, in the table's order. */
export function probeLocalServers(options: ProbeOptions = {}): Promise<LocalServer[]> {
  const servers = options.servers ?? LOCAL_SERVERS;
  const found = new Map<number, LocalServer>();
  const requests: http.ClientRequest[] = [];
  return new Promise((resolve) => {
    let pending = servers.length;
    const finish = (): void => {
      clearTimeout(timer);
      for (const request of requests) request.destroy();
      resolve(servers.flatMap((_, index) => found.get(index) ?? []));
    };
    const timer = setTimeout(finish, options.deadlineMs ?? PROBE_DEADLINE_MS);
    const settle = (): void => {
      if (--pending === 0) finish();
    };
    if (pending === 0) return finish();
    servers.forEach(({ name, port }, index) => {
      const baseUrl = `http://127.0.0.1:${port}/v1`;
      const request = http.get(`${baseUrl}/models`, { agent: false, headers: { accept: "application/json" } }, (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
          if (body.length > MAX_BODY) response.destroy();
        });
        response.on("end", () => {
          const models = response.statusCode === 200 ? modelIds(body) : [];
          if (models.length > 0) found.set(index, { name, baseUrl, models });
          settle();
        });
        response.on("error", settle);
      });
      request.on("error", settle);
      requests.push(request);
    });
  });
}

/** The ids of an OpenAI models list ({"data": [{"id": …}]}); empty when it is not one. */
function modelIds(body: string): string[] {
  try {
    const data = (JSON.parse(body) as { data?: unknown }).data;
    if (!Array.isArray(data)) return [];
    return data.map((entry) => (entry as { id?: unknown } | null)?.id).filter((id): id is string => typeof id === "string" && id.length > 0);
  } catch {
    return [];
  }
}

/** What the no-key message adds: each server found, its models, and the exact command that uses it. */
export function localServerOffer(servers: readonly LocalServer[]): string | undefined {
  if (servers.length === 0) return undefined;
  const lines = servers.map((server) => {
    const shown = server.models.slice(0, SHOWN_MODELS).join(", ") + (server.models.length > SHOWN_MODELS ? `, and ${server.models.length - SHOWN_MODELS} more` : "");
    return `${server.name} answers at ${server.baseUrl} with ${shown}: pitwall --provider openai --base-url ${server.baseUrl} --model ${shellWord(modelFlag(server.models[0]!))}`;
  });
  return `A local model server is running (pitwall does not switch to it by itself): ${lines.join("; ")}.`;
}

/** An id such as openai/gpt-oss-20b would read as provider/id: the provider goes in front of it. */
function modelFlag(id: string): string {
  const prefix = id.split("/", 1)[0]!;
  return id.includes("/") && isProviderName(prefix) ? `openai/${id}` : id;
}

function shellWord(text: string): string {
  return /^[\w.:/@+-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}
