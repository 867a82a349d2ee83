/**
 * Deep search conversations as stored and served (Sourcegraph's legacy REST shapes, reference §5.4,
 * in camelCase), and the store seam the research service writes them through. Types only.
 */

export type QuestionStatus = 'pending' | 'processing' | 'completed';

/** Why a question ended without an answer; `kind` names the cause as Sourcegraph's do (e.g. TokenLimitExceeded). */
export interface DeepSearchError {
  readonly title: string;
  readonly kind: 'TokenLimitExceeded' | 'TimeLimitExceeded' | 'ModelUnavailable' | 'ModelError' | 'Interrupted' | 'Canceled' | 'Internal';
  readonly message: string;
}

/** A file the answer cites, with the lines it quotes (1-based, inclusive). */
export interface Source {
  readonly repo: string;
  readonly path: string;
  readonly commit: string;
  readonly startLine: number;
  readonly endLine: number;
  /** An absolute link that opens the lines. */
  readonly link: string;
  readonly label: string;
}

/** One tool call of the research: its arguments and a short result. */
export interface Turn {
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly result: string;
  readonly millis: number;
  /** The model's reasoning before the call, when it gave any. */
  readonly reasoning?: string;
}

export interface QuestionStats {
  readonly timeMillis: number;
  readonly toolCalls: number;
  readonly steps: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly totalTokens: number;
}

export interface Question {
  readonly id: number;
  readonly question: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly status: QuestionStatus;
  readonly title?: string;
  readonly answer?: string;
  readonly sources: readonly Source[];
  readonly turns: readonly Turn[];
  readonly stats: QuestionStats;
  readonly suggestedFollowups: readonly string[];
  readonly error?: DeepSearchError;
}

export interface Conversation {
  readonly id: number;
  readonly userId: number;
  /** A UUID: the `/deepsearch/<token>` and `/deepsearch/shared/<token>` links. */
  readonly readToken: string;
  /** The origin the conversation was asked through; its links start here. */
  readonly origin: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly questions: readonly Question[];
}

export const EMPTY_STATS: QuestionStats = Object.freeze({ timeMillis: 0, toolCalls: 0, steps: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0 });

export type ConversationSort = 'id' | '-id' | 'created_at' | '-created_at' | 'updated_at' | '-updated_at';

export interface ConversationFilter {
  readonly userId?: number;
  readonly id?: number;
  readonly readToken?: string;
  readonly sort: ConversationSort;
  readonly first: number;
  /** Skip conversations up to and including this position of the sorted list. */
  readonly offset: number;
}

/** Where conversations live; every write is one transaction, so a crash leaves the last whole state. */
export interface ConversationRepository {
  create(userId: number, origin: string, question: string): Conversation;
  get(id: number): Conversation | undefined;
  byReadToken(token: string): Conversation | undefined;
  /** Appends a pending question; undefined when the conversation is gone. */
  addQuestion(conversationId: number, question: string): { conversation: Conversation; questionId: number } | undefined;
  /** Replaces one question by what `change` makes of it; the conversation's updatedAt moves. */
  updateQuestion(conversationId: number, questionId: number, change: (q: Question) => Question): Conversation | undefined;
  delete(id: number): boolean;
  list(filter: ConversationFilter): { conversations: Conversation[]; total: number };
  /** Conversations with a question still pending or processing: after a restart, none of them is running. */
  unfinished(): Conversation[];
}
