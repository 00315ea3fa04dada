// The files behind skills and prompt templates, read as the Agent Skills format writes them: front
// matter with quoted and folded values and nested metadata loads; arguments fill a template as a
// shell would split them.
import { describe, expect, it } from "vitest";
import { FrontMatterError, parseFrontMatter } from "../../agent/resources/front-matter.js";
import { expandTemplate, splitArguments } from "../../agent/resources/prompt-templates.js";

describe("front matter", () => {
  it("reads plain, quoted and folded values, and keeps nested metadata as text", () => {
    const { fields, body, present } = parseFrontMatter(
      [
        "---",
        "name: pdf-tools",
        "description: >",
        "  Extract text and tables from PDF files,",
        "  fill forms. # not a comment inside a block",
        "license: 'Apache-2.0'",
        'compatibility: "needs python3: \\"pdfplumber\\""',
        "metadata:",
        "  author: someone",
        "  version: 1.0",
        "allowed-tools: Bash(python3:*) Read # a comment",
        "---",
        "# PDF tools",
        "Body text.",
      ].join("\n"),
    );
    expect(present).toBe(true);
    expect(fields.name).toBe("pdf-tools");
    expect(fields.description).toBe("Extract text and tables from PDF files, fill forms. # not a comment inside a block\n");
    expect(fields.license).toBe("Apache-2.0");
    expect(fields.compatibility).toBe('needs python3: "pdfplumber"');
    expect(fields.metadata).toBe("author: someone\nversion: 1.0");
    expect(fields["allowed-tools"]).toBe("Bash(python3:*) Read");
    expect(body).toBe("# PDF tools\nBody text.");
  });

  it("a file without front matter is all body; broken front matter names the line", () => {
    expect(parseFrontMatter("Just text\n---\n")).toEqual({ fields: {}, body: "Just text\n---\n", present: false });
    expect(() => parseFrontMatter("---\nname: x\n")).toThrow(/never closed/);
    expect(() => parseFrontMatter("---\nname x\n---\n")).toThrow(/line 2 is not "key: value"/);
    expect(() => parseFrontMatter('---\ndescription: "open\n---\n')).toThrow(/line 2: a double-quoted value is not closed/);
    expect(() => parseFrontMatter("---\nname: a\nname: b\n---\n")).toThrow(FrontMatterError);
  });
});

describe("template arguments", () => {
  it("fills $1, $2 and $@ as a shell splits the arguments; a missing one is empty", () => {
    expect(splitArguments(`src/app.ts "two words" 'single quoted'`)).toEqual(["src/app.ts", "two words", "single quoted"]);
    const template = { body: "Review $1 (then $2; not $3). Everything: $@. Claude Code style: $ARGUMENTS" };
    expect(expandTemplate(template, `src/app.ts "the tests"`)).toBe("Review src/app.ts (then the tests; not ). Everything: src/app.ts the tests. Claude Code style: src/app.ts the tests");
    expect(expandTemplate({ body: "Costs $0 and $5" }, "")).toBe("Costs $0 and ");
  });
});
