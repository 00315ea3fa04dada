// The house rules a new maintainer relies on to find their room (DESIGN.md's layers, issue 25),
// checked on the source itself so that CI holds them: imports flow app → panes → agent → tools and
// never back; no import circles, type-only and dynamic imports included; no source file over 450
// lines; nothing outside tools/jobs/ (but its own tests) reaches past tools/jobs/index.ts; no
// PITWALL_ variable is read outside app/settings.ts.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/dist\/?$/, "");
const LAYERS = ["app", "panes", "agent", "tools"] as const;
const MAX_LINES = 450;

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts"))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

const FILES = LAYERS.flatMap((layer) => sourceFiles(layer));
const TEXT = new Map(FILES.map((file) => [file, readFileSync(join(ROOT, file), "utf8")]));

/** Every relative module a file imports (static, type-only, re-exported or dynamic), as repo paths. */
function importsOf(file: string): string[] {
  const text = TEXT.get(file)!;
  const specs = [...text.matchAll(/(?:^|\s)(?:import|export)\s[^;]*?from\s+"(\.{1,2}\/[^"]+)"/gms), ...text.matchAll(/import\(\s*"(\.{1,2}\/[^"]+)"\s*\)/g)].map((m) => m[1]!);
  return specs.map((spec) => relative(ROOT, resolve(dirname(join(ROOT, file)), spec)).replace(/\.js$/, ".ts")).filter((target) => TEXT.has(target));
}

const GRAPH = new Map(FILES.map((file) => [file, importsOf(file)]));

/** Strongly connected components of more than one file (or a file importing itself): the circles. */
function circles(): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const lowlink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    indices.set(node, index);
    lowlink.set(node, index);
    index++;
    stack.push(node);
    onStack.add(node);
    for (const next of GRAPH.get(node)!) {
      if (!indices.has(next)) {
        visit(next);
        lowlink.set(node, Math.min(lowlink.get(node)!, lowlink.get(next)!));
      } else if (onStack.has(next)) lowlink.set(node, Math.min(lowlink.get(node)!, indices.get(next)!));
    }
    if (lowlink.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || GRAPH.get(node)!.includes(node)) found.push(component.sort());
    }
  };
  for (const file of FILES) if (!indices.has(file)) visit(file);
  return found;
}

describe("the house rules", () => {
  test("imports flow app → panes → agent → tools, never back up", () => {
    const rank = (file: string): number => LAYERS.indexOf(file.split("/")[0] as (typeof LAYERS)[number]);
    const upward = [...GRAPH].flatMap(([file, targets]) => targets.filter((target) => rank(target) < rank(file)).map((target) => `${file} → ${target}`));
    expect(upward).toEqual([]);
  });

  test("no import circles, type-only and dynamic imports included", () => {
    expect(circles()).toEqual([]);
  });

  test(`no source file is over ${MAX_LINES} lines`, () => {
    const long = FILES.map((file) => ({ file, lines: TEXT.get(file)!.split("\n").length - 1 })).filter(({ lines }) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });

  test("nothing outside tools/jobs/ imports past its front door, tools/jobs/index.ts", () => {
    const deep = [...GRAPH].flatMap(([file, targets]) =>
      file.startsWith("tools/jobs/") ? [] : targets.filter((target) => target.startsWith("tools/jobs/") && target !== "tools/jobs/index.ts").map((target) => `${file} → ${target}`),
    );
    expect(deep).toEqual([]);
  });

  test("no PITWALL_ setting is read from the environment outside app/settings.ts", () => {
    const reads = FILES.filter((file) => file !== "app/settings.ts").flatMap((file) =>
      [...TEXT.get(file)!.matchAll(/\benv(?:\.|\[\s*")(PITWALL_[A-Z_]+|PI_BASH_[A-Z_]+)/g)].map((m) => `${file}: ${m[1]}`),
    );
    expect(reads).toEqual([]);
  });
});
