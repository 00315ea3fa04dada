// Runs the fake LLM on its own for benches and manual runs:
//   node dist/test/fake-llm/main.js script.json [--port N] [--summaries]
// Prints the server URL as the first line of stdout, then answers every model request from the
// script (a JSON array of replies/errors, in order, the last one repeated) until SIGINT/SIGTERM.
// --summaries answers an agent's summary requests (compaction) with a canned summary instead.

import { parseArgs } from "node:util";
import { loadScriptFile } from "./script-file.js";
import { startFakeLlm } from "./server.js";

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: { port: { type: "string" }, summaries: { type: "boolean" } },
    allowPositionals: true,
  });
  const scriptPath = positionals[0];
  if (scriptPath === undefined || positionals.length > 1) {
    throw new Error("usage: main.js SCRIPT.json [--port N] [--summaries]  (SCRIPT.json: a JSON array of fake replies/errors)");
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--port must be a port number (0-65535), got "${values.port}"`);
  }

  const scripts = await loadScriptFile(scriptPath);
  const llm = await startFakeLlm({ port });
  llm.enqueue(...scripts);
  llm.setFallback(scripts[scripts.length - 1]);
  let summaries = 0;
  if (values.summaries) {
    llm.setSummaryReply(() => ({
      kind: "reply",
      text: `## Goal\n- Run the commands the person asks for (fake summary ${++summaries}).\n## Open\n- Nothing.`,
      estimateUsage: true,
      chunkSize: 40,
    }));
  }
  process.stdout.write(`${llm.url}\n`);

  let seen = 0;
  const logRequests = (): void => {
    for (; seen < llm.requests.length; seen++) {
      const r = llm.requests[seen];
      if (r !== undefined) process.stderr.write(`fake LLM: #${seen + 1} ${r.api} ${r.method} ${r.path}\n`);
    }
    llm.waitForRequest(seen + 1, 2 ** 31 - 1).then(logRequests, () => undefined);
  };
  logRequests();

  const stop = (): void => {
    llm.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
});
