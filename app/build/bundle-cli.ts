// Build step, never loaded at run time: bundles the compiled CLI (dist/app/cli.js) and the job host
// (dist/tools/jobs/host/host-main.js) into a few ES module files in dist/bundle/, which `pitwall`
// runs. Node 20 resolves, reads and links every ES module one by one: the dashboard's path to
// "ready" loaded ~460 files (250 of them TypeBox's), and that, not our code, was most of the startup
// time. esbuild (one dependency-free binary) keeps each
// dynamic import a chunk of its own, so the dashboard still draws its first frame before the agent's
// modules and the provider SDKs load.
import { build } from "esbuild";
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** dist/ (this file runs as dist/app/build/bundle-cli.js). */
const dist = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * Packages left to Node at run time: native addons (node-pty, sharp), blessed (it requires its
 * widgets and reads terminfo by path), the emulator (required on demand by the first job) and
 * cli-highlight (highlight.js's ~190 languages, loaded after the first frame, are better left
 * unbundled than a megabyte chunk).
 */
const EXTERNAL = ["blessed", "node-pty", "sharp", "@xterm/headless", "@xterm/addon-unicode11", "cli-highlight"];

// Two folders below the repository, as dist/app/cli.js is, so the paths the code resolves from its
// own location (package.json, keymap.json) are the same.
const outdir = join(dist, "bundle");
// Chunk names carry a content hash: without this, every build would leave the last one's behind.
rmSync(outdir, { recursive: true, force: true });

await build({
  // The job host is a program of its own (started by host-launcher.ts, which finds it next to itself).
  entryPoints: { cli: join(dist, "app", "cli.js"), "job-host": join(dist, "tools", "jobs", "host", "host-main.js") },
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: EXTERNAL,
  // Bundled CommonJS packages call require() for Node's own modules, which an ES module lacks.
  banner: { js: 'import { createRequire as pitwallCreateRequire } from "node:module"; const require = pitwallCreateRequire(import.meta.url);' },
  // Whitespace and syntax only: a third less to read and parse at each start, while the names of
  // functions and classes stay as written, so a stack trace still reads.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: "none",
  logLevel: "warning",
});
