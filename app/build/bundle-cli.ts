// Build step, never loaded at run time: bundles the compiled program (dist/) into dist/bundle/:
// - pitwall.cjs, the whole CLI as one CommonJS file, and cli.cjs, what `pitwall` runs, which runs
//   it with V8's code cache (app/code-cache.ts). Node 20 resolves, reads and links every ES module
//   one by one (the path to "ready" loaded ~460 files), and compiles everything at every start:
//   one file, compiled once and cached, is ready ~150 ms sooner. Dynamic imports stay lazy inside
//   the file (esbuild runs a module when it is first imported), so the dashboard still draws its
//   first frame before the agent's modules and the provider SDKs run.
// - remote.cjs, the bridge a remote runs over ssh (tools/jobs/remote/), copied there with job-host.cjs.
// - job-host.cjs, the job host (a program of its own, started by host-launcher.ts, which finds it
//   next to itself), CommonJS like the rest. It starts in ~bare node + 40 ms; neither its ES module
//   build nor a code cache measured faster (V8 compiles lazily, and a host's start runs little).
import { build, type Plugin } from "esbuild";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
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
// Emptied first, so that no file of an earlier build (an old name, its code cache) is left behind.
rmSync(outdir, { recursive: true, force: true });

/** What every bundle shares: whitespace and syntax only are minified, so a stack trace still reads. */
const common = {
  bundle: true,
  platform: "node",
  target: "node20",
  external: EXTERNAL,
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: "none",
  logLevel: "warning",
} as const;

// The CLI, its launcher and the job host: CommonJS, where import.meta.url is the file's URL.
const cjs = {
  ...common,
  outdir,
  format: "cjs",
  outExtension: { ".js": ".cjs" },
  define: { "import.meta.url": "pitwallModuleUrl" },
  // import() becomes require(): the code cache loses the callback a script's import() needs (V8
  // drops it with the cached code), and every package left out of the bundle is CommonJS anyway.
  supported: { "dynamic-import": false },
  banner: { js: 'const pitwallModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
} as const;
await build({
  ...cjs,
  entryPoints: { pitwall: join(dist, "app", "cli.js") },
  // The SDKs' `new Headers()` and `instanceof FormData` would load undici, which pitwall's HTTP
  // client replaces: inside the bundle, those globals are stand-ins that load nothing.
  inject: [join(dist, "agent", "providers", "web-globals.js")],
});
/**
 * The launcher stays a few kilobytes: of pitwall's own modules it takes only what it calls
 * (settings.ts's codeCacheSettings, not the config schema and job limits that resolving every
 * setting needs). None of them does anything on import that the launcher needs, so here they are
 * marked free of side effects, and esbuild leaves out whatever the launcher does not use.
 */
const onlyWhatIsUsed: Plugin = {
  name: "pitwall-modules-without-side-effects",
  setup(plugin) {
    // Only pitwall's own modules (a package's relative imports are left to esbuild, extensions and all).
    plugin.onResolve({ filter: /^\.\.?\// }, (args) => (args.resolveDir.includes("/node_modules/") ? undefined : { path: join(args.resolveDir, args.path), sideEffects: false }));
  },
};
await build({ ...cjs, entryPoints: { cli: join(dist, "app", "cli-launcher.js") }, plugins: [onlyWhatIsUsed] });
await build({ ...cjs, entryPoints: { "job-host": join(dist, "tools", "jobs", "host", "host-main.js") } });
// The remote bridge: copied with job-host.cjs to a remote (tools/jobs/remote/remote-bundle.ts).
await build({ ...cjs, entryPoints: { remote: join(dist, "tools", "jobs", "remote", "remote-main.js") } });

for (const name of ["pitwall.cjs", "cli.cjs", "job-host.cjs", "remote.cjs"]) {
  const path = join(outdir, name);
  // Pure ASCII, so V8 keeps the source (which it must, for functions compiled later) at one byte a
  // character: esbuild leaves non-ASCII in regular expressions, and one such character made the
  // whole 2 MB source two bytes a character. \uXXXX means the same in strings, regular expressions
  // (each half of a pair too) and identifiers.
  let text = readFileSync(path, "utf8");
  // pitwall.cjs is run by the launcher, never by node itself: a #! line would only cost a copy.
  if (name === "pitwall.cjs") text = text.replace(/^#!.*\n/, "");
  text = text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  writeFileSync(path, text);
  // esbuild prints the specifier of a dynamic import in double quotes (messages quoting one use single ones).
  if (/\bimport\("/.test(text)) throw new Error(`${name} still has an import(), which fails when run from the code cache.`);
}
