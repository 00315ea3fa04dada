// The test runner's settings. Two tiers, chosen by what a test does rather than where it lives:
// "fast" (`npm run test:fast`) holds the files that start no process, no pty and no socket (no CLI,
// no job, no fake LLM server), listed in FAST; test/helpers/fast-tier-guard.ts fails a file of that
// tier that starts one anyway. "full" is every other file: jobs under real ptys, the CLI, the
// dashboard end to end. `npm test` runs both, beside the lint (test/run-checks.ts), and so does CI.
// A new test file is in the full tier until it is listed here.
import { availableParallelism } from "node:os";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const FAST = [
  "test/agent/connections.test.ts", "test/agent/context-files.test.ts", "test/agent/earlier-jobs.test.ts",
  "test/agent/prompt-caching.test.ts", "test/agent/provider-params.test.ts", "test/agent/shared-files.test.ts",
  "test/agent/skill-files.test.ts",
  "test/app/cli-options.test.ts", "test/app/config.test.ts", "test/app/settings.test.ts",
  "test/cli/model-examples.test.ts",
  "test/context/context-parts.test.ts",
  "test/dashboard/attach-encoding.test.ts", "test/dashboard/chat-history.test.ts", "test/dashboard/chat-pane.test.ts",
  "test/dashboard/files-preview.test.ts", "test/dashboard/frame-writer.test.ts", "test/dashboard/image-chips.test.ts",
  "test/dashboard/key-decoder.test.ts", "test/dashboard/keymap.test.ts", "test/dashboard/layout.test.ts",
  "test/dashboard/markdown.test.ts", "test/dashboard/outer-terminal.test.ts", "test/dashboard/quit-flow.test.ts",
  "test/dashboard/screen-painter.test.ts", "test/dashboard/slash-commands.test.ts",
  "test/dashboard/text-editing.test.ts", "test/dashboard/text-layout.test.ts",
  "test/dashboard/tool-output-follow.test.ts",
  "test/jobs/emulator-modes.test.ts", "test/jobs/emulator-skip.test.ts", "test/jobs/frame-batch.test.ts",
  "test/jobs/framing.test.ts", "test/jobs/host-liveness.test.ts", "test/jobs/host-start.test.ts",
  "test/jobs/log-digest.test.ts", "test/jobs/log-skip.test.ts", "test/jobs/open-images.test.ts",
  "test/jobs/plain-text-log.test.ts", "test/jobs/plain-text-stream.test.ts", "test/jobs/read-before-destroy.test.ts",
  "test/jobs/screen-watch.test.ts", "test/jobs/watch-triggers.test.ts", "test/jobs/watch-wake-policy.test.ts",
  "test/sessions/branch-export.test.ts", "test/sessions/file-snapshots.test.ts", "test/sessions/prompt-tree.test.ts",
  "test/sessions/session-compaction.test.ts", "test/sessions/session-integrity.test.ts",
  "test/sessions/session-store.test.ts", "test/sessions/session-tree.test.ts",
  "test/tools/coding-tools.test.ts", "test/tools/edit-matching.test.ts", "test/tools/edit-tool.test.ts",
  "test/tools/file-safety.test.ts", "test/tools/find-tool.test.ts", "test/tools/grep-tool.test.ts",
  "test/tools/ls-tool.test.ts", "test/tools/output-spool.test.ts", "test/tools/read-image.test.ts",
  "test/tools/read-tool.test.ts", "test/tools/replace-file.test.ts", "test/tools/resolve-path.test.ts",
  "test/tools/result-caps.test.ts", "test/tools/search-ignore.test.ts", "test/tools/write-tool.test.ts",
  "test/unit/agent-activity.test.ts", "test/unit/agent-idle.test.ts", "test/unit/agent-loop.test.ts",
  "test/unit/agent-triggers.test.ts", "test/unit/border-joints.test.ts", "test/unit/digit-groups.test.ts",
  "test/unit/house-rules.test.ts", "test/unit/http-headers.test.ts", "test/unit/message-builder.test.ts",
  "test/unit/notifications.test.ts", "test/unit/process-group.test.ts", "test/unit/provider-errors.test.ts",
  "test/unit/proxy-settings.test.ts", "test/unit/remote-policy.test.ts", "test/unit/retry.test.ts",
  "test/unit/text-width-fast-path.test.ts",
];

/**
 * The files that take longest (most of them CPU: a 100 MB flood, emulators far behind, pitwall
 * killed five ways), measured on a 2-core machine. They start first: one of them started last
 * would run alone at the end while the other workers sit idle.
 */
const LONGEST = [
  "test/jobs/emulator-backpressure.test.ts", "test/jobs/job-flood.test.ts", "test/jobs/job-cleanup.test.ts",
  "test/jobs/job-host.test.ts", "test/cli/code-cache.test.ts", "test/jobs/job-tools.test.ts",
  "test/agent/large-tool-arguments.test.ts", "test/cli/print-mode.test.ts", "test/jobs/job-registry.test.ts",
  "test/dashboard/e2e-panes.test.ts", "test/cli/session-resume.test.ts", "test/cli/json-mode.test.ts",
];

/**
 * The order files start in: the longest first, then the rest of the full tier (longest first once
 * vitest has timed a run here, largest first on a fresh clone), then the fast tier's many short
 * files, which fill the workers' gaps at the end.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = fileURLToPath(new URL("..", import.meta.url));
    const rank = (file: TestSpecification): number => {
      if (file.project.name === "fast") return 2;
      return LONGEST.includes(relative(root, file.moduleId)) ? 0 : 1;
    };
    return (await super.sort(files)).map((file, i) => ({ file, i })).sort((a, b) => rank(a.file) - rank(b.file) || a.i - b.i).map(({ file }) => file);
  }
}

export default defineConfig({
  root: fileURLToPath(new URL("..", import.meta.url)),
  test: {
    setupFiles: ["test/helpers/setup.ts"],
    globalSetup: ["test/helpers/run-temp.ts"],
    sequence: { sequencer: LongestFirst },
    // Most full-tier tests wait on processes of their own (a CLI, a pty, a job host): one worker more
    // than the machine has cores keeps the cores busy (3 on the 2-core machine this was measured on;
    // 2 and 4 were slower), more only adds contention and slow starts.
    maxWorkers: availableParallelism() + 1,
    // Tests wait for conditions, not for time; this is only how long one may run before it counts as
    // hung. `npm test` runs both tiers and the lint at once on what may be a loaded 2-core machine,
    // where a test that takes 2 s alone can take several times that without anything being wrong.
    testTimeout: 30_000,
    // The same for a file's set-up (importing the built modules, starting a host): 10 s, vitest's
    // default, was not enough with a second `npm test` running beside.
    hookTimeout: 30_000,
    // Transformed test and source files are kept on disk (node_modules/.experimental-vitest-cache,
    // keyed by content): a run after the first transforms only what changed (the README has the
    // figures); `npx vitest --clearCache` empties it.
    experimental: { fsModuleCache: true },
    projects: [
      {
        extends: true,
        // One worker process runs many fast files in turn (no fresh process or module graph per file),
        // so a file costs what its tests cost. A worker is still a process of its own, so a test that
        // compares timings can count its own CPU time (helpers/cpu-time.ts).
        test: { name: "fast", include: FAST, setupFiles: ["test/helpers/fast-tier-guard.ts"], pool: "forks", isolate: false },
      },
      // These start CLIs, ptys, jobs and servers. They too share worker processes between files:
      // a fresh process and module graph per file cost more CPU than all their tests. What a file
      // starts it ends (afterEach and afterAll), and its temp folder is its own (helpers/setup.ts).
      { extends: true, test: { name: "full", include: ["test/**/*.test.ts"], exclude: FAST, isolate: false } },
    ],
  },
});
