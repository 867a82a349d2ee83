/**
 * The server's settings in config.ts: the listen address (flag, then QUARRY_LISTEN, then
 * 127.0.0.1:7080), the request body limit, the metrics scrape token and the cluster role.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig, parseListen, parseRole } from '../../src/config.js';
import { isQuarryError } from '../../src/errors.js';

test('listen: flag over QUARRY_LISTEN over the default', () => {
  assert.deepEqual(loadConfig({}, {}).listen, { host: '127.0.0.1', port: 7080 });
  assert.deepEqual(loadConfig({}, { QUARRY_LISTEN: '0.0.0.0:9000' }).listen, { host: '0.0.0.0', port: 9000 });
  assert.deepEqual(loadConfig({ listen: '127.0.0.1:0' }, { QUARRY_LISTEN: '0.0.0.0:9000' }).listen, { host: '127.0.0.1', port: 0 });
});

test('listen addresses: IPv6 in brackets, empty host for all interfaces, bad forms refused', () => {
  assert.deepEqual(parseListen('[::1]:8080'), { host: '::1', port: 8080 });
  assert.deepEqual(parseListen(':8080'), { host: '0.0.0.0', port: 8080 });
  for (const bad of ['localhost', '127.0.0.1:', '127.0.0.1:70000', 'host:port']) {
    assert.throws(() => parseListen(bad), (err) => isQuarryError(err, 'USAGE'), bad);
  }
});

test('max body bytes: override over QUARRY_MAX_BODY_BYTES over the site configuration', () => {
  assert.equal(loadConfig({}, {}).maxBodyBytes, null, 'unset: the site configuration decides');
  assert.equal(loadConfig({}, { QUARRY_MAX_BODY_BYTES: '2048' }).maxBodyBytes, 2048);
  assert.equal(loadConfig({ maxBodyBytes: 10 }, { QUARRY_MAX_BODY_BYTES: '2048' }).maxBodyBytes, 10);
  assert.throws(() => loadConfig({}, { QUARRY_MAX_BODY_BYTES: '-1' }), (err) => isQuarryError(err, 'USAGE'));
});

test('metrics scrape token: QUARRY_METRICS_TOKEN, refused when short, never echoed in the error', () => {
  assert.equal(loadConfig({}, {}).metricsToken, null);
  assert.equal(loadConfig({}, { QUARRY_METRICS_TOKEN: ' 0123456789abcdef0123 ' }).metricsToken, '0123456789abcdef0123');
  assert.throws(() => loadConfig({}, { QUARRY_METRICS_TOKEN: 'short-secret' }), (err) => isQuarryError(err, 'USAGE') && !err.message.includes('short-secret'));
});

test('cluster role: all by default; frontend and search need the shared database and the cluster secret, never echoed', () => {
  const url = 'postgres://quarry@db:5432/quarry';
  const secret = '0123456789abcdef0123';
  assert.equal(parseRole(undefined, null, null), 'all');
  assert.equal(parseRole('all', null, null), 'all');
  assert.equal(parseRole('frontend', url, secret), 'frontend');
  assert.equal(parseRole('search', url, secret), 'search');
  assert.throws(() => parseRole('search', null, secret), (err) => isQuarryError(err, 'USAGE') && /--database/.test(err.message));
  assert.throws(() => parseRole('frontend', url, null), (err) => isQuarryError(err, 'USAGE') && /QUARRY_CLUSTER_SECRET/.test(err.message));
  assert.throws(() => parseRole('leader', url, secret), (err) => isQuarryError(err, 'USAGE'));
  assert.equal(loadConfig({}, { QUARRY_CLUSTER_SECRET: ` ${secret} ` }).clusterSecret, secret);
  assert.throws(() => loadConfig({}, { QUARRY_CLUSTER_SECRET: 'short-secret' }), (err) => isQuarryError(err, 'USAGE') && !err.message.includes('short-secret'));
  assert.equal(loadConfig({}, {}).replication, 2);
  assert.equal(loadConfig({}, { QUARRY_CLUSTER_REPLICATION: '3' }).replication, 3);
  assert.equal(loadConfig({}, {}).retireGraceMs, 120_000);
  assert.equal(loadConfig({}, { QUARRY_CLUSTER_RETIRE_GRACE_MS: '5000' }).retireGraceMs, 5000);
  assert.throws(() => loadConfig({}, { QUARRY_CLUSTER_RETIRE_GRACE_MS: 'soon' }), (err) => isQuarryError(err, 'USAGE'));
});
