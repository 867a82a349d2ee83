/**
 * RFC 8628 §3.5 on a real store: a device polling the token endpoint sooner than its interval gets
 * slow_down, and from then on its interval is 5 seconds longer (it grows again with each further
 * slow_down); polling at the raised interval gets authorization_pending, and tokens once approved.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEVICE_CODE_GRANT, tokenRequest, type OAuthSettings } from '../../src/auth/oauth/token-grants.js';
import { BUILTIN_CLI_CLIENT } from '../../src/store/oauth-clients.js';
import { createDeviceAuthorization, decideDevice } from '../../src/store/oauth-codes.js';
import { secretKey } from '../../src/store/oauth-grants.js';
import type { Store } from '../../src/store/records.js';
import { createUser } from '../../src/store/users.js';
import { useTempStore } from '../store/temp-store.js';

const ORIGIN = 'http://127.0.0.1:7080';
const SETTINGS: OAuthSettings = { dynamicRegistration: true, accessTokenMs: 3_600_000, refreshTokenMs: 86_400_000, reuseGraceMs: 30_000 };
const T0 = Date.UTC(2026, 0, 1);
const s = (seconds: number) => T0 + seconds * 1000;

describe('device flow slow_down', () => {
  let store: Store;
  useTempStore((opened) => (store = opened));

  it('answers slow_down to a poll within the interval and raises the interval by 5 s each time', () => {
    const userId = createUser(store, { username: 'dana' }).id;
    const { deviceCode, userCode } = createDeviceAuthorization(store, { clientId: BUILTIN_CLI_CLIENT.id, scopes: ['user:all'], resource: '/' }, 30 * 60_000, 5, T0);
    const poll = (at: number) => {
      const result = tokenRequest(store, undefined, new URLSearchParams({ grant_type: DEVICE_CODE_GRANT, device_code: deviceCode, client_id: BUILTIN_CLI_CLIENT.id }), ORIGIN, SETTINGS, at);
      return result.ok ? 'tokens' : result.failure.error;
    };
    const interval = () => {
      const record = store.oauthSecrets.get(secretKey(deviceCode));
      return record?.kind === 'device' ? record.intervalSeconds : null;
    };
    assert.equal(poll(s(0)), 'authorization_pending');
    assert.equal(interval(), 5);
    assert.equal(poll(s(1)), 'slow_down', '1 s after the last poll, interval 5 s');
    assert.equal(interval(), 10);
    assert.equal(poll(s(8)), 'slow_down', '7 s later: enough for the old interval, not the raised one');
    assert.equal(interval(), 15);
    assert.equal(poll(s(23)), 'authorization_pending', '15 s later');
    assert.equal(poll(s(38)), 'authorization_pending', 'the raised interval stays, it does not grow without a slow_down');
    assert.equal(interval(), 15);
    assert.ok(decideDevice(store, userCode, userId, true, s(40)));
    assert.equal(poll(s(53)), 'tokens');
  });
});
