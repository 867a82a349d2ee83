/**
 * Reads the events the server writes into the search page itself (the server's
 * search-page-stream.ts): JSON data blocks the parser adds to #search-events while the page is
 * still loading. A block is read once the parser is past it (the text after it is in), so its
 * JSON is whole; events are handled one at a time, in order, as the stream API's are.
 */
import type { EventHandler } from './search-stream.js';

/** Resolves after the `done` event, at the end of the document, or once `signal` aborts. */
export function readPageEvents(container: HTMLElement, signal: AbortSignal, onEvent: EventHandler): Promise<void> {
  return new Promise((resolve) => {
    let read = 0;
    let pumping = false;
    const finish = (): void => {
      observer.disconnect();
      document.removeEventListener('DOMContentLoaded', pump);
      resolve();
    };
    async function pump(): Promise<void> {
      if (pumping) return;
      pumping = true;
      try {
        for (;;) {
          if (signal.aborted) return finish();
          const block = container.children[read];
          const parsed = block !== undefined && (block.nextSibling !== null || document.readyState !== 'loading');
          if (!parsed) {
            if (document.readyState !== 'loading') finish();
            return;
          }
          read++;
          const name = block.getAttribute('data-event') ?? 'message';
          await onEvent(name, block.textContent ?? '');
          if (name === 'done') return finish();
        }
      } finally {
        pumping = false;
      }
    }
    const observer = new MutationObserver(() => void pump());
    observer.observe(container, { childList: true });
    document.addEventListener('DOMContentLoaded', pump);
    void pump();
  });
}
