/**
 * Reads the stream API's server-sent events with fetch (not EventSource), for searches started from
 * the page; a new search aborts the old one; nothing reconnects behind the page's back.
 */
/** May return a promise: the next event waits for it (the page lets its first results be painted). */
export type EventHandler = (name: string, data: string) => void | Promise<void>;

/** Resolves at the end of the stream; rejects when the server cannot be reached or refuses (the status named). */
export async function readEvents(url: string, signal: AbortSignal, onEvent: EventHandler): Promise<void> {
  const response = await fetch(url, { signal });
  if (!response.ok || response.body === null) throw new Error(`the server answered ${response.status} ${response.statusText}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffered += value;
    let end: number;
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      const block = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      await dispatch(block, onEvent);
    }
  }
}

/** One event's lines: `event: NAME` and `data: JSON` (the server never splits data over lines). */
function dispatch(block: string, onEvent: EventHandler): void | Promise<void> {
  let name = 'message';
  let data = '';
  for (const line of block.split('\n')) {
    if (line.startsWith('event: ')) name = line.slice(7);
    else if (line.startsWith('data: ')) data = line.slice(6);
  }
  return onEvent(name, data);
}
