/**
 * Keeps the process alive while a task's caller waits for its answer. Piscina leaves idle threads
 * unreferenced, and while a terminated worker is being replaced nothing else may hold the event
 * loop open: a CLI run awaiting a task would otherwise end with the task still pending.
 */

/** setInterval's longest delay: the timer only holds the loop, it never needs to fire. */
const HOLD_MS = 2 ** 31 - 1;

export interface LoopHold {
  /** Holds the loop until the returned function is called (once). */
  hold(): () => void;
}

export function createLoopHold(): LoopHold {
  let holders = 0;
  let timer: ReturnType<typeof setInterval> | null = null;
  return {
    hold() {
      if (holders++ === 0) timer = setInterval(() => undefined, HOLD_MS);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        if (--holders === 0 && timer !== null) {
          clearInterval(timer);
          timer = null;
        }
      };
    },
  };
}
