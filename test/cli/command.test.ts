import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatTable, parseFlags } from '../../src/cli/command.js';
import { isQuarryError } from '../../src/errors.js';

const SPEC = { data: 'string', json: 'boolean' } as const;

function usageFailure(pattern: RegExp): (err: unknown) => boolean {
  return (err) => isQuarryError(err, 'USAGE') && pattern.test(err.message);
}

describe('parseFlags', () => {
  it('takes string flags spaced or with =, booleans, and positionals in any order', () => {
    const parsed = parseFlags(['add', '--data', '/d', 'name', '--json', 'src'], SPEC);
    assert.deepEqual(parsed, { flags: { data: '/d', json: true }, positionals: ['add', 'name', 'src'], help: false });
    assert.deepEqual(parseFlags(['--data=/x=y'], SPEC).flags, { data: '/x=y' });
    assert.deepEqual(parseFlags(['--data='], SPEC).flags, { data: '' });
  });

  it('notices --help and -h', () => {
    assert.equal(parseFlags(['x', '--help'], SPEC).help, true);
    assert.equal(parseFlags(['-h'], SPEC).help, true);
    assert.equal(parseFlags(['x'], SPEC).help, false);
  });

  it('treats everything after -- and a lone - as positional', () => {
    assert.deepEqual(parseFlags(['a', '--', '--json', '-h'], SPEC), { flags: {}, positionals: ['a', '--json', '-h'], help: false });
    assert.deepEqual(parseFlags(['-'], SPEC).positionals, ['-']);
  });

  it('rejects unknown flags, missing values and values for booleans', () => {
    assert.throws(() => parseFlags(['--nope'], SPEC), usageFailure(/^unknown flag --nope$/));
    assert.throws(() => parseFlags(['--nope=1'], SPEC), usageFailure(/^unknown flag --nope$/));
    assert.throws(() => parseFlags(['-x'], SPEC), usageFailure(/^unknown flag -x$/));
    assert.throws(() => parseFlags(['--constructor'], SPEC), usageFailure(/unknown flag/));
    assert.throws(() => parseFlags(['--data'], SPEC), usageFailure(/--data needs a value/));
    assert.throws(() => parseFlags(['--json=yes'], SPEC), usageFailure(/--json takes no value/));
  });
});

describe('formatTable', () => {
  it('pads every column but the last to its widest cell', () => {
    assert.deepEqual(
      formatTable([
        ['NAME', 'SOURCE', 'X'],
        ['a', 'longer source', ''],
        ['much longer', 's', 'end'],
      ]),
      ['NAME         SOURCE         X', 'a            longer source', 'much longer  s              end'],
    );
  });
});
