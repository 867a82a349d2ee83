/**
 * A real instance store in a fresh temporary directory, for tests of store/ and auth/.
 */

import { join } from 'node:path';
import { after, before } from 'node:test';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/records.js';
import { makeTempDir, removeDir } from '../git/fixtures.js';

export interface TempStore {
  readonly store: Store;
  readonly dataDir: string;
  dispose(): Promise<void>;
}

export function openTempStore(): TempStore {
  const root = makeTempDir('quarry-store');
  const dataDir = join(root, 'data');
  const store = openStore(dataDir);
  return {
    store,
    dataDir,
    dispose: async () => {
      await store.close();
      removeDir(root);
    },
  };
}

/**
 * A fresh store for the tests of the calling file or suite: opened (and handed to `setup`) before
 * them, disposed of after.
 */
export function useTempStore(setup: (store: Store) => void): void {
  let temp: TempStore | undefined;
  before(() => {
    temp = openTempStore();
    setup(temp.store);
  });
  after(() => temp?.dispose());
}
