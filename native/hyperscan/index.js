/**
 * The one loader of the Hyperscan addon (build/Release/hyperscan.node). Imported only by
 * src/matcher/hyperscan.ts; it must not wrap or adapt the binding, only load it.
 */
'use strict';

const path = require('node:path');

const binaryPath = path.join(__dirname, 'build', 'Release', 'hyperscan.node');

function load() {
  try {
    return require(binaryPath);
  } catch (err) {
    const reason = err instanceof Error ? err.message.split('\n')[0] : String(err);
    const error = new Error(
      `Hyperscan addon not available at ${binaryPath} (${reason}). ` +
        'Install libhyperscan-dev and run `npm run build:native`.',
    );
    error.code = 'NATIVE_UNAVAILABLE';
    throw error;
  }
}

module.exports = load();
