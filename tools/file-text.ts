// A file's bytes as text the edit tool can change without touching a byte it did not mean to:
// - valid UTF-8 (with or without a byte-order mark) is decoded; encoding it back gives the same bytes;
// - other text (Latin-1, Windows-1252, a stray bad byte in UTF-8) is held one character per byte, so
//   every byte survives; old_string and new_string are turned into bytes (as UTF-8, or as Latin-1
//   when that is what matches);
// - binary files (a NUL byte) and UTF-16/UTF-32 files are refused with the reason.

const UTF8_BOM = "\uFEFF";
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export type FileText =
  | { kind: "utf8"; text: string; bom: boolean }
  | { kind: "bytes"; text: string; firstBadByte: number };

function wideEncoding(bytes: Uint8Array): string | undefined {
  const [a, b, c, d] = bytes;
  if (a === 0xff && b === 0xfe && c === 0 && d === 0) return "UTF-32 (little-endian)";
  if (a === 0 && b === 0 && c === 0xfe && d === 0xff) return "UTF-32 (big-endian)";
  if (a === 0xff && b === 0xfe) return "UTF-16 (little-endian)";
  if (a === 0xfe && b === 0xff) return "UTF-16 (big-endian)";
  return undefined;
}

/** Offset of the first byte that is not part of valid UTF-8. */
function firstInvalidUtf8(bytes: Buffer): number {
  // Valid UTF-8 round-trips; the first difference is where decoding went wrong.
  const again = Buffer.from(bytes.toString("utf8"), "utf8");
  let i = 0;
  while (i < bytes.length && bytes[i] === again[i]) i++;
  return i;
}

export function decodeFileText(bytes: Buffer, shownPath: string): FileText {
  const wide = wideEncoding(bytes);
  if (wide) {
    throw new Error(
      `${shownPath} is encoded as ${wide}; edit only changes UTF-8 or single-byte text, so it was not changed. ` +
        `Convert it with bash (iconv) first, or rewrite it with write if UTF-8 is fine.`,
    );
  }
  const nul = bytes.indexOf(0);
  if (nul !== -1) {
    throw new Error(
      `${shownPath} looks binary (a NUL byte at offset ${nul}); edit only changes text files, so it was not changed. Use bash for binary files.`,
    );
  }
  try {
    const decoded = strictUtf8.decode(bytes);
    const bom = decoded.startsWith(UTF8_BOM);
    return { kind: "utf8", text: bom ? decoded.slice(1) : decoded, bom };
  } catch {
    return { kind: "bytes", text: bytes.toString("latin1"), firstBadByte: firstInvalidUtf8(bytes) };
  }
}

/** The file's new bytes from its (changed) text. */
export function encodeFileText(file: FileText, text: string): Buffer {
  if (file.kind === "bytes") return Buffer.from(text, "latin1");
  return Buffer.from((file.bom ? UTF8_BOM : "") + text, "utf8");
}

/** How a string the model sent is spelled in a byte-held file's text. */
export type ByteSpelling = "UTF-8" | "Latin-1";

/** `text` as one character per byte, encoded as `spelling`; undefined when Latin-1 cannot hold it. */
export function spellAsBytes(text: string, spelling: ByteSpelling): string | undefined {
  if (spelling === "UTF-8") return Buffer.from(text, "utf8").toString("latin1");
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0xff) return undefined;
  return text;
}

/** Text of the file for people (diffs): bytes that are not UTF-8 show as U+FFFD. */
export function readableText(file: FileText, text: string): string {
  return file.kind === "bytes" ? Buffer.from(text, "latin1").toString("utf8") : text;
}
