// Several agents in one folder: a change to a file another agent changed since this one last saw it
// is refused; one agent alone, or an agent that read the file again, is never refused.
import { describe, expect, it } from "vitest";
import { SharedFiles } from "../../agent/shared-files.js";

describe("the files several agents share", () => {
  it("refuses a change to a file another agent changed since this one saw it, until it reads it again", () => {
    const files = new SharedFiles();
    files.note("main", "/p/a.ts", false);
    files.note("tests", "/p/a.ts", true);
    expect(files.changedByOther("main", "/p/a.ts")).toBe("tests");
    expect(files.changedByOther("tests", "/p/a.ts")).toBeUndefined();
    // A file main never saw, created by tests: main must read it first.
    files.note("tests", "/p/new.ts", true);
    expect(files.changedByOther("main", "/p/new.ts")).toBe("tests");
    files.note("main", "/p/a.ts", false);
    expect(files.changedByOther("main", "/p/a.ts")).toBeUndefined();
  });

  it("never refuses a lone agent, whatever it did before", () => {
    const files = new SharedFiles();
    files.note("main", "/p/a.ts", true);
    files.note("main", "/p/b.ts", false);
    expect(files.changedByOther("main", "/p/a.ts")).toBeUndefined();
    expect(files.changedByOther("main", "/p/b.ts")).toBeUndefined();
    expect(files.changedByOther("main", "/p/c.ts")).toBeUndefined();
  });
});
