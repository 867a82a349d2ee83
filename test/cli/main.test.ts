import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { COMMANDS } from '../../src/cli/commands.js';
import { runCli } from './capture.js';

describe('quarry main', () => {
  it('lists every command for --help', async () => {
    const run = await runCli(['--help']);
    assert.equal(run.code, 0);
    assert.match(run.stdout[0] ?? '', /^usage: quarry <command>/);
    for (const command of COMMANDS) {
      assert.ok(run.stdout.some((line) => line.includes(command.name) && line.includes(command.summary)), command.name);
    }
  });

  it('prints help to stderr and exits 2 without a command', async () => {
    const run = await runCli([]);
    assert.equal(run.code, 2);
    assert.deepEqual(run.stdout, []);
    assert.match(run.stderr[0] ?? '', /^usage: quarry/);
  });

  it('prints a command\'s usage for <command> --help, wherever --help appears', async () => {
    for (const argv of [['repos', '--help'], ['repos', 'add', '-h'], ['repos', 'add', 'x', 'y', '--help']]) {
      const run = await runCli(argv);
      assert.equal(run.code, 0);
      assert.deepEqual(run.stdout, [COMMANDS.find((c) => c.name === 'repos')?.usage]);
    }
  });

  it('rejects an unknown command with one line and exit 2', async () => {
    const run = await runCli(['frobnicate']);
    assert.equal(run.code, 2);
    assert.deepEqual(run.stderr, ['quarry: unknown command "frobnicate" (see quarry --help)']);
  });
});
