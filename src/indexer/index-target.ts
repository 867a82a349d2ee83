/** What an index run works on (the repository) and with (data directory, catalog, pool): shared by its phases. */
import type { Catalog } from '../index/lmdb/catalog.js';
import type { EnginePool } from '../pool/pool.js';

export interface IndexTarget {
  readonly name: string;
  readonly id: number;
  readonly gitDir: string;
  readonly fork: boolean;
  readonly archived: boolean;
}

export interface IndexContext {
  readonly dataDir: string;
  readonly catalog: Catalog;
  readonly pool: EnginePool;
}
