/**
 * Rendezvous ownership: owners are distinct live members, primary first; shares are even; a member
 * leaving moves only its own repositories and a member joining takes only what it now ranks first
 * for; the answer depends on the set of members, not the order they are listed in.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ownersOf, ownershipCounts, ranking } from '../../src/cluster/ownership.js';

const REPOS = Array.from({ length: 2000 }, (_, i) => `github.com/org${i % 37}/repo-${i}`);
const MEMBERS = ['http://127.0.0.2:7081', 'http://127.0.0.3:7081', 'http://127.0.0.4:7081', 'http://127.0.0.5:7081'];

describe('rendezvous ownership', () => {
  it('gives each repository `replication` distinct owners, never more than there are members', () => {
    for (const repo of REPOS.slice(0, 200)) {
      const owners = ownersOf(repo, MEMBERS, 2);
      assert.equal(owners.length, 2);
      assert.equal(new Set(owners).size, 2);
      for (const o of owners) assert.ok(MEMBERS.includes(o));
    }
    assert.deepEqual(ownersOf(REPOS[0]!, MEMBERS.slice(0, 1), 2), MEMBERS.slice(0, 1));
    assert.deepEqual(ownersOf(REPOS[0]!, [], 2), []);
  });

  it('does not depend on the order members are listed in', () => {
    const reversed = [...MEMBERS].reverse();
    for (const repo of REPOS.slice(0, 300)) assert.deepEqual(ownersOf(repo, reversed, 2), ownersOf(repo, MEMBERS, 2));
  });

  it('spreads primaries and replicas evenly (each within 20% of its fair share)', () => {
    const counts = ownershipCounts(REPOS, MEMBERS, 2);
    const fair = REPOS.length / MEMBERS.length;
    for (const [member, c] of counts) {
      assert.ok(Math.abs(c.primary - fair) < fair * 0.2, `${member} primary ${c.primary}, fair ${fair}`);
      assert.ok(Math.abs(c.replica - fair) < fair * 0.2, `${member} replica ${c.replica}, fair ${fair}`);
    }
    assert.equal([...counts.values()].reduce((n, c) => n + c.primary + c.replica, 0), REPOS.length * 2);
  });

  it('moves only the leaving member\'s repositories, each to the next member of its ranking', () => {
    const leaving = MEMBERS[1]!;
    const rest = MEMBERS.filter((m) => m !== leaving);
    let moved = 0;
    for (const repo of REPOS) {
      const before = ownersOf(repo, MEMBERS, 2);
      const after = ownersOf(repo, rest, 2);
      if (!before.includes(leaving)) {
        assert.deepEqual(after, before, `${repo} did not belong to the leaving member and must stay`);
        continue;
      }
      moved++;
      const kept = before.filter((m) => m !== leaving);
      assert.deepEqual(after.slice(0, kept.length), kept, `${repo}: its remaining owner keeps its place`);
      assert.equal(after[1], ranking(repo, MEMBERS).filter((m) => m !== leaving)[1]);
    }
    assert.ok(moved > 0 && moved < REPOS.length * 0.7, `moved ${moved}`);
  });

  it('gives a joining member only the repositories that now rank it among their owners', () => {
    const joined = [...MEMBERS, 'http://127.0.0.6:7081'];
    let taken = 0;
    for (const repo of REPOS) {
      const before = ownersOf(repo, MEMBERS, 2);
      const after = ownersOf(repo, joined, 2);
      if (!after.includes(joined[4]!)) assert.deepEqual(after, before);
      else taken++;
    }
    const fair = (REPOS.length * 2) / joined.length;
    assert.ok(Math.abs(taken - fair) < fair * 0.2, `the newcomer took ${taken}, fair ${fair}`);
  });
});
