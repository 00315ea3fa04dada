// A Headers class that loads nothing. The bundled CLI gives it to the SDKs in place of the global
// one (see web-globals.ts): Node's global Headers is undici's, and touching it loads all of undici
// (~40 ms), which pitwall's HTTP client (http-fetch.ts) does without. It behaves as the Fetch
// standard says, as far as anyone can observe: names are case-insensitive and listed lower-cased
// in sorted order, repeated values join with ", ", set-cookie values stay apart, and bad names or
// values are refused with a TypeError.

/** An HTTP token: what a header name may be made of. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Leading and trailing HTTP whitespace, which a value loses. */
const EDGE_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;
const FORBIDDEN_IN_VALUE = /[\0\n\r]/;

type HeaderPairs = Iterable<Iterable<string>>;
export type HeadersSource = HeaderPairs | Record<string, string> | undefined | null;

function checkedName(name: string): string {
  const text = String(name);
  if (!TOKEN.test(text)) throw new TypeError(`Headers: "${text}" is not a valid header name.`);
  return text.toLowerCase();
}

function checkedValue(name: string, value: string): string {
  const text = String(value).replace(EDGE_WHITESPACE, "");
  if (FORBIDDEN_IN_VALUE.test(text)) throw new TypeError(`Headers: the value of "${name}" holds a forbidden character.`);
  return text;
}

export class HttpHeaders {
  readonly #values = new Map<string, string[]>();

  constructor(init?: HeadersSource) {
    if (init === undefined || init === null) return;
    if (typeof init !== "object") throw new TypeError("Headers: expected pairs or a record.");
    if (Symbol.iterator in init) {
      for (const pair of init as HeaderPairs) {
        const items = [...pair];
        if (items.length !== 2) throw new TypeError("Headers: each pair must hold a name and a value.");
        this.append(items[0]!, items[1]!);
      }
      return;
    }
    for (const [name, value] of Object.entries(init)) this.append(name, value);
  }

  append(name: string, value: string): void {
    const key = checkedName(name);
    const text = checkedValue(key, value);
    const list = this.#values.get(key);
    if (list) list.push(text);
    else this.#values.set(key, [text]);
  }

  set(name: string, value: string): void {
    const key = checkedName(name);
    this.#values.set(key, [checkedValue(key, value)]);
  }

  delete(name: string): void {
    this.#values.delete(checkedName(name));
  }

  get(name: string): string | null {
    return this.#values.get(checkedName(name))?.join(", ") ?? null;
  }

  has(name: string): boolean {
    return this.#values.has(checkedName(name));
  }

  getSetCookie(): string[] {
    return [...(this.#values.get("set-cookie") ?? [])];
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of [...this.#values.keys()].sort()) {
      const values = this.#values.get(name);
      // Read again at each step: a caller may delete what comes next while it iterates.
      if (!values) continue;
      if (name === "set-cookie") for (const value of values) yield [name, value];
      else yield [name, values.join(", ")];
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  forEach(callback: (value: string, name: string, headers: HttpHeaders) => void, thisArg?: unknown): void {
    for (const [name, value] of this.entries()) callback.call(thisArg, value, name, this);
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  get [Symbol.toStringTag](): string {
    return "Headers";
  }
}
