// The test runner's settings. Every file gets the shared cleanup (helpers/setup.ts). Two tiers:
// "fast" (`npm run test:fast`): unit tests that start no terminal, no CLI and no job, well under
// 30 s; "full" adds the rest (jobs under real ptys, the CLI, the dashboard end to end). `npm test`
// runs both, and so does CI.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const FAST = [
  "test/unit/**/*.test.ts",
  "test/app/**/*.test.ts",
  // bash runs real shells (and one test pipes a million lines): it belongs with the processes.
  "test/tools/!(bash-tool).test.ts",
  "test/sessions/**/*.test.ts",
  "test/agent/connections.test.ts",
  "test/agent/context-files.test.ts",
  "test/agent/provider-params.test.ts",
  // Not the end-to-end tests, nor the chat pane's 10 000-message scrolling comparison.
  "test/dashboard/!(e2e-*|chat-pane).test.ts",
];

export default defineConfig({
  root: fileURLToPath(new URL("..", import.meta.url)),
  test: {
    setupFiles: ["test/helpers/setup.ts"],
    projects: [
      { extends: true, test: { name: "fast", include: FAST } },
      // These start CLIs, ptys and dashboards: on a loaded 2-core machine one can take far longer
      // than vitest's 5 s default without anything being wrong. Each still waits for conditions.
      { extends: true, test: { name: "full", include: ["test/**/*.test.ts"], exclude: FAST, testTimeout: 30_000 } },
    ],
  },
});
