/**
 * Deep search: conversations of questions, each researched in the background by the configured
 * brain with the asking user's tools, recorded in the store as it goes (status, each tool call,
 * then the answer, sources, stats and follow-ups, or an error with its kind). Who may read what is
 * decided here: a conversation by id or by its normal link, its owner and site admins; by its
 * shared link, anyone signed in who has the token.
 */
import type { Conversation, ConversationRepository, DeepSearchError, Question, Turn } from '../model/deepsearch.js';
import { ResearchFailure, type Brain, type PriorTurn } from './brain.js';
import { Ledger, LimitReached, limitError, type Limits } from './ledger.js';
import type { ResearchTools } from './tools.js';

export interface DeepSearchSettings extends Limits {
  readonly mcpWaitSeconds: number;
  readonly model: { readonly endpoint: string; readonly name: string; readonly apiKeyEnvVar: string };
}

export interface Asker {
  readonly userId: number;
  /** The user's tools, bound to the run's signal (a run outlives the request that started it). */
  readonly tools: (signal: AbortSignal) => ResearchTools;
}

export interface Viewer {
  readonly userId: number | null;
  readonly siteAdmin: boolean;
}

export interface DeepSearchDeps {
  readonly conversations: ConversationRepository;
  /** Read at each question, so a changed setting applies to the next one. */
  readonly settings: () => DeepSearchSettings;
  readonly brainFor: (settings: DeepSearchSettings) => Brain;
  readonly log: (line: string) => void;
}

export const INTERRUPTED: DeepSearchError = {
  title: 'Interrupted', kind: 'Interrupted',
  message: 'The server restarted while this question was being researched, so it was not answered. Ask it again.',
};

const key = (conversationId: number, questionId: number): string => `${conversationId}/${questionId}`;

export class DeepSearch {
  private readonly running = new Map<string, AbortController>();
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly progress = new Map<string, Set<(turn: Turn) => void>>();

  constructor(private readonly deps: DeepSearchDeps) {}

  /** How long the MCP tool waits for an answer before it answers with the link to poll. */
  waitMillis(): number {
    return this.deps.settings().mcpWaitSeconds * 1000;
  }

  get conversations(): ConversationRepository {
    return this.deps.conversations;
  }

  /** Starts a conversation; its first question runs in the background. */
  ask(asker: Asker, origin: string, question: string): Conversation {
    const conversation = this.deps.conversations.create(asker.userId, origin, question);
    this.start(asker, conversation, conversation.questions[0]!.id);
    return conversation;
  }

  /** A follow-up with the conversation's earlier questions and answers as its context. */
  followUp(asker: Asker, conversationId: number, question: string): Conversation | undefined {
    const added = this.deps.conversations.addQuestion(conversationId, question);
    if (added === undefined) return undefined;
    this.start(asker, added.conversation, added.questionId);
    return added.conversation;
  }

  /** The conversation once the question completed, or as it stands after `millis` or when the signal aborts. */
  async waitFor(conversationId: number, questionId: number, millis: number, signal: AbortSignal): Promise<Conversation | undefined> {
    const id = key(conversationId, questionId);
    if (this.running.has(id) && !signal.aborted) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          this.waiters.get(id)?.delete(done);
          resolve();
        };
        const timer = setTimeout(done, millis);
        signal.addEventListener('abort', done, { once: true });
        const set = this.waiters.get(id) ?? new Set();
        set.add(done);
        this.waiters.set(id, set);
      });
    }
    return this.deps.conversations.get(conversationId);
  }

  /** Calls `listener` with each tool call of a running question until it ends; returns the unsubscribe. */
  onTurn(conversationId: number, questionId: number, listener: (turn: Turn) => void): () => void {
    const id = key(conversationId, questionId);
    const set = this.progress.get(id) ?? new Set();
    set.add(listener);
    this.progress.set(id, set);
    return () => void set.delete(listener);
  }

  isRunning(conversationId: number, questionId: number): boolean {
    return this.running.has(key(conversationId, questionId));
  }

  cancel(conversationId: number, questionId: number): Conversation | undefined {
    this.running.get(key(conversationId, questionId))?.abort();
    return this.deps.conversations.updateQuestion(conversationId, questionId, (q) => (q.status === 'completed' ? q : { ...q, status: 'completed', error: limitError(new LimitReached('canceled')) }));
  }

  delete(conversationId: number): boolean {
    const conversation = this.deps.conversations.get(conversationId);
    for (const q of conversation?.questions ?? []) this.running.get(key(conversationId, q.id))?.abort();
    return this.deps.conversations.delete(conversationId);
  }

  /** At start-up: nothing runs yet, so every unfinished question was cut off by a stop; each is marked so. */
  recover(): number {
    let marked = 0;
    for (const conversation of this.deps.conversations.unfinished()) {
      for (const q of conversation.questions) {
        if (q.status === 'completed' || this.running.has(key(conversation.id, q.id))) continue;
        this.deps.conversations.updateQuestion(conversation.id, q.id, (current) => ({ ...current, status: 'completed', error: INTERRUPTED }));
        marked++;
      }
    }
    return marked;
  }

  /** At shutdown: every running question is marked interrupted, then stopped. */
  stopAll(): void {
    for (const [id, controller] of this.running) {
      const [conversationId, questionId] = id.split('/').map(Number) as [number, number];
      this.deps.conversations.updateQuestion(conversationId, questionId, (q) => (q.status === 'completed' ? q : { ...q, status: 'completed', error: INTERRUPTED }));
      controller.abort();
    }
  }

  /** By id or normal link: the owner's and site admins'; anyone else finds nothing. */
  readable(viewer: Viewer, conversation: Conversation | undefined): Conversation | undefined {
    if (conversation === undefined) return undefined;
    return viewer.siteAdmin || (viewer.userId !== null && viewer.userId === conversation.userId) ? conversation : undefined;
  }

  private start(asker: Asker, conversation: Conversation, questionId: number): void {
    const controller = new AbortController();
    const id = key(conversation.id, questionId);
    this.running.set(id, controller);
    const history: PriorTurn[] = conversation.questions.filter((q) => q.id !== questionId && q.answer !== undefined).map((q) => ({ question: q.question, answer: q.answer! }));
    const question = conversation.questions.find((q) => q.id === questionId)!.question;
    void this.run(asker, conversation, questionId, question, history, controller).catch((err: unknown) => {
      // Only a store closed under a run gets here; the question is then marked at the next start.
      this.deps.log(`deepsearch: could not record question ${questionId}: ${err instanceof Error ? err.message : String(err)}`);
    }).finally(() => {
      this.running.delete(id);
      this.progress.delete(id);
      for (const done of [...(this.waiters.get(id) ?? [])]) done();
      this.waiters.delete(id);
    });
  }

  private async run(asker: Asker, conversation: Conversation, questionId: number, question: string, history: readonly PriorTurn[], controller: AbortController): Promise<void> {
    const { conversations, log } = this.deps;
    const update = (change: (q: Question) => Question): void => void conversations.updateQuestion(conversation.id, questionId, (q) => (q.status === 'completed' ? q : change(q)));
    const settings = this.deps.settings();
    update((q) => ({ ...q, status: 'processing' }));
    const ledger = new Ledger(settings, controller.signal, (turn) => {
      update((q) => ({ ...q, turns: [...q.turns, turn] }));
      for (const listener of this.progress.get(key(conversation.id, questionId)) ?? []) listener(turn);
    });
    let outcome: Partial<Question>;
    try {
      const finding = await this.deps.brainFor(settings).research({ question, history, tools: asker.tools(controller.signal), ledger, origin: conversation.origin });
      outcome = { title: finding.title, answer: finding.answer, sources: finding.sources, suggestedFollowups: finding.suggestedFollowups };
    } catch (err) {
      outcome = { title: question.slice(0, 80), error: errorOf(err, log) };
    }
    update((q) => ({ ...q, ...outcome, status: 'completed', turns: ledger.turns, stats: ledger.stats() }));
  }
}

function errorOf(err: unknown, log: (line: string) => void): DeepSearchError {
  if (err instanceof ResearchFailure) return err.error;
  if (err instanceof LimitReached) return limitError(err);
  log(`deepsearch: research failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
  return { title: 'Internal error', kind: 'Internal', message: 'The research failed; the server log has details.' };
}
