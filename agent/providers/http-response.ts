// What pitwall's HTTP client (http-fetch.ts) answers with: the part of the Fetch standard's
// Response that the SDKs and pitwall use. The body is a web ReadableStream, read as a stream (an
// SDK's server-sent events) or whole (text, json); clone() tees it.

export interface HttpResponseInit {
  status: number;
  statusText: string;
  headers: Headers;
  body: ReadableStream<Uint8Array> | null;
  url: string;
  redirected: boolean;
}

export class HttpResponse {
  readonly type = "basic";
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
  readonly url: string;
  readonly redirected: boolean;
  #body: ReadableStream<Uint8Array> | null;
  #used = false;

  constructor(init: HttpResponseInit) {
    this.status = init.status;
    this.statusText = init.statusText;
    this.headers = init.headers;
    this.url = init.url;
    this.redirected = init.redirected;
    this.#body = init.body;
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  get body(): ReadableStream<Uint8Array> | null {
    return this.#body;
  }

  /** Read through one of the methods below, or through a reader someone took from `body`. */
  get bodyUsed(): boolean {
    return this.#used || (this.#body?.locked ?? false);
  }

  async bytes(): Promise<Uint8Array> {
    if (this.bodyUsed) throw new TypeError("Response: the body has already been read.");
    this.#used = true;
    if (!this.#body) return new Uint8Array(0);
    const parts: Uint8Array[] = [];
    const reader = this.#body.getReader();
    for (let part = await reader.read(); !part.done; part = await reader.read()) parts.push(part.value);
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.bytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.bytes());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async blob(): Promise<Blob> {
    return new Blob([await this.arrayBuffer()], { type: this.headers.get("content-type") ?? "" });
  }

  clone(): HttpResponse {
    if (this.bodyUsed) throw new TypeError("Response: a response whose body was read cannot be cloned.");
    let copy: ReadableStream<Uint8Array> | null = null;
    if (this.#body) [this.#body, copy] = this.#body.tee();
    const { status, statusText, headers, url, redirected } = this;
    return new HttpResponse({ status, statusText, headers, url, redirected, body: copy });
  }

  get [Symbol.toStringTag](): string {
    return "Response";
  }
}
