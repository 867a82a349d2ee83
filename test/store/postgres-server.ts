/**
 * A private PostgreSQL 15 for tests: Debian's initdb and pg_ctl on a free loopback port and a
 * temporary data directory, trust authentication, fsync off. PostgreSQL refuses to run as root, so
 * as root it runs as the `postgres` user (owning the directory). Null when the binaries are missing.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { delimiter, join } from 'node:path';

export interface PostgresServer {
  /** A fresh, empty database on the server: one per test that needs isolation. */
  createDatabase(): string;
  /** Runs one SQL statement through psql; its rows, columns separated by `|`. */
  query(url: string, sql: string): string[];
  /** Stops the server, keeping its data (`-m fast`: sessions are told and closed, as in a restart). */
  halt(): void;
  /** Starts it again on the same port and data. */
  resume(): void;
  stop(): void;
}

const DEBIAN_BIN = '/usr/lib/postgresql/15/bin';

function findBinary(name: string): string | null {
  for (const dir of [...(process.env['PATH'] ?? '').split(delimiter), DEBIAN_BIN]) {
    const path = join(dir, name);
    if (dir !== '' && existsSync(path)) return path;
  }
  return null;
}

/** Why PostgreSQL tests cannot run here, or null when they can. */
export function postgresMissing(): string | null {
  const missing = ['initdb', 'pg_ctl', 'createdb', 'psql'].filter((name) => findBinary(name) === null);
  return missing.length === 0 ? null : `PostgreSQL binaries not found (${missing.join(', ')}); install Debian's postgresql to run these tests`;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function startPostgres(): Promise<PostgresServer> {
  const initdb = findBinary('initdb');
  const pgCtl = findBinary('pg_ctl');
  const createdb = findBinary('createdb');
  const psql = findBinary('psql');
  if (initdb === null || pgCtl === null || createdb === null || psql === null) throw new Error(postgresMissing() ?? 'PostgreSQL binaries not found');
  const root = mkdtempSync(join(tmpdir(), 'quarry-pg-'));
  const asRoot = userInfo().uid === 0;
  if (asRoot) chownSync(root, Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()), Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()));
  const run = (binary: string, args: string[]): void => {
    const [command, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', binary, ...args]] : [binary, args];
    execFileSync(command, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
  };
  const data = join(root, 'data');
  const port = await freePort();
  run(initdb, ['-D', data, '-A', 'trust', '-U', 'quarry', '-E', 'UTF8', '--no-sync']);
  let running = false;
  const start = (): void => {
    run(pgCtl, ['-D', data, '-l', join(root, 'log'), '-w', '-t', '120', '-o', `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start']);
    running = true;
  };
  start();
  const base = `postgres://quarry@127.0.0.1:${port}`;
  let databases = 0;
  return {
    createDatabase() {
      const name = `quarry_test_${++databases}`;
      execFileSync(createdb, ['-h', '127.0.0.1', '-p', String(port), '-U', 'quarry', name], { stdio: ['ignore', 'ignore', 'pipe'] });
      return `${base}/${name}`;
    },
    query(url, sql) {
      const out = execFileSync(psql, ['-At', '-c', sql, url], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      return out.split('\n').filter((line) => line !== '');
    },
    halt() {
      run(pgCtl, ['-D', data, '-m', 'fast', '-w', '-t', '120', 'stop']);
      running = false;
    },
    resume: start,
    stop() {
      try {
        if (running) run(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
}
