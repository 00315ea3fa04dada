// Checks a value against a TypeBox schema, compiled on first use: every message that crosses the job
// host's socket (and the host's own configuration) is checked this way before anything acts on it.
import type { TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";

export interface Checker<T> {
  check(value: unknown): value is T;
  /** The first problem, "/path: what was expected". */
  problem(value: unknown): string;
}

/**
 * Compiled on first use: compiling every method's schemas up front took ~27 ms of each host's
 * start (and of the dashboard's), and a session uses a handful of methods.
 */
export function checker<T>(schema: TSchema): Checker<T> {
  let compiled: ReturnType<typeof TypeCompiler.Compile> | undefined;
  const get = (): ReturnType<typeof TypeCompiler.Compile> => (compiled ??= TypeCompiler.Compile(schema));
  return {
    check: (value): value is T => get().Check(value),
    problem: (value) => {
      const error = get().Errors(value).First();
      return error ? `${error.path || "/"}: ${error.message}` : "unknown problem";
    },
  };
}
