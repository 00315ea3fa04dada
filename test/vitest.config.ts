// The test runner's settings: the suite is test/, every file gets the shared cleanup (helpers/setup.ts).
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  root: fileURLToPath(new URL("..", import.meta.url)),
  test: {
    dir: "test",
    setupFiles: ["test/helpers/setup.ts"],
  },
});
