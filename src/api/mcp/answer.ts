/**
 * Answers sized for agents: a token budget (estimated at 4 characters per token), and a builder
 * that adds sections while they fit and remembers what it had to leave out, so that every answer
 * can say how much is missing and how to get it. Nothing is ever cut silently.
 */

const CHARS_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

export class AnswerBuilder {
  private readonly parts: string[] = [];
  private used = 0;
  private readonly limit: number;
  /** Sections refused because the budget was spent. */
  omitted = 0;

  /** reserveTokens keeps room for the closing notice. */
  constructor(maxTokens: number, reserveTokens = 150) {
    this.limit = Math.max(0, maxTokens - reserveTokens) * CHARS_PER_TOKEN;
  }

  get remainingChars(): number {
    return this.limit - this.used;
  }

  /** Adds the section if it fits whole; otherwise counts it as omitted and returns false. */
  add(section: string): boolean {
    if (section.length > this.remainingChars) {
      this.omitted++;
      return false;
    }
    this.parts.push(section);
    this.used += section.length;
    return true;
  }

  get sections(): number {
    return this.parts.length;
  }

  /** The sections joined by `separator`, then the notice (if any) after a blank line. */
  finish(notice: string | null, separator = ''): string {
    const body = this.parts.join(separator);
    if (notice === null || notice === '') return body;
    return body === '' ? `${notice}\n` : `${body.replace(/\n*$/, '\n')}\n${notice}\n`;
  }
}
