/** The name a written type annotation leads to, for member lookup: `*Route` → Route, `Optional["App"]` → App. */

const WRAPPERS = /^(?:typing\.)?(?:Optional|Final|ClassVar|Annotated)\[(.*?)(?:,.*)?\]$/s;
const PREFIXES = /^(?:[*&]|\[\d*\]|\.\.\.|mut\s+|const\s+|readonly\s+|dyn\s+|impl\s+)+/;
const HEAD = /^[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*/;

/** The base name of the type written, or undefined for what names no single type (unions, functions, literals). */
export function declaredTypeName(written: string): string | undefined {
  let text = written.trim().replace(/^:\s*/, '');
  // A union with None (Python) or null/undefined (TypeScript) still names one type.
  text = text.split('|').map((part) => part.trim()).filter((part) => !/^(?:None|null|undefined)$/.test(part)).join('|');
  if (text.includes('|')) return undefined;
  for (let unwrapped = text.match(WRAPPERS); unwrapped !== null; unwrapped = text.match(WRAPPERS)) text = unwrapped[1]!.trim();
  text = text.replace(/^["']|["']$/g, '').replace(PREFIXES, '');
  const head = text.match(HEAD)?.[0];
  if (head === undefined) return undefined;
  return head.slice(Math.max(head.lastIndexOf('.'), head.lastIndexOf(':')) + 1);
}
