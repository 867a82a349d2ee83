/**
 * Names the calling thread as the kernel shows it (top -H, ps -L, /proc/<pid>/task/<tid>/comm), so
 * an operator or a benchmark can tell where a server's CPU goes: engine, side lane, sandbox, MCP.
 * Linux only; elsewhere, or where it is refused, it does nothing.
 */
import { writeFileSync } from 'node:fs';

/** The kernel keeps 15 bytes of a thread's name. */
const MAX_NAME_BYTES = 15;

export function nameThisThread(name: string): void {
  try {
    // Synchronous, so the write runs on this thread and /proc/thread-self is this thread.
    writeFileSync('/proc/thread-self/comm', name.slice(0, MAX_NAME_BYTES));
  } catch {
    // Not Linux, or /proc not mounted: the thread keeps its name.
  }
}
