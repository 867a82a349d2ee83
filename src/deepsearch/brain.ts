/**
 * The one interface both researchers implement: a question (with the conversation so far), the
 * asking user's tools and the run's ledger in, a cited Markdown answer out. Brains never touch
 * the store; the service records what they return.
 */
import type { DeepSearchError, Source } from '../model/deepsearch.js';
import type { Ledger } from './ledger.js';
import type { ResearchTools } from './tools.js';

export interface PriorTurn {
  readonly question: string;
  readonly answer: string;
}

export interface ResearchInput {
  readonly question: string;
  readonly history: readonly PriorTurn[];
  readonly tools: ResearchTools;
  readonly ledger: Ledger;
  /** Where answer links point. */
  readonly origin: string;
}

export interface Finding {
  readonly title: string;
  readonly answer: string;
  readonly sources: readonly Source[];
  readonly suggestedFollowups: readonly string[];
}

export interface Brain {
  readonly name: string;
  research(input: ResearchInput): Promise<Finding>;
}

/** A title from the question: its first line, at most 80 characters. */
export function titleOf(question: string): string {
  const line = question.trim().split('\n')[0] ?? '';
  return line.length <= 80 ? line : `${line.slice(0, 79)}…`;
}

/** A failure a brain explains to the user (the model refused, was unreachable), with its kind. */
export class ResearchFailure extends Error {
  constructor(readonly error: DeepSearchError) {
    super(error.message);
  }
}
