// The stand-in Headers (agent/providers/http-headers.ts) against Node's own: the same operations
// must give the same answers and the same refusals, since the SDKs cannot tell which one they have.
import { describe, expect, it } from "vitest";
import { HttpHeaders } from "../../agent/providers/http-headers.js";

type AnyHeaders = HttpHeaders | Headers;
type Step = (h: AnyHeaders) => unknown;

/** Runs the same steps on both classes; each step's result (or the error's class) must match. */
function sameOnBoth(init: ConstructorParameters<typeof Headers>[0], steps: Step[]): unknown[] {
  const run = (make: () => AnyHeaders): unknown[] => {
    let headers: AnyHeaders;
    try {
      headers = make();
    } catch (error) {
      return [`threw ${(error as Error).constructor.name}`];
    }
    return steps.map((step) => {
      try {
        return step(headers);
      } catch (error) {
        return `threw ${(error as Error).constructor.name}`;
      }
    });
  };
  const ours = run(() => new HttpHeaders(init as ConstructorParameters<typeof HttpHeaders>[0]));
  const node = run(() => new Headers(init));
  expect(ours).toEqual(node);
  return ours;
}

const list = (h: AnyHeaders): unknown => [...h];

describe("HttpHeaders behaves as Node's Headers", () => {
  it("takes a record, pairs or another Headers, and lists names lower-cased in sorted order", () => {
    sameOnBoth({ "X-B": "2", "x-a": "1", "Content-Type": "application/json" }, [list]);
    sameOnBoth(
      [
        ["B", "1"],
        ["a", "2"],
        ["b", "3"],
      ],
      [list, (h) => h.get("B"), (h) => [...h.keys()], (h) => [...h.values()]],
    );
    const source = new Headers({ "X-Api-Key": "k", Accept: "text/event-stream" });
    expect([...new HttpHeaders(source)]).toEqual([...new Headers(source)]);
    expect([...new HttpHeaders(new HttpHeaders({ A: "1" }))]).toEqual([["a", "1"]]);
  });

  it("appends, sets, deletes and reads case-insensitively", () => {
    sameOnBoth({ Accept: "a" }, [
      (h) => h.append("ACCEPT", "b"),
      (h) => h.get("accept"),
      (h) => h.has("Accept"),
      (h) => h.set("accept", "c"),
      (h) => h.get("Accept"),
      (h) => h.delete("ACCEPT"),
      (h) => h.has("accept"),
      (h) => h.get("accept"),
      list,
    ]);
  });

  it("keeps set-cookie values apart when listing, and joins them when asked with get", () => {
    sameOnBoth(
      [
        ["Set-Cookie", "a=1"],
        ["set-cookie", "b=2"],
        ["x", "y"],
      ],
      [list, (h) => h.get("set-cookie"), (h) => h.getSetCookie()],
    );
  });

  it("trims a value's surrounding whitespace and refuses bad names and values", () => {
    sameOnBoth({ a: "  spaced \t" }, [(h) => h.get("a")]);
    sameOnBoth({}, [
      (h) => h.append("bad name", "x"),
      (h) => h.append("x", "line\nbreak"),
      (h) => h.append("x", "nul\0"),
      (h) => h.set("", "x"),
      (h) => h.get("bad:name"),
      list,
    ]);
    sameOnBoth([["only-a-name"]] as unknown as [string, string][], [list]);
  });

  it("calls forEach with value, name and the headers, and says what it is", () => {
    const seen: string[] = [];
    const headers = new HttpHeaders({ B: "2", a: "1" });
    headers.forEach((value, name, self) => seen.push(`${name}=${value}:${self === headers}`));
    expect(seen).toEqual(["a=1:true", "b=2:true"]);
    expect(Object.prototype.toString.call(headers)).toBe("[object Headers]");
  });
});
