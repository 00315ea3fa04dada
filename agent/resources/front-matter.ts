// The YAML front matter of a Markdown file (SKILL.md, a prompt template): the block between a first
// line `---` and the next `---`. Only what skills and templates use is read: top-level `key: value`
// scalars (plain, 'single' or "double" quoted) and block scalars (`|`, `>`, with - or +). Anything
// indented under another key (metadata maps, lists) belongs to that key and is kept as its raw text,
// so a valid file with more in it than pitwall reads still loads. What cannot be read is an error
// naming the line, for one warning naming the file.

export interface FrontMatter {
  /** The top-level fields; a key whose value is a nested block holds the block's raw text. */
  fields: Record<string, string>;
  /** The Markdown after the front matter (the whole text when there is none). */
  body: string;
  /** Whether the file had a front matter block at all. */
  present: boolean;
}

export class FrontMatterError extends Error {}

const OPEN = /^---[ \t]*$/;
const KEY = /^([A-Za-z_][\w.-]*)[ \t]*:(?:[ \t]+(.*)|[ \t]*)$/;

export function parseFrontMatter(text: string): FrontMatter {
  const source = text.replace(/^\uFEFF/, "");
  const lines = source.split(/\r?\n/);
  if (!OPEN.test(lines[0] ?? "")) return { fields: {}, body: source, present: false };
  const end = lines.findIndex((line, i) => i > 0 && /^(---|\.\.\.)[ \t]*$/.test(line));
  if (end === -1) throw new FrontMatterError("the front matter opened with --- on line 1 is never closed by a --- line");
  const fields: Record<string, string> = {};
  let i = 1;
  while (i < end) {
    const line = lines[i]!;
    if (line.trim() === "" || /^\s*#/.test(line)) {
      i++;
      continue;
    }
    if (/^\s/.test(line)) throw new FrontMatterError(`line ${i + 1} is indented but belongs to no key: ${line.trim()}`);
    const match = KEY.exec(line);
    if (!match) throw new FrontMatterError(`line ${i + 1} is not "key: value": ${line.trim()}`);
    const key = match[1]!;
    const value = match[2] ?? "";
    const raw = isQuoted(value) ? value.trim() : value.replace(/[ \t]+#.*$/, "").trim();
    // Lines indented under the key: a block scalar's text, or a nested map or list.
    let next = i + 1;
    while (next < end && (lines[next]!.trim() === "" || /^\s/.test(lines[next]!))) next++;
    const block = lines.slice(i + 1, next);
    if (Object.hasOwn(fields, key)) throw new FrontMatterError(`line ${i + 1} sets "${key}" a second time`);
    fields[key] = /^[|>][+-]?$/.test(raw) ? blockScalar(raw, block) : block.some((l) => l.trim()) && raw === "" ? dedent(block).join("\n") : scalar(raw, block, i + 1);
    i = next;
  }
  return { fields, body: lines.slice(end + 1).join("\n"), present: true };
}

function isQuoted(value: string): boolean {
  return /^["']/.test(value.trim());
}

/** A plain or quoted scalar, folded over continuation lines as YAML does. */
function scalar(raw: string, continuation: string[], lineNumber: number): string {
  const more = continuation.map((l) => l.trim()).filter(Boolean);
  const text = [raw, ...more].join(" ");
  if (text.startsWith('"')) {
    if (!/^"(?:[^"\\]|\\.)*"$/.test(text)) throw new FrontMatterError(`line ${lineNumber}: a double-quoted value is not closed`);
    try {
      return JSON.parse(text) as string;
    } catch {
      throw new FrontMatterError(`line ${lineNumber}: a double-quoted value has an escape YAML does not know`);
    }
  }
  if (text.startsWith("'")) {
    if (!/^'(?:[^']|'')*'$/.test(text)) throw new FrontMatterError(`line ${lineNumber}: a single-quoted value is not closed`);
    return text.slice(1, -1).replace(/''/g, "'");
  }
  if (/^[[{]/.test(text) && !/[\]}]$/.test(text)) throw new FrontMatterError(`line ${lineNumber}: a ${text[0] === "[" ? "list" : "map"} is not closed`);
  if (/^[&*!]/.test(text)) throw new FrontMatterError(`line ${lineNumber}: anchors, aliases and tags are not supported here`);
  return text;
}

/** `|` keeps line breaks, `>` folds them into spaces; `-` drops the final newline, `+` keeps them all. */
function blockScalar(indicator: string, block: string[]): string {
  const lines = dedent(block);
  while (lines.length && lines[lines.length - 1]!.trim() === "") lines.pop();
  const text = indicator.startsWith("|") ? lines.join("\n") : lines.reduce((out, line) => (out === "" ? line : line === "" ? `${out}\n` : out.endsWith("\n") ? `${out}${line}` : `${out} ${line}`), "");
  return indicator.endsWith("-") ? text : `${text}\n`;
}

function dedent(block: string[]): string[] {
  const indents = block.filter((l) => l.trim()).map((l) => /^\s*/.exec(l)![0].length);
  const cut = indents.length ? Math.min(...indents) : 0;
  return block.map((l) => l.slice(cut).trimEnd());
}
