// Runs in every test file (test/vitest.config.ts): what the shared fixtures made is removed when the file ends.
import { afterAll } from "vitest";
import { removeTempDirs } from "./temp-dir.js";

afterAll(() => removeTempDirs());
