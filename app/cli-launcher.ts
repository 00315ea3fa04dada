#!/usr/bin/env node
// What `pitwall` runs (bundled as dist/bundle/cli.cjs by app/build/bundle-cli.ts): the app, bundled
// next to it as pitwall.cjs, run with V8's code cache (code-cache.ts). Meaningful only as the bundle.
import { fileURLToPath } from "node:url";
import { runWithCodeCache } from "./code-cache.js";
import { hideKeyArgument } from "./hide-key-argument.js";
import { codeCacheSettings } from "./settings.js";
import { turnOffCoreDumps } from "../tools/process/core-dumps.js";

// First of all: a key given with --api-key leaves the command line other processes read (ps), and
// no crash may write the keys pitwall holds to a core file.
hideKeyArgument(process.argv);
turnOffCoreDumps();

runWithCodeCache(fileURLToPath(new URL("./pitwall.cjs", import.meta.url)), codeCacheSettings(process.env));
