/**
 * The file view's script: highlights the `#L10-20` range of the URL (shift-click a line number to
 * extend it), shows a definition's signature when an identifier is hovered or focused, and fills
 * the references panel. Links keep working without it: definitions and references are pages too.
 */
interface DefinitionJson {
  readonly repo: string;
  readonly path: string;
  readonly line: number;
  readonly url: string;
  readonly signature: string;
}

interface DefinitionAnswer {
  readonly name: string;
  readonly definition: DefinitionJson;
  readonly references: string;
}

interface ReferencesAnswer {
  readonly name: string;
  readonly total: number;
  readonly unresolved: number;
  readonly references: readonly { readonly repo: string; readonly path: string; readonly line: number; readonly text: string; readonly url: string }[];
  readonly next: string | null;
}

const HOVER_DELAY_MS = 250;

function element<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className !== undefined) node.className = className;
  return node;
}

async function getJson<T>(url: string): Promise<T | string> {
  const answer = await fetch(url, { headers: { Accept: 'application/json' } });
  const body = await answer.json() as T | { error: string };
  return answer.ok ? body as T : (body as { error: string }).error;
}

function selectFromHash(scroll: boolean): void {
  for (const row of document.querySelectorAll('table.code tr.sel')) row.classList.remove('sel');
  const m = /^#L(\d+)(?:-L?(\d+))?$/.exec(location.hash);
  if (m === null) return;
  const start = Number(m[1]);
  const end = Math.max(start, Number(m[2] ?? m[1]));
  for (let line = start; line <= end; line++) document.getElementById(`L${line}`)?.classList.add('sel');
  if (scroll) document.getElementById(`L${start}`)?.scrollIntoView({ block: 'center' });
}

function selectionStart(): number | null {
  const m = /^#L(\d+)/.exec(location.hash);
  return m === null ? null : Number(m[1]);
}

document.addEventListener('click', (event) => {
  const link = (event.target as Element | null)?.closest<HTMLAnchorElement>('td.ln a');
  const start = selectionStart();
  if (link === null || link === undefined || !event.shiftKey || start === null) return;
  event.preventDefault();
  const line = Number(link.textContent);
  location.hash = `#L${Math.min(start, line)}-${Math.max(start, line)}`;
});
window.addEventListener('hashchange', () => selectFromHash(true));
selectFromHash(location.hash !== '');
document.querySelector('table.code tr.sel')?.scrollIntoView({ block: 'center' });

const panel = document.getElementById('refs-panel');
const card = element('div', undefined, 'hover-card');
card.setAttribute('role', 'tooltip');
card.id = 'hover-card';
card.hidden = true;
document.body.append(card);
const answers = new Map<string, Promise<DefinitionAnswer | string>>();
let pending: number | undefined;
let hideTimer: number | undefined;

function showCard(anchor: HTMLAnchorElement, answer: DefinitionAnswer | string): void {
  card.replaceChildren();
  if (typeof answer === 'string') {
    card.append(element('p', answer));
  } else {
    card.append(element('pre', answer.definition.signature || answer.name));
    const where = element('p');
    const go = element('a', `Go to definition (${answer.definition.path}:${answer.definition.line})`);
    go.href = answer.definition.url;
    const refs = element('button', 'Find references');
    refs.type = 'button';
    refs.addEventListener('click', () => void showReferences(answer.references));
    where.append(go, ' · ', refs);
    card.append(where);
  }
  const box = anchor.getBoundingClientRect();
  card.style.left = `${Math.max(4, Math.min(window.scrollX + box.left, window.scrollX + document.documentElement.clientWidth - 320))}px`;
  card.style.top = `${window.scrollY + box.bottom + 4}px`;
  card.hidden = false;
  anchor.setAttribute('aria-describedby', card.id);
}

function hover(anchor: HTMLAnchorElement): void {
  window.clearTimeout(pending);
  window.clearTimeout(hideTimer);
  pending = window.setTimeout(() => {
    let answer = answers.get(anchor.href);
    if (answer === undefined) {
      answer = getJson<DefinitionAnswer>(anchor.href).catch(() => 'The definition could not be fetched.');
      answers.set(anchor.href, answer);
    }
    void answer.then((a) => showCard(anchor, a));
  }, HOVER_DELAY_MS);
}

function leave(): void {
  window.clearTimeout(pending);
  hideTimer = window.setTimeout(() => { card.hidden = true; }, HOVER_DELAY_MS * 2);
}

for (const kind of ['mouseover', 'focusin'] as const) {
  document.addEventListener(kind, (event) => {
    const target = event.target as Element | null;
    if (target !== null && card.contains(target)) return window.clearTimeout(hideTimer);
    const anchor = target?.closest<HTMLAnchorElement>('a.id');
    if (anchor !== null && anchor !== undefined) hover(anchor);
    else if (!card.hidden) leave();
  });
}
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape') card.hidden = true;
});

async function showReferences(url: string, append = false): Promise<void> {
  if (panel === null) return;
  const answer = await getJson<ReferencesAnswer>(url).catch(() => 'The references could not be fetched.');
  panel.hidden = false;
  if (typeof answer === 'string') {
    panel.replaceChildren(element('h2', 'References'), element('p', answer));
    return;
  }
  let list = panel.querySelector('ol');
  if (!append || list === null) {
    const close = element('button', 'Close');
    close.type = 'button';
    close.addEventListener('click', () => { panel.hidden = true; });
    const counts = `${answer.total} ${answer.total === 1 ? 'reference' : 'references'}${answer.unresolved > 0 ? `, ${answer.unresolved} more matched by name only` : ''}`;
    list = element('ol', undefined, 'refs');
    panel.replaceChildren(element('h2', `References to ${answer.name}`), element('p', counts), list, close);
  }
  panel.querySelector('button.more')?.remove();
  for (const r of answer.references) {
    const item = element('li');
    const link = element('a', `${r.repo} – ${r.path}:${r.line}`);
    link.href = r.url;
    const code = element('pre');
    code.append(element('code', r.text));
    item.append(link, code);
    list.append(item);
  }
  if (answer.next !== null) {
    const more = element('button', 'More references', 'more');
    more.type = 'button';
    const next = answer.next;
    more.addEventListener('click', () => void showReferences(next, true));
    panel.append(more);
  }
  card.hidden = true;
  panel.querySelector('h2')?.setAttribute('tabindex', '-1');
  (panel.querySelector('h2') as HTMLElement | null)?.focus();
}
