// One fake LLM server per test file: started before the tests, closed after, its request log and
// fallback reset before each test.
import { afterAll, beforeAll, beforeEach } from "vitest";
import { startFakeLlm, type FakeLlm } from "../fake-llm/index.js";

export function useFakeLlm(): FakeLlm {
  let current: FakeLlm | undefined;
  beforeAll(async () => {
    current = await startFakeLlm();
  });
  afterAll(async () => {
    await current?.close();
  });
  beforeEach(() => {
    current!.requests.length = 0;
    current!.setFallback(undefined);
  });
  return new Proxy({} as FakeLlm, {
    get(_target, property) {
      if (!current) throw new Error("the fake LLM is used before beforeAll started it");
      const value: unknown = Reflect.get(current, property);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(current) : value;
    },
  });
}
