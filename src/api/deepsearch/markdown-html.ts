/**
 * Markdown answers as HTML for the deep search pages, a small safe subset only: headings,
 * paragraphs, lists, fenced code blocks, inline code, emphasis, and links whose target is http(s)
 * or a path on this server. Every other character is escaped, so raw HTML in an answer (a model's
 * or a quoted file's) shows as text; a link to anything else (`javascript:`, `data:`, `//host`)
 * shows as its text alone.
 */
import { escapeHtml, SafeHtml } from '../pages/kit.js';

/** The answer's `#` sits below the page's own headings: shifted down by this many levels. */
const HEADING_SHIFT = 2;

const FENCE = /^\s{0,3}(`{3,}|~{3,})\s*([\w+#.-]*)/;
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const BULLET = /^\s*[-*+]\s+(.*)$/;
const NUMBERED = /^\s*\d{1,9}[.)]\s+(.*)$/;

/** http(s) anywhere, or a path here (`/x`, not `//host`, which is another host). */
export function safeHref(target: string): string | null {
  const href = target.trim();
  if (/^https?:\/\/[^\s]+$/i.test(href)) return href;
  if (/^\/(?![/\\])[^\s]*$/.test(href) || /^#[^\s]*$/.test(href)) return href;
  return null;
}

const INLINE = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)|\[([^\]\n]*)\]\(([^()\s]*)\)|\*\*(?=\S)([^*\n]*?\S)\*\*|(?<![\w*])[*_](?=\S)([^*_\n]*?\S)[*_](?![\w*])/g;

/** One line's (or paragraph's) inline Markdown: code spans, links, strong, emphasis; the rest escaped. */
export function inlineHtml(text: string, linksAllowed = true): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    out += escapeHtml(text.slice(last, m.index));
    last = m.index + m[0].length;
    const [, , code, label, target, strong, emphasis] = m;
    if (code !== undefined) out += `<code>${escapeHtml(code.trim() === '' ? code : code.replace(/^ (.*) $/s, '$1'))}</code>`;
    else if (label !== undefined) {
      const href = linksAllowed ? safeHref(target ?? '') : null;
      out += href === null ? inlineHtml(label, false) : `<a href="${escapeHtml(href)}">${inlineHtml(label, false)}</a>`;
    } else if (strong !== undefined) out += `<strong>${inlineHtml(strong, linksAllowed)}</strong>`;
    else out += `<em>${inlineHtml(emphasis ?? '', linksAllowed)}</em>`;
  }
  return out + escapeHtml(text.slice(last));
}

/** A Markdown document as HTML in the subset above. */
export function markdownHtml(markdown: string): SafeHtml {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let paragraph: string[] = [];
  let list: { tag: 'ul' | 'ol'; items: string[] } | null = null;
  const flush = (): void => {
    if (paragraph.length > 0) out.push(`<p>${inlineHtml(paragraph.join('\n'))}</p>`);
    paragraph = [];
    if (list !== null) out.push(`<${list.tag}>${list.items.map((item) => `<li>${inlineHtml(item)}</li>`).join('')}</${list.tag}>`);
    list = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = FENCE.exec(line);
    if (fence !== null) {
      flush();
      const body: string[] = [];
      const close = fence[1]!;
      for (i++; i < lines.length && !(lines[i]!.trim().startsWith(close) && lines[i]!.trim().replace(/[`~]/g, '') === ''); i++) body.push(lines[i]!);
      const language = fence[2] === '' ? '' : ` class="language-${escapeHtml(fence[2]!)}"`;
      out.push(`<pre><code${language}>${escapeHtml(body.join('\n'))}</code></pre>`);
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading !== null) {
      flush();
      const level = Math.min(6, heading[1]!.length + HEADING_SHIFT);
      out.push(`<h${level}>${inlineHtml(heading[2]!)}</h${level}>`);
      continue;
    }
    const bullet = BULLET.exec(line);
    const numbered = bullet === null ? NUMBERED.exec(line) : null;
    const item = bullet ?? numbered;
    if (item !== null) {
      const tag = bullet !== null ? 'ul' : 'ol';
      if (paragraph.length > 0 || (list !== null && list.tag !== tag)) flush();
      list ??= { tag, items: [] };
      list.items.push(item[1]!);
      continue;
    }
    if (line.trim() === '') {
      flush();
      continue;
    }
    // A line indented under a list item continues it; any other line continues the paragraph.
    if (list !== null && /^\s+\S/.test(line)) list.items[list.items.length - 1] += `\n${line.trim()}`;
    else {
      if (list !== null) flush();
      paragraph.push(line);
    }
  }
  flush();
  return new SafeHtml(out.join('\n'));
}
