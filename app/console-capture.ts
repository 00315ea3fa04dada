// While the dashboard owns the terminal, anything a library prints with console.* (an SDK's
// deprecation warning, node-pty's write errors) would land on top of the frame. It is shown in the
// chat as a notice instead, and console is given back when the dashboard ends.
import { format } from "node:util";

type ConsoleMethod = "log" | "info" | "debug" | "warn" | "error";
const METHODS: ConsoleMethod[] = ["log", "info", "debug", "warn", "error"];

export function captureConsole(show: (level: "info" | "warning", text: string) => void): () => void {
  const saved = new Map(METHODS.map((method) => [method, console[method]] as const));
  for (const method of METHODS) {
    console[method] = (...args: unknown[]): void => {
      const text = format(...args).trimEnd();
      if (text) show(method === "warn" || method === "error" ? "warning" : "info", text);
    };
  }
  return () => {
    for (const [method, original] of saved) console[method] = original;
  };
}
