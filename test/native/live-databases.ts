/** Counting live Hyperscan databases once the GC has collected what it can, for tests that check databases are freed. */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Collects until the live count stops falling, so earlier tests' garbage cannot blur the count. */
export async function settledDatabases(liveDatabases: () => number): Promise<number> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  for (let previous = -1; previous !== liveDatabases(); ) {
    previous = liveDatabases();
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return liveDatabases();
}
