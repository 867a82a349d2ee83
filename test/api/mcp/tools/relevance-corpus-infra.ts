/**
 * The rest of the relevance test repository: database pool, config, a Python CLI, an LRU
 * cache, logging, retries, docs, and files that use those words in passing.
 */

export const INFRA_FILES: Record<string, string> = {
  'src/db/pool.go': `package db

import (
	"context"
	"database/sql"
	"errors"
	"sync"
)

var ErrPoolClosed = errors.New("db: connection pool closed")

// Pool hands out database connections, keeping at most max open at once.
type Pool struct {
	mu     sync.Mutex
	idle   []*sql.Conn
	open   int
	max    int
	db     *sql.DB
	closed bool
}

func NewPool(db *sql.DB, max int) *Pool {
	return &Pool{db: db, max: max}
}

// Acquire returns an idle connection or opens a new one while under the limit.
func (p *Pool) Acquire(ctx context.Context) (*sql.Conn, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, ErrPoolClosed
	}
	if n := len(p.idle); n > 0 {
		conn := p.idle[n-1]
		p.idle = p.idle[:n-1]
		return conn, nil
	}
	p.open++
	return p.db.Conn(ctx)
}

// Release puts a connection back for reuse.
func (p *Pool) Release(conn *sql.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.idle = append(p.idle, conn)
}

// Close closes every idle connection.
func (p *Pool) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	for _, conn := range p.idle {
		conn.Close()
	}
	p.idle = nil
	return nil
}
`,
  'src/config/load.ts': `import { readFileSync } from 'node:fs';

export interface AppConfig {
  port: number;
  databaseUrl: string;
  logLevel: 'debug' | 'info' | 'warn';
  cacheSize: number;
}

const DEFAULTS: AppConfig = { port: 8080, databaseUrl: 'http://localhost:5433', logLevel: 'info', cacheSize: 1000 };

/** Reads config.json, then lets APP_* environment variables override single settings. */
export function loadConfig(path = 'config.json'): AppConfig {
  let fromFile: Partial<AppConfig> = {};
  try {
    fromFile = JSON.parse(readFileSync(path, 'utf8')) as Partial<AppConfig>;
  } catch {
    fromFile = {};
  }
  const env = process.env;
  return {
    ...DEFAULTS,
    ...fromFile,
    ...(env.APP_PORT ? { port: Number(env.APP_PORT) } : {}),
    ...(env.APP_DATABASE_URL ? { databaseUrl: env.APP_DATABASE_URL } : {}),
    ...(env.APP_LOG_LEVEL ? { logLevel: env.APP_LOG_LEVEL as AppConfig['logLevel'] } : {}),
  };
}
`,
  'cli/args.py': `"""Command line flags for the storefront admin tool."""
import sys


class UsageError(Exception):
    pass


def parse_args(argv):
    """Turns --name=value and --flag arguments into a dict; positional arguments go under 'rest'."""
    options = {"rest": []}
    for arg in argv:
        if arg.startswith("--"):
            name, _, value = arg[2:].partition("=")
            if not name:
                raise UsageError("empty option name")
            options[name] = value if value else True
        else:
            options["rest"].append(arg)
    return options


if __name__ == "__main__":
    print(parse_args(sys.argv[1:]))
`,
  'cli/main.py': `"""Entry point of the admin tool: dispatches subcommands."""
from args import parse_args, UsageError

COMMANDS = {"reindex", "flush-cache", "create-user"}


def main(argv):
    try:
        options = parse_args(argv)
    except UsageError as err:
        print(f"error: {err}")
        return 2
    command = options["rest"][0] if options["rest"] else None
    if command not in COMMANDS:
        print("usage: admin <reindex|flush-cache|create-user> [--options]")
        return 2
    print(f"running {command}")
    return 0
`,
  'src/cache/lru.rs': `use std::collections::HashMap;

/// A fixed-capacity cache that evicts the least recently used entry when full.
pub struct LruCache<V> {
    capacity: usize,
    tick: u64,
    entries: HashMap<String, (V, u64)>,
}

impl<V: Clone> LruCache<V> {
    pub fn new(capacity: usize) -> Self {
        LruCache { capacity, tick: 0, entries: HashMap::new() }
    }

    pub fn get(&mut self, key: &str) -> Option<V> {
        self.tick += 1;
        let tick = self.tick;
        self.entries.get_mut(key).map(|(value, used)| {
            *used = tick;
            value.clone()
        })
    }

    pub fn put(&mut self, key: String, value: V) {
        self.tick += 1;
        if self.entries.len() >= self.capacity && !self.entries.contains_key(&key) {
            self.evict_oldest();
        }
        self.entries.insert(key, (value, self.tick));
    }

    fn evict_oldest(&mut self) {
        if let Some(oldest) = self.entries.iter().min_by_key(|(_, (_, used))| *used).map(|(k, _)| k.clone()) {
            self.entries.remove(&oldest);
        }
    }
}
`,
  'src/cache/product-cache.ts': `import { query } from '../db/client.js';

interface Product {
  id: number;
  name: string;
  priceCents: number;
}

const cached = new Map<number, Product>();

/** Product lookups hit the database once; the catalog rarely changes. */
export async function productById(id: number): Promise<Product | null> {
  const hit = cached.get(id);
  if (hit) return hit;
  const rows = await query<Product>('SELECT id, name, price_cents AS "priceCents" FROM products WHERE id = $1', [id]);
  if (rows[0]) cached.set(id, rows[0]);
  return rows[0] ?? null;
}
`,
  'src/log/logger.ts': `type Level = 'debug' | 'info' | 'warn' | 'error';

const ORDER: Record<Level, number> = { debug: 0, info: 1, warn: 2, error: 3 };
let threshold: Level = 'info';

export function setLogLevel(level: Level): void {
  threshold = level;
}

function write(level: Level, message: string, fields: Record<string, unknown> = {}): void {
  if (ORDER[level] < ORDER[threshold]) return;
  process.stderr.write(JSON.stringify({ time: new Date().toISOString(), level, message, ...fields }) + '\\n');
}

export const logger = {
  debug: (message: string, fields?: Record<string, unknown>) => write('debug', message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write('info', message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write('warn', message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write('error', message, fields),
};
`,
  'src/util/retry.go': `package util

import (
	"context"
	"math/rand"
	"time"
)

// Retry calls fn until it succeeds or attempts run out, sleeping with exponential backoff and jitter.
func Retry(ctx context.Context, attempts int, base time.Duration, fn func() error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = fn(); err == nil {
			return nil
		}
		delay := base << i
		delay += time.Duration(rand.Int63n(int64(delay) / 2))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay):
		}
	}
	return err
}
`,
  'src/jobs/email_sender.py': `"""Sends queued order emails; a failed send is simply attempted again on the next run."""
import smtplib

from .queue import pending_emails, mark_sent


def send_pending(host):
    with smtplib.SMTP(host) as smtp:
        for email in pending_emails():
            try:
                smtp.send_message(email)
                mark_sent(email)
            except smtplib.SMTPException:
                continue
`,
  'README.md': `# storefront

A small shop backend. The HTTP server parses requests by hand, users log in with a password and get a
session cookie, products are cached in memory, and the database is reached through a connection pool.
Configuration comes from config.json and environment variables; see docs/operations.md for retries and logs.
`,
  'docs/operations.md': `# Operations

- Logs are JSON lines on stderr; set APP_LOG_LEVEL=debug for more.
- A request that fails with a database error is not retried by the server; clients should retry.
- The session lifetime is 30 minutes; a user must log in again afterwards.
- Flush the product cache with \`admin flush-cache\` after a catalog import.
`,
  'test/login.test.ts': `import { login } from '../src/auth/login.js';

test('login rejects a wrong password', async () => {
  await expect(login('ann@example.com', 'wrong')).rejects.toThrow('unknown email or wrong password');
});
`,
};
