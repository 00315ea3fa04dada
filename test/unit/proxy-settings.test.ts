// Which proxy a provider request takes, read from the environment as curl reads it: either case
// (lower case first), HTTPS_PROXY for https://, HTTP_PROXY for http://, and NO_PROXY's hosts,
// subdomains, .suffixes, ports and "*" going direct. Credentials are for the proxy alone.
import { describe, expect, it } from "vitest";
import { describeProxy, proxyCredentials, proxyFor, proxyFromEnv } from "../../agent/providers/proxy.js";

const via = (url: string, env: NodeJS.ProcessEnv): string | undefined => proxyFor(new URL(url), proxyFromEnv(env))?.href;

describe("proxy settings", () => {
  it("takes nothing when no proxy is set, and each scheme's own variable otherwise", () => {
    expect(proxyFromEnv({ NO_PROXY: "example.com" })).toBeUndefined();
    const env = { HTTPS_PROXY: "http://upper:3128", https_proxy: "http://lower:3128", HTTP_PROXY: "proxy.corp:8080" };
    expect(via("https://api.anthropic.com/v1/messages", env)).toBe("http://lower:3128/");
    expect(via("http://localhost:11434/v1", env)).toBe("http://proxy.corp:8080/");
    expect(via("http://localhost:11434/v1", { HTTPS_PROXY: "http://p:1" })).toBeUndefined();
  });

  it("sends NO_PROXY's hosts, their subdomains, .suffixes, matching ports and * around the proxy", () => {
    const env = { HTTPS_PROXY: "http://p:3128", HTTP_PROXY: "http://p:3128", NO_PROXY: "anthropic.com, .internal.corp  localhost:8080,[::1],10.0.0.5" };
    expect(via("https://api.anthropic.com/v1", env)).toBeUndefined();
    expect(via("https://anthropic.com/v1", env)).toBeUndefined();
    expect(via("https://notanthropic.com/v1", env)).toBe("http://p:3128/");
    expect(via("https://llm.internal.corp/v1", env)).toBeUndefined();
    expect(via("http://localhost:8080/v1", env)).toBeUndefined();
    expect(via("http://localhost:11434/v1", env)).toBe("http://p:3128/");
    expect(via("http://[::1]:8000/v1", env)).toBeUndefined();
    expect(via("http://10.0.0.5/v1", env)).toBeUndefined();
    expect(via("https://api.openai.com/v1", { ...env, no_proxy: "*" })).toBeUndefined();
  });

  it("names a proxy without its credentials, and hands the password over for redaction", () => {
    const settings = proxyFromEnv({ HTTPS_PROXY: "http://alice:p%40ss-w0rd@proxy.corp:3128" });
    expect(describeProxy(proxyFor(new URL("https://api.openai.com"), settings)!)).toBe("http://proxy.corp:3128");
    expect(proxyCredentials(settings)).toEqual(["p%40ss-w0rd", "p@ss-w0rd"]);
    expect(proxyCredentials(proxyFromEnv({ HTTPS_PROXY: "http://tok_0123456789abcdef@proxy:1" }))).toEqual(["tok_0123456789abcdef"]);
  });
});
