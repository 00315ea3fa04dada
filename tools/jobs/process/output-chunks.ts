// Splits raw output into pieces of at most 8 KiB (UTF-8) for output events, so one event never
// carries a megabyte and a slow listener sees steady, small steps.

export const MAX_CHUNK_BYTES = 8 * 1024;

export function splitChunk(text: string, maxBytes: number = MAX_CHUNK_BYTES): string[] {
  if (text.length * 3 <= maxBytes || Buffer.byteLength(text, "utf8") <= maxBytes) return [text];
  const pieces: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + maxBytes);
    while (Buffer.byteLength(text.slice(start, end), "utf8") > maxBytes) {
      end = start + Math.max(1, Math.floor((end - start) * 0.75));
    }
    // Never split a surrogate pair between two events.
    const last = text.charCodeAt(end - 1);
    if (end < text.length && end - start > 1 && last >= 0xd800 && last <= 0xdbff) end--;
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}
