// The test runner's settings. Two tiers, chosen by what a test does rather than where it lives:
// "fast" (`npm run test:fast`) holds the files that start no process, no pty and no socket (no CLI,
// no job, no fake LLM server), listed in FAST; test/helpers/fast-tier-guard.ts fails a file of that
// tier that starts one anyway. "full" is every other file: jobs under real ptys, the CLI, the
// dashboard end to end. `npm test` runs both, beside the lint (test/run-checks.ts), and so does CI.
// A new test file is in the full tier until it is listed here.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const FAST = [
  "test/agent/connections.test.ts", "test/agent/context-files.test.ts", "test/agent/earlier-jobs.test.ts",
  "test/agent/prompt-caching.test.ts", "test/agent/provider-params.test.ts",
  "test/app/cli-options.test.ts", "test/app/config.test.ts", "test/app/settings.test.ts",
  "test/cli/model-examples.test.ts",
  "test/context/context-parts.test.ts",
  "test/dashboard/attach-encoding.test.ts", "test/dashboard/chat-pane.test.ts",
  "test/dashboard/files-preview.test.ts", "test/dashboard/frame-writer.test.ts",
  "test/dashboard/image-chips.test.ts", "test/dashboard/key-decoder.test.ts", "test/dashboard/keymap.test.ts",
  "test/dashboard/markdown.test.ts", "test/dashboard/quit-flow.test.ts",
  "test/dashboard/screen-painter.test.ts", "test/dashboard/slash-commands.test.ts",
  "test/dashboard/text-editing.test.ts", "test/dashboard/text-layout.test.ts",
  "test/dashboard/tool-output-follow.test.ts",
  "test/jobs/emulator-skip.test.ts", "test/jobs/log-digest.test.ts", "test/jobs/log-skip.test.ts",
  "test/jobs/plain-text-log.test.ts", "test/jobs/plain-text-stream.test.ts",
  "test/jobs/read-before-destroy.test.ts", "test/jobs/screen-watch.test.ts",
  "test/jobs/watch-triggers.test.ts", "test/jobs/watch-wake-policy.test.ts",
  "test/sessions/branch-export.test.ts", "test/sessions/file-snapshots.test.ts",
  "test/sessions/prompt-tree.test.ts", "test/sessions/session-compaction.test.ts",
  "test/sessions/session-integrity.test.ts", "test/sessions/session-store.test.ts",
  "test/sessions/session-tree.test.ts",
  "test/tools/coding-tools.test.ts", "test/tools/edit-matching.test.ts", "test/tools/edit-tool.test.ts",
  "test/tools/file-safety.test.ts", "test/tools/find-tool.test.ts", "test/tools/grep-tool.test.ts",
  "test/tools/ls-tool.test.ts", "test/tools/output-spool.test.ts", "test/tools/read-image.test.ts",
  "test/tools/read-tool.test.ts", "test/tools/replace-file.test.ts", "test/tools/resolve-path.test.ts",
  "test/tools/result-caps.test.ts", "test/tools/search-ignore.test.ts", "test/tools/write-tool.test.ts",
  "test/unit/agent-loop.test.ts", "test/unit/agent-triggers.test.ts", "test/unit/border-joints.test.ts",
  "test/unit/digit-groups.test.ts", "test/unit/http-headers.test.ts", "test/unit/message-builder.test.ts",
  "test/unit/provider-errors.test.ts", "test/unit/retry.test.ts", "test/unit/text-width-fast-path.test.ts",
];

export default defineConfig({
  root: fileURLToPath(new URL("..", import.meta.url)),
  test: {
    setupFiles: ["test/helpers/setup.ts"],
    projects: [
      {
        extends: true,
        test: { name: "fast", include: FAST, setupFiles: ["test/helpers/fast-tier-guard.ts"], pool: "threads", isolate: false },
      },
      // These start CLIs, ptys and dashboards: on a loaded 2-core machine one can take far longer
      // than vitest's 5 s default without anything being wrong. Each still waits for conditions.
      { extends: true, test: { name: "full", include: ["test/**/*.test.ts"], exclude: FAST, testTimeout: 30_000 } },
    ],
  },
});
