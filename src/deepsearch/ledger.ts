/**
 * A research run's ledger: its limits (site settings `deepSearch.max*`), each tool call with its
 * arguments and a short result, and the counts the stats report. A call past a limit or the
 * deadline throws LimitReached before it runs, so no limit is crossed by more than the call in flight.
 */
import type { DeepSearchError, QuestionStats, Turn } from '../model/deepsearch.js';

export interface Limits {
  readonly maxSteps: number;
  readonly maxToolCalls: number;
  readonly maxTokens: number;
  readonly maxSeconds: number;
}

export class LimitReached extends Error {
  constructor(readonly kind: 'steps' | 'toolCalls' | 'tokens' | 'time' | 'canceled') {
    super(`research stopped: ${kind === 'canceled' ? 'canceled' : `the ${kind} limit was reached`}`);
  }
}

const RESULT_CHARS = 300;

export class Ledger {
  readonly turns: Turn[] = [];
  private readonly started = performance.now();
  private steps = 0;
  private promptTokens = 0;
  private completionTokens = 0;
  /** What stopped the run early, if anything did: the answer still comes from what was found. */
  stoppedBy: LimitReached | null = null;

  constructor(readonly limits: Limits, readonly signal: AbortSignal, private readonly onTurn: (turn: Turn) => void = () => {}) {}

  get toolCalls(): number {
    return this.turns.length;
  }

  get elapsedMillis(): number {
    return performance.now() - this.started;
  }

  /** Throws when the run must stop: canceled, out of time, or the given count at its limit. */
  check(next?: 'steps' | 'toolCalls'): void {
    if (this.signal.aborted) throw new LimitReached('canceled');
    if (this.elapsedMillis > this.limits.maxSeconds * 1000) throw new LimitReached('time');
    if (this.promptTokens + this.completionTokens >= this.limits.maxTokens) throw new LimitReached('tokens');
    if (next === 'steps' && this.steps >= this.limits.maxSteps) throw new LimitReached('steps');
    if (next === 'toolCalls' && this.toolCalls >= this.limits.maxToolCalls) throw new LimitReached('toolCalls');
  }

  step(): void {
    this.check('steps');
    this.steps++;
  }

  addTokens(prompt: number, completion: number): void {
    this.promptTokens += prompt;
    this.completionTokens += completion;
  }

  /** Runs one tool call inside the limits and records it. */
  async call<T>(tool: string, args: Readonly<Record<string, unknown>>, run: () => Promise<T>, summarize: (value: T) => string, reasoning?: string): Promise<T> {
    this.check('toolCalls');
    const began = performance.now();
    let result = '';
    try {
      const value = await run();
      result = summarize(value);
      return value;
    } catch (err) {
      result = `error: ${err instanceof Error ? err.message : String(err)}`;
      throw err;
    } finally {
      const turn: Turn = { tool, args, result: shorten(result), millis: Math.round(performance.now() - began), ...(reasoning ? { reasoning: shorten(reasoning) } : {}) };
      this.turns.push(turn);
      this.onTurn(turn);
    }
  }

  stats(): QuestionStats {
    return {
      timeMillis: Math.round(this.elapsedMillis), toolCalls: this.toolCalls, steps: this.steps,
      promptTokens: this.promptTokens, completionTokens: this.completionTokens, totalTokens: this.promptTokens + this.completionTokens,
    };
  }
}

function shorten(text: string): string {
  return text.length <= RESULT_CHARS ? text : `${text.slice(0, RESULT_CHARS - 1)}…`;
}

/** How a limit that ended a run without an answer is reported. */
export function limitError(reached: LimitReached): DeepSearchError {
  switch (reached.kind) {
    case 'canceled': return { title: 'Canceled', kind: 'Canceled', message: 'The question was canceled before it was answered.' };
    case 'time': return { title: 'Time limit reached', kind: 'TimeLimitExceeded', message: 'The research ran out of time (site setting deepSearch.maxSeconds).' };
    case 'tokens': return { title: 'Token limit reached', kind: 'TokenLimitExceeded', message: 'The research used its model tokens (site setting deepSearch.maxTokens).' };
    default: return { title: 'Step limit reached', kind: 'TokenLimitExceeded', message: `The research reached its ${reached.kind === 'steps' ? 'step' : 'tool call'} limit (site setting deepSearch.${reached.kind === 'steps' ? 'maxSteps' : 'maxToolCalls'}) without an answer.` };
  }
}
