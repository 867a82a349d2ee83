/**
 * The header's search box with the query highlighted as it is typed: a copy of the text in
 * coloured spans lies behind the input, whose own text is transparent (its caret and selection are
 * not). The input stays the real, labelled input; the copy is hidden from assistive technology.
 */
import { el } from './search-dom.js';
import { queryTokens } from './query-syntax.js';

export interface QueryBox {
  readonly input: HTMLInputElement;
  /** Marks the query text from this UTF-16 offset on as the place an error was found; null clears it. */
  markError(position: number | null): void;
}

export function enhanceQueryBox(input: HTMLInputElement): QueryBox {
  const overlay = el('div', { class: 'query-overlay', 'aria-hidden': 'true' });
  const wrapper = el('div', { class: 'query-box' });
  input.replaceWith(wrapper);
  wrapper.append(overlay, input);
  input.classList.add('query-input');
  let errorAt: number | null = null;
  const paint = (): void => {
    overlay.replaceChildren(...queryTokens(input.value).map((token) => {
      const inError = errorAt !== null && token.start + token.text.length > errorAt;
      return el('span', { class: `q-${token.kind}${inError ? ' q-error' : ''}` }, token.text);
    }));
    overlay.scrollLeft = input.scrollLeft;
  };
  input.addEventListener('input', () => {
    errorAt = null;
    paint();
  });
  input.addEventListener('scroll', () => { overlay.scrollLeft = input.scrollLeft; });
  // The caret moving (keys, clicks) scrolls a long query without an input event.
  for (const type of ['keyup', 'click', 'select'] as const) input.addEventListener(type, () => { overlay.scrollLeft = input.scrollLeft; });
  paint();
  return {
    input,
    markError(position) {
      errorAt = position;
      paint();
    },
  };
}
