#!/usr/bin/env node
// What `pitwall` runs (bundled as dist/bundle/cli.cjs by app/build/bundle-cli.ts): the app, bundled
// next to it as pitwall.cjs, run with V8's code cache (code-cache.ts). Meaningful only as the bundle.
import { fileURLToPath } from "node:url";
import { runWithCodeCache } from "./code-cache.js";
import { codeCacheSettings } from "./settings.js";

runWithCodeCache(fileURLToPath(new URL("./pitwall.cjs", import.meta.url)), codeCacheSettings(process.env));
