/**
 * What deepsearch_read and the pages accept as a conversation's identifier: a full link in its
 * normal (`…/deepsearch/<token>`) or shared (`…/deepsearch/shared/<token>`) form, either with
 * `.md`, or the bare read token (a UUID, read as the normal form). Any host: links travel.
 */

const TOKEN = '([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})';
const LINK = new RegExp(`^(?:[a-z][a-z0-9+.-]*://[^/]+)?/deepsearch/(shared/)?${TOKEN}(?:\\.md)?/?(?:[?#].*)?$`, 'i');
const BARE = new RegExp(`^${TOKEN}$`);

export interface ConversationIdentifier {
  readonly token: string;
  readonly shared: boolean;
}

export function parseIdentifier(input: string): ConversationIdentifier | null {
  const text = input.trim();
  const bare = BARE.exec(text);
  if (bare !== null) return { token: bare[1]!.toLowerCase(), shared: false };
  const link = LINK.exec(text);
  return link === null ? null : { token: link[2]!.toLowerCase(), shared: link[1] !== undefined };
}
