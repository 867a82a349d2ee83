/**
 * A deep search conversation as the body of a page: each question (as asked, escaped), its
 * answer rendered from Markdown (markdown-html.ts), error, sources, stats, suggested follow-ups
 * and the research's tool calls (in a <details>, so it works without script). Markup only.
 */
import type { Conversation, Question } from '../../model/deepsearch.js';
import { html, type SafeHtml } from '../pages/kit.js';
import { markdownHtml, safeHref } from './markdown-html.js';

export interface PageView {
  /** Opened through its shared link. */
  readonly shared: boolean;
  /** The viewer may read it by its normal link too (its owner, a site admin): they see the shared link to hand on. */
  readonly canShare: boolean;
  readonly origin: string;
}

export const REFRESH_SECONDS = 5;

const STYLE = html`<style>
.meta{color:#555;margin-top:-8px}.asked{white-space:pre-wrap;background:#f3f5f8;border-left:4px solid #0b6bcb;margin:8px 0 16px;padding:8px 12px}
.answer pre{background:#f6f8fa;border:1px solid #ddd;border-radius:4px;padding:8px 12px;overflow-x:auto}.answer pre code{background:none;padding:0}
section.question{border-top:1px solid #ddd;padding-top:8px;margin-top:24px}.stats{color:#555;font-size:14px}.status{font-style:italic}
details ol{font-size:14px}details code{word-break:break-all}.share code{word-break:break-all}
</style>`;

function when(iso: string): string {
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

function seconds(millis: number): string {
  return `${(millis / 1000).toFixed(1)} s`;
}

function link(target: string, label: string): SafeHtml {
  const href = safeHref(target);
  return href === null ? html`${label}` : html`<a href="${href}">${label}</a>`;
}

function questionSection(q: Question, index: number): SafeHtml {
  const completed = q.status === 'completed';
  return html`<section class="question" id="question-${q.id}">
<h2>Question ${index + 1}</h2>
<blockquote class="asked">${q.question}</blockquote>
${completed ? '' : html`<p class="status" role="status">Still ${q.status}: ${q.turns.length} tool calls so far.</p>`}
${q.error === undefined ? '' : html`<p class="error" role="alert"><b>${q.error.title}</b> (${q.error.kind}): ${q.error.message}</p>`}
${q.answer === undefined ? '' : html`<div class="answer">${markdownHtml(q.answer)}</div>`}
${q.sources.length === 0 ? '' : html`<h3>Sources</h3><ul class="sources">${q.sources.map((s) => html`<li>${link(s.link, s.label)}</li>`)}</ul>`}
${completed ? html`<p class="stats">${q.stats.toolCalls} tool calls · ${q.stats.steps} steps · ${q.stats.totalTokens} model tokens · ${seconds(q.stats.timeMillis)}</p>` : ''}
${q.suggestedFollowups.length === 0 ? '' : html`<h3>Suggested follow-ups</h3><ul class="followups">${q.suggestedFollowups.map((f) => html`<li>${f}</li>`)}</ul>`}
${q.turns.length === 0 ? '' : html`<details><summary>Research: ${q.turns.length} tool calls</summary><ol>${q.turns.map((t) => html`<li><code>${t.tool}</code> <code>${JSON.stringify(t.args)}</code> (${t.millis} ms): ${t.result}</li>`)}</ol></details>`}
</section>`;
}

export function conversationTitle(c: Conversation): string {
  return c.questions[0]?.title ?? c.questions[0]?.question.split('\n')[0]?.slice(0, 80) ?? 'Deep search';
}

export function conversationPage(c: Conversation, view: PageView): SafeHtml {
  const path = `/deepsearch/${view.shared ? 'shared/' : ''}${c.readToken}`;
  const running = c.questions.some((q) => q.status !== 'completed');
  return html`${STYLE}<h1>${conversationTitle(c)}</h1>
<p class="meta">Deep search conversation ${c.id} · started ${when(c.createdAt)} · ${c.questions.length} ${c.questions.length === 1 ? 'question' : 'questions'} · <a href="${path}.md">Markdown</a></p>
${view.canShare ? html`<p class="share">Anyone signed in can read it at <code>${view.origin}/deepsearch/shared/${c.readToken}</code></p>` : ''}
${running ? html`<p class="status" role="status">Still researching; this page reloads every ${REFRESH_SECONDS} seconds.</p>` : ''}
${c.questions.map(questionSection)}`;
}
