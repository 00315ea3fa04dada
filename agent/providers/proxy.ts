// Provider requests behind a proxy: HTTPS_PROXY for https:// servers, HTTP_PROXY for http:// ones,
// NO_PROXY for the hosts that are reached directly, each in either case (the lower-case name wins,
// as curl reads them). The agents that speak to the proxy are TooTallNate's https-proxy-agent
// (CONNECT, then TLS to the server through the tunnel) and http-proxy-agent (plain requests in the
// proxy's absolute-URL form): kept well, used by npm's own proxy support. They load only when a
// proxy is set, so a start without one does not pay for them. undici's EnvHttpProxyAgent was not
// chosen: it needs undici's own fetch, which pitwall avoids loading (~40 ms, see http-fetch.ts).
//
// A proxy URL may carry credentials (http://user:secret@proxy:3128): they go to the proxy in its
// Proxy-Authorization header and nowhere else. What pitwall says about a proxy names it without them.

export interface ProxySettings {
  /** For https:// servers. */
  https?: string;
  /** For http:// servers. */
  http?: string;
  /** NO_PROXY's entries: hosts (and their subdomains), .suffixes, host:port, IP addresses, or "*". */
  noProxy: string[];
}

/** The proxies the environment sets; undefined when none (nothing proxy-related loads then). */
export function proxyFromEnv(env: NodeJS.ProcessEnv): ProxySettings | undefined {
  const read = (name: string): string | undefined => (env[name.toLowerCase()] ?? env[name.toUpperCase()])?.trim() || undefined;
  const https = read("https_proxy");
  const http = read("http_proxy");
  if (!https && !http) return undefined;
  const noProxy = (read("no_proxy") ?? "")
    .split(/[\s,]+/)
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  return { ...(https ? { https: withScheme(https) } : {}), ...(http ? { http: withScheme(http) } : {}), noProxy };
}

/** A proxy given as host:port means http://host:port, as curl takes it. */
function withScheme(proxy: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(proxy) ? proxy : `http://${proxy}`;
}

/** The proxy a request to `url` goes through; undefined when it goes directly. */
export function proxyFor(url: URL, settings: ProxySettings | undefined): URL | undefined {
  if (!settings) return undefined;
  const proxy = url.protocol === "https:" ? settings.https : url.protocol === "http:" ? settings.http : undefined;
  if (!proxy || bypassed(url, settings.noProxy)) return undefined;
  return new URL(proxy);
}

function bypassed(url: URL, noProxy: readonly string[]): boolean {
  const host = url.hostname.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return noProxy.some((entry) => {
    if (entry === "*") return true;
    // [v6]:port, a bare IPv6 address (more than one colon), or host:port.
    const match = /^\[(.*)\](?::(\d+))?$/.exec(entry) ?? (entry.split(":").length > 2 ? [entry, entry, undefined] : /^(.*?)(?::(\d+))?$/.exec(entry)!);
    const [pattern, entryPort] = [match[1]!.replace(/^\*/, ""), match[2]];
    if (entryPort && entryPort !== port) return false;
    if (!pattern) return false;
    if (pattern.startsWith(".")) return host.endsWith(pattern) || host === pattern.slice(1);
    return host === pattern || host.endsWith(`.${pattern}`);
  });
}

/** The proxy requests to `url` go through, as a person may read it; undefined when none. */
export function proxyName(url: string, settings: ProxySettings | undefined): string | undefined {
  try {
    const proxy = proxyFor(new URL(url), settings);
    return proxy ? describeProxy(proxy) : undefined;
  } catch {
    return undefined;
  }
}

/** The proxy as a person may read it: its scheme, host and port, never its credentials. */
export function describeProxy(proxy: URL): string {
  return `${proxy.protocol}//${proxy.host}`;
}

/**
 * The secrets in the proxies' URLs, decoded and as written, for redaction: the password, or a
 * user name that stands alone (a token given as the user).
 */
export function proxyCredentials(settings: ProxySettings | undefined): string[] {
  const found: string[] = [];
  for (const proxy of [settings?.https, settings?.http]) {
    if (!proxy) continue;
    try {
      const url = new URL(proxy);
      const secret = url.password || (url.username.length >= 8 ? url.username : "");
      if (secret.length >= 4) found.push(secret, decodeURIComponent(secret));
    } catch {
      // Not a URL: it holds no credentials we could find; requests through it fail with a clear error.
    }
  }
  return [...new Set(found)];
}
