/**
 * The compile guard's child process: compiles each pattern set exactly as a search worker would
 * (same engines, same choice between them) and every lazily compiled form of it, then says how it
 * went. It runs nothing else, so the parent can kill it at any moment without losing anything.
 */
import { errorMessage, isQuarryError } from '../errors.js';
import { exerciseCompiledForms } from './compile-exercise.js';
import type { GuardReply, GuardRequest } from './compile-guard-messages.js';

process.on('message', (message: GuardRequest) => {
  const started = performance.now();
  let reply: GuardReply;
  try {
    exerciseCompiledForms(message.patterns, message.preference);
    reply = { id: message.id, ok: true, ms: performance.now() - started };
  } catch (err) {
    reply = isQuarryError(err)
      ? { id: message.id, ok: false, code: err.code, message: err.message }
      : { id: message.id, ok: false, code: 'INTERNAL', message: errorMessage(err) };
  }
  process.send?.(reply);
});
process.send?.({ id: -1, ok: true, ms: 0 } satisfies GuardReply);
