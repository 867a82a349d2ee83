/**
 * Closed-loop load: each connection sends its next request as soon as the previous answer has been
 * read, until told to stop. Knows nothing of what is sent.
 */

export interface ClosedLoop {
  /** Resolves once every connection has finished the request it was on. */
  stop(): Promise<void>;
}

/** Runs `send(connection, iteration)` on `connections` loops at once. */
export function startClosedLoop(connections: number, send: (connection: number, iteration: number) => Promise<void>): ClosedLoop {
  let stopping = false;
  const loops = Array.from({ length: connections }, async (_, connection) => {
    for (let iteration = 0; !stopping; iteration++) await send(connection, iteration);
  });
  return {
    async stop() {
      stopping = true;
      await Promise.all(loops);
    },
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
