/**
 * The store contract (store-contract.ts) against both engines: LMDB in a temporary directory, and
 * PostgreSQL 15 started privately for this file (skipped, saying why, without its binaries).
 */
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import { openStore, openStoreAt } from '../../src/store/open.js';
import { makeTempDir, removeDir } from '../git/fixtures.js';
import { postgresMissing, startPostgres, type PostgresServer } from './postgres-server.js';
import { storeContract } from './store-contract.js';

describe('store contract: LMDB', () => {
  storeContract(async () => {
    const root = makeTempDir('quarry-contract');
    return {
      open: () => Promise.resolve(openStore(join(root, 'data'))),
      dispose: () => Promise.resolve(removeDir(root)),
    };
  });
});

const missing = postgresMissing();
describe('store contract: PostgreSQL', { skip: missing ?? false }, () => {
  let server: PostgresServer;
  before(async () => { server = await startPostgres(); });
  after(() => server?.stop());
  storeContract(async () => {
    const url = server.createDatabase();
    return { open: () => openStoreAt('', url), dispose: () => Promise.resolve() };
  });
});
