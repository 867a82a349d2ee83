/**
 * How a file's bytes are shown: binary or text (a NUL byte in its first 8 KiB, as git decides),
 * and a text cut at a line end when it is too long to show.
 */

/** Past this a file view shows the first part and says so; the raw download has the rest. */
export const SHOWN_MAX_BYTES = 1024 * 1024;
const SNIFF_BYTES = 8000;

export function isBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, SNIFF_BYTES).includes(0);
}

/** The bytes to show: all of them, or up to the last line end within SHOWN_MAX_BYTES. */
export function shownPart(bytes: Uint8Array): { readonly shown: Uint8Array; readonly cut: boolean } {
  if (bytes.length <= SHOWN_MAX_BYTES) return { shown: bytes, cut: false };
  const end = bytes.subarray(0, SHOWN_MAX_BYTES).lastIndexOf(0x0a);
  return { shown: bytes.subarray(0, end < 0 ? SHOWN_MAX_BYTES : end + 1), cut: true };
}

/** Start offset of each line of the text; a final newline starts no extra line. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0 && i + 1 < text.length; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}
