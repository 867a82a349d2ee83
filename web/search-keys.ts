/**
 * Keyboard navigation over the results: j or ↓ moves to the next result's main link, k or ↑ to the
 * previous one, Enter (the focused link's own) opens it. Keys typed in a text field are left alone.
 */
const NEXT = new Set(['j', 'ArrowDown']);
const PREVIOUS = new Set(['k', 'ArrowUp']);

export function navigateWithKeys(list: HTMLElement): void {
  document.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const step = NEXT.has(event.key) ? 1 : PREVIOUS.has(event.key) ? -1 : 0;
    if (step === 0) return;
    const target = event.target as HTMLElement | null;
    if (target !== null && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    const links = [...list.querySelectorAll<HTMLAnchorElement>('a[data-primary]')];
    if (links.length === 0) return;
    event.preventDefault();
    const current = links.findIndex((link) => link.closest('li.result')?.contains(document.activeElement) ?? false);
    const next = current < 0 ? (step > 0 ? 0 : links.length - 1) : Math.min(links.length - 1, Math.max(0, current + step));
    links[next]!.focus();
    links[next]!.scrollIntoView({ block: 'nearest' });
  });
}
