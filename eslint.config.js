// ESLint with typescript-eslint (flat config): `npm run lint`, and part of `npm test`.
//
// TypeScript 7 (the native compiler that builds pitwall) has no JavaScript compiler API, which
// typescript-eslint 8 needs (it supports TypeScript < 6.1). So typescript-eslint is given
// TypeScript 6.0, installed as "typescript-for-eslint", by sending its imports of "typescript" there;
// package.json's override lets npm install typescript-eslint beside TypeScript 7. Remove all of
// this once typescript-eslint supports TypeScript 7.
import Module, { register } from "node:module";

const swap = (request) => (request === "typescript" || request.startsWith("typescript/") ? `typescript-for-eslint${request.slice("typescript".length)}` : request);
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return resolveFilename.call(this, swap(request), ...rest);
};
register(`data:text/javascript,${encodeURIComponent(`const swap = ${swap}; export async function resolve(specifier, context, next) { return next(swap(specifier), context); }`)}`);

const { default: tseslint } = await import("typescript-eslint");

export default tseslint.config(
  { ignores: ["dist/", "node_modules/"] },
  { files: ["**/*.ts"], extends: [...tseslint.configs.recommended] },
  {
    files: ["**/*.ts"],
    // A CLI run (`npx eslint`, test/helpers/run-checks.ts) is a typescript-eslint "single run": it
    // builds one Program from tsconfig.json, which holds every file linted here, whether given
    // `projectService` or `project` (measured alike). `jsDocParsingMode: "type-info"` skips parsing
    // JSDoc, which gives no types in .ts files (only JavaScript files take types from it) and which
    // none of these rules read.
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname, jsDocParsingMode: "type-info" } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: false }],
    },
  },
  // tools/jobs/ has one front door (tools/jobs/index.ts): nothing outside it, but its own tests in
  // test/jobs/, reaches a module behind it.
  {
    files: ["app/**/*.ts", "panes/**/*.ts", "agent/**/*.ts", "test/**/*.ts"],
    ignores: ["test/jobs/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [{ group: ["**/tools/jobs/**", "!**/tools/jobs/index.js"], message: "Import the job subsystem from tools/jobs/index.js." }] }] },
  },
  {
    files: ["tools/**/*.ts"],
    ignores: ["tools/jobs/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [{ group: ["./jobs/**", "!./jobs/index.js", "../jobs/**", "!../jobs/index.js"], message: "Import the job subsystem from tools/jobs/index.js." }] }] },
  },
  // Tests may use `any` where they poke at loosely typed data; source files may not.
  { files: ["test/**/*.ts"], rules: { "@typescript-eslint/no-explicit-any": "off" } },
);
