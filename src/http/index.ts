/**
 * The HTTP edge's entry points for the composition root, which imports this folder lazily so
 * that commands other than `serve` never load uWebSockets.js.
 */
export { createMetrics } from './metrics.js';
export { createHttpServer } from './server.js';
export { binding } from './uws.js';
