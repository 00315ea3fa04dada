// A small project tree on disk for the search tool specs.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

export async function writeTree(root: string, files: Record<string, string | Uint8Array>): Promise<void> {
  for (const [path, contents] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), contents);
  }
}

export const SAMPLE_PROJECT: Record<string, string | Uint8Array> = {
  "package.json": '{ "name": "demo" }\n',
  ".github/workflows/ci.yml": "run: npm test\n",
  "src/app.ts": "export function start() {\n  return listen(3000);\n}\n",
  "src/util/math.ts": "export const TWO = 2;\nexport function add(a: number, b: number) {\n  return a + b;\n}\n",
  "src/app.test.ts": "import { start } from './app';\nstart();\n",
  "docs/notes.md": "Start here.\nlisten carefully\n",
  "node_modules/lib/index.ts": "export function listen() {}\n",
  ".git/config": "[core]\n\tlisten = true\n",
  "assets/logo.bin": Buffer.from([0x89, 0x50, 0x00, 0x6c, 0x69, 0x73, 0x74, 0x65, 0x6e]),
};
