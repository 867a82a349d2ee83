/**
 * A real instance store in a fresh temporary directory, for tests of store/ and auth/.
 */

import { join } from 'node:path';
import { openStore, type Store } from '../../src/store/open.js';
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
