/**
 * The search page's DOM builders: an element from its tag, attributes and children, where strings
 * always become text nodes (never markup), and text with code point ranges wrapped in <mark>.
 */
export type Child = Node | string | null | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Readonly<Record<string, string>> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  for (const child of children) if (child !== null && child !== undefined && child !== false) element.append(child);
  return element;
}

/** `[offset, length]` pairs counted in Unicode code points, as the stream API sends them. */
export type CodePointRange = readonly [number, number];

/** The text with each range marked; overlapping or out-of-order ranges are merged first. */
export function highlighted(text: string, ranges: readonly CodePointRange[]): DocumentFragment {
  const points = Array.from(text);
  const fragment = document.createDocumentFragment();
  let at = 0;
  for (const [start, end] of mergedRanges(ranges, points.length)) {
    if (start > at) fragment.append(points.slice(at, start).join(''));
    fragment.append(el('mark', {}, points.slice(start, end).join('')));
    at = end;
  }
  if (at < points.length) fragment.append(points.slice(at).join(''));
  return fragment;
}

function mergedRanges(ranges: readonly CodePointRange[], limit: number): [number, number][] {
  const sorted = ranges.map(([offset, length]): [number, number] => [Math.max(0, offset), Math.min(limit, offset + length)])
    .filter(([start, end]) => end > start).sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const range of sorted) {
    const last = merged.at(-1);
    if (last !== undefined && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push(range);
  }
  return merged;
}
