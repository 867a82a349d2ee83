/**
 * Deep search conversations in the instance store: one record per conversation (its questions
 * inside), keyed by integer id, and the id of each read token's SHA-256, so a token is looked up
 * by its digest. Every change is one write transaction: a crash leaves the last whole record.
 */
import { createHash, randomUUID } from 'node:crypto';
import { EMPTY_STATS, type Conversation, type ConversationFilter, type ConversationRepository, type Question } from '../model/deepsearch.js';
import { takeNextId } from './counters.js';
import type { Table } from './engine.js';
import type { Store } from './records.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function tokenDigest(token: string): string {
  return createHash('sha256').update(token.toLowerCase()).digest('hex');
}

function newQuestion(store: Store, question: string, at: string): Question {
  return { id: takeNextId(store, 'nextDeepSearchQuestionId'), question, createdAt: at, updatedAt: at, status: 'pending', sources: [], turns: [], stats: EMPTY_STATS, suggestedFollowups: [] };
}

const SORT_KEYS = { id: (c: Conversation) => c.id, created_at: (c: Conversation) => c.createdAt, updated_at: (c: Conversation) => c.updatedAt } as const;

export function openConversations(store: Store): ConversationRepository {
  const records: Table<Conversation, number> = store.root.openDB<Conversation, number>('deepSearchConversations');
  const tokens: Table<number, string> = store.root.openDB<number, string>('deepSearchReadTokens');
  const now = (): string => new Date().toISOString();

  return {
    create(userId, origin, question) {
      return store.root.transactionSync(() => {
        const at = now();
        const conversation: Conversation = {
          id: takeNextId(store, 'nextDeepSearchConversationId'), userId, readToken: randomUUID(), origin, createdAt: at, updatedAt: at,
          questions: [newQuestion(store, question, at)],
        };
        records.putSync(conversation.id, conversation);
        tokens.putSync(tokenDigest(conversation.readToken), conversation.id);
        return conversation;
      });
    },
    get: (id) => records.get(id),
    byReadToken(token) {
      if (!UUID.test(token)) return undefined;
      const id = tokens.get(tokenDigest(token));
      return id === undefined ? undefined : records.get(id);
    },
    addQuestion(conversationId, question) {
      return store.root.transactionSync(() => {
        const current = records.get(conversationId);
        if (current === undefined) return undefined;
        const at = now();
        const added = newQuestion(store, question, at);
        const conversation = { ...current, updatedAt: at, questions: [...current.questions, added] };
        records.putSync(conversationId, conversation);
        return { conversation, questionId: added.id };
      });
    },
    updateQuestion(conversationId, questionId, change) {
      return store.root.transactionSync(() => {
        const current = records.get(conversationId);
        if (current === undefined || !current.questions.some((q) => q.id === questionId)) return undefined;
        const at = now();
        const questions = current.questions.map((q) => (q.id === questionId ? { ...change(q), updatedAt: at } : q));
        const conversation = { ...current, updatedAt: at, questions };
        records.putSync(conversationId, conversation);
        return conversation;
      });
    },
    delete(id) {
      return store.root.transactionSync(() => {
        const current = records.get(id);
        if (current === undefined) return false;
        records.removeSync(id);
        tokens.removeSync(tokenDigest(current.readToken));
        return true;
      });
    },
    list(filter: ConversationFilter) {
      const matching: Conversation[] = [];
      for (const { value } of records.getRange()) {
        if (filter.userId !== undefined && value.userId !== filter.userId) continue;
        if (filter.id !== undefined && value.id !== filter.id) continue;
        if (filter.readToken !== undefined && value.readToken !== filter.readToken.toLowerCase()) continue;
        matching.push(value);
      }
      const descending = filter.sort.startsWith('-');
      const key = SORT_KEYS[filter.sort.replace(/^-/, '') as keyof typeof SORT_KEYS];
      matching.sort((a, b) => {
        const [x, y] = [key(a), key(b)];
        const order = x < y ? -1 : x > y ? 1 : a.id - b.id;
        return descending ? -order : order;
      });
      return { conversations: matching.slice(filter.offset, filter.offset + filter.first), total: matching.length };
    },
    unfinished() {
      const out: Conversation[] = [];
      for (const { value } of records.getRange()) if (value.questions.some((q) => q.status !== 'completed')) out.push(value);
      return out;
    },
  };
}
