/**
 * A small service repository in several languages for nls_search's relevance test: an HTTP server,
 * auth, sessions, a connection pool, config, a CLI parser, an LRU cache, logging, retries, plus
 * files that mention those words in passing. Written as ordinary code, not for the ranker.
 */

import { INFRA_FILES } from './relevance-corpus-infra.js';
import { WEB_FILES } from './relevance-corpus-web.js';

export const RELEVANCE_REPO = 'github.com/acme/storefront';

export const RELEVANCE_FILES: Record<string, string> = { ...WEB_FILES, ...INFRA_FILES };

export interface RelevanceQuestion {
  readonly question: string;
  readonly expected: string;
}

/** What an agent would type into nls_search, and the file that answers it. */
export const RELEVANCE_QUESTIONS: readonly RelevanceQuestion[] = [
  { question: 'where are HTTP requests parsed', expected: 'src/http/request-parser.ts' },
  { question: 'parseHTTPRequest implementation', expected: 'src/http/request-parser.ts' },
  { question: 'how does the login check the password', expected: 'src/auth/login.ts' },
  { question: 'which code evicts old cache entries', expected: 'src/cache/lru.rs' },
  { question: 'database connection pool acquire release', expected: 'src/db/pool.go' },
  { question: 'how is configuration loaded from environment variables', expected: 'src/config/load.ts' },
  { question: 'command line argument parsing', expected: 'cli/args.py' },
  { question: 'retry with exponential backoff', expected: 'src/util/retry.go' },
  { question: 'where do sessions expire', expected: 'src/auth/session.ts' },
  { question: 'log level threshold', expected: 'src/log/logger.ts' },
  { question: 'how are routes dispatched to handlers', expected: 'src/http/router.ts' },
  { question: 'middleware that requires an authenticated user', expected: 'src/auth/middleware.ts' },
  { question: 'least recently used cache', expected: 'src/cache/lru.rs' },
  { question: 'close idle database connections', expected: 'src/db/pool.go' },
  { question: 'verify password hash', expected: 'src/auth/login.ts' },
];
