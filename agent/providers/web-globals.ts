// Stand-ins for Node's web globals that live in undici, put in place of them inside the bundled
// CLI only (esbuild's `inject`, see app/build/bundle-cli.ts): the SDKs build every request's headers
// with `new Headers()` and test bodies with `instanceof FormData`, and reading either global loads
// all of undici (~40 ms), which pitwall's HTTP client does without (see http-fetch.ts). Outside
// the bundle (the tests of the compiled modules) the SDKs see Node's own globals.
import { HttpHeaders } from "./http-headers.js";

export { HttpHeaders as Headers };

/**
 * Only undici makes form data, so no value is one before undici is loaded: `instanceof` tells by
 * the tag every FormData carries, and `new FormData()` (a file upload, which pitwall never sends)
 * makes Node's own.
 */
export const FormData = function FormData(...args: unknown[]): object {
  const Platform = globalThis.FormData as unknown as new (...rest: unknown[]) => object;
  return new Platform(...args);
} as unknown as typeof globalThis.FormData;

Object.defineProperty(FormData, Symbol.hasInstance, {
  value: (value: unknown): boolean => typeof value === "object" && value !== null && Object.prototype.toString.call(value) === "[object FormData]",
});
