/**
 * C go_to_definition across files, shaped on the Linux kernel: what another file can see (a header,
 * or a source file's linked functions and variables) and production code ranks over test copies.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isTestOrSamplePath } from '../../../src/symbols/navigation/rank.js';
import { definitionOf, referencesOf } from './nav-helpers.js';
import { createParsedSymbolIndex, type SourceFile } from './parsed-index.js';

const KERNEL = 'git.example.org/kernel';
const OTHER = 'git.example.org/module';

const source = (path: string, ...lines: string[]): SourceFile => ({ repo: KERNEL, path, content: lines.join('\n') });

const index = createParsedSymbolIndex([
  source('include/linux/spinlock.h', '#pragma once', 'static inline void spin_lock(int *lock)', '{', '\t*lock = 1;', '}'),
  source('tools/testing/selftests/kvm/lib/spinlock.c', '#include "spinlock.h"', 'void spin_lock(int *lock)', '{', '\t*lock = 1;', '}'),
  source('tools/testing/selftests/kvm/lock_test.c', 'void lock_test(int *lock)', '{', '\tspin_lock(lock);', '}'),
  source('fs/dcache.c', '#include <linux/spinlock.h>', 'void d_lock(int *lock)', '{', '\tspin_lock(lock);', '}'),

  source('include/linux/container_of.h', '#pragma once', '#define container_of(ptr, type, member) ((type *)(ptr))'),
  source('drivers/gpu/drm/radeon/mkregtable.c', '#include <stdio.h>', '', '#define container_of(ptr, type, member) ((type *)ptr)',
    'void *first(void *p)', '{', '\treturn container_of(p, int, x);', '}'),
  source('fs/inode.c', '#include <linux/container_of.h>', 'void *inode_of(void *p)', '{', '\treturn container_of(p, int, x);', '}'),

  source('include/asm-generic/bug.h', '#pragma once', '#define BUG_ON(condition) do { if (condition) bug(); } while (0)'),
  source('tools/testing/selftests/vm/map_populate.c', '#include <stdlib.h>', '#define BUG_ON(condition, description) do { if (condition) abort(); } while (0)'),
  source('arch/mips/include/asm/bug.h', '#pragma once', '#define BUG_ON(C) __BUG_ON((unsigned long)(C))'),
  source('mm/vmscan.c', '#include <linux/mm.h>', 'void shrink(int order)', '{', '\tBUG_ON(order < 0);', '}'),
  source('mm/page_alloc.c', '#include <asm-generic/bug.h>', 'void free_pages(int order)', '{', '\tBUG_ON(order < 0);', '}'),

  source('include/linux/skbuff.h', '#pragma once', '', 'struct sk_buff {', '\tint len;', '};'),
  source('tools/testing/selftests/bpf/progs/fexit_bpf2bpf.c', 'struct sk_buff {', '\tint len;', '};'),
  source('net/ipv4/tcp.c', '#include <linux/skbuff.h>', 'int tcp_len(struct sk_buff *skb)', '{', '\treturn skb->len;', '}'),

  source('include/linux/slab.h', '#pragma once', 'void kfree(const void *objp);'),
  source('lib/decompress_unxz.c', '#include <stdlib.h>', '#define kfree(ptr) free(ptr)'),
  source('mm/slub.c', '#include <linux/slab.h>', '', 'void kfree(const void *objp)', '{', '}'),
  source('fs/namei.c', '#include <linux/slab.h>', 'void putname(void *name)', '{', '\tkfree(name);', '\tONLY_IN_LIB;', '}'),
  source('lib/only.c', '#define ONLY_IN_LIB 1'),

  source('include/linux/mutex.h', '#pragma once', '#define mutex_lock(lock) mutex_lock_nested(lock, 0)'),
  source('kernel/locking/mutex.c', '#include <linux/mutex.h>', 'void mutex_lock(int *lock)', '{', '}'),
  source('drivers/hwmon/ads7828.c', '#include <linux/mutex.h>', 'void update(int *lock)', '{', '\tmutex_lock(lock);', '}'),

  source('include/linux/mm.h', '#pragma once', '#ifdef CONFIG_MMU', 'int handle_mm_fault(int address);', '#else',
    'static inline int handle_mm_fault(int address)', '{', '\treturn 0;', '}', '#endif'),
  source('mm/memory.c', '#include <linux/mm.h>', 'int handle_mm_fault(int address)', '{', '\treturn 1;', '}'),
  source('arch/x86/mm/fault.c', '#include <linux/mm.h>', 'void do_fault(int address)', '{', '\thandle_mm_fault(address);', '}'),

  source('arch/x86/include/asm/current.h', '#pragma once', 'struct task_struct *get_current(void);', '#define current get_current()'),
  source('samples/bpf/signals.c', 'struct tdescr { int id; };', 'static struct tdescr tde;', 'struct tdescr *current = &tde;'),
  source('arch/x86/kernel/process.c', '#include <asm/current.h>', 'void exit_thread(void)', '{', '\tvoid *task = current;', '}'),

  { repo: OTHER, path: 'driver.c', content: ['#include <linux/spinlock.h>', 'void probe(int *lock)', '{', '\tspin_lock(lock);', '}'].join('\n') },
]);

const best = (path: string, symbol: string, repo = KERNEL): string | null => definitionOf(index, repo, path, symbol).best;

test('a header static inline function beats an exported same-named function of a selftest', () => {
  assert.equal(best('fs/dcache.c', 'spin_lock'), `${KERNEL} include/linux/spinlock.h:2`);
});

test('test code calling a name still reaches its own tree copy first', () => {
  assert.equal(best('tools/testing/selftests/kvm/lock_test.c', 'spin_lock'), `${KERNEL} tools/testing/selftests/kvm/lib/spinlock.c:2`);
});

test('a header macro beats a same-named macro private to another .c file', () => {
  assert.equal(best('fs/inode.c', 'container_of'), `${KERNEL} include/linux/container_of.h:2`);
  assert.equal(best('mm/page_alloc.c', 'BUG_ON'), `${KERNEL} include/asm-generic/bug.h:2`);
});

test('a header struct beats a struct of the same name in a test .c file', () => {
  assert.equal(best('net/ipv4/tcp.c', 'sk_buff'), `${KERNEL} include/linux/skbuff.h:3`);
});

test('an exported function in a .c file (the real definition) beats a #define of the name in another .c', () => {
  assert.equal(best('fs/namei.c', 'kfree'), `${KERNEL} mm/slub.c:3`);
});

test('a header macro beats a global variable of a samples/ .c file', () => {
  assert.equal(best('arch/x86/kernel/process.c', 'current'), `${KERNEL} arch/x86/include/asm/current.h:3`);
});

test('a macro private to another .c file still answers when it is the only candidate', () => {
  assert.equal(best('fs/namei.c', 'ONLY_IN_LIB'), `${KERNEL} lib/only.c:1`);
});

test('another repository sees a header static inline function, not a selftest copy first', () => {
  assert.equal(best('driver.c', 'spin_lock', OTHER), `${KERNEL} include/linux/spinlock.h:2`);
});

test('references of a header macro leave out uses of a same-named macro private to another .c file', () => {
  assert.deepEqual(referencesOf(index, KERNEL, 'fs/inode.c', 'container_of'), [`${KERNEL} fs/inode.c:4`]);
});

test('references of a linked function include calls that reach it through its header declaration, and the declaration', () => {
  assert.deepEqual(referencesOf(index, KERNEL, 'fs/namei.c', 'kfree'), [`${KERNEL} fs/namei.c:4`, `${KERNEL} include/linux/slab.h:2`]);
});

test('test and sample trees are told by a directory of the path, not by a file name', () => {
  for (const path of ['tools/testing/selftests/vm/map_populate.c', 'samples/bpf/signals.c', 'Tests/x.c', 'a/fixtures/b/c.c']) assert.ok(isTestOrSamplePath(path), path);
  for (const path of ['lib/test_bpf.c', 'kernel/testsuite.c', 'test.c', 'drivers/sample.c', 'contest/x.c']) assert.ok(!isTestOrSamplePath(path), path);
});

test('references of a function include calls that reach the header macro spelling it under another configuration', () => {
  assert.deepEqual(referencesOf(index, KERNEL, 'kernel/locking/mutex.c', 'mutex_lock'), [`${KERNEL} drivers/hwmon/ads7828.c:4`]);
});

test('references of a function include calls that reach a header static inline fallback of it', () => {
  assert.deepEqual(referencesOf(index, KERNEL, 'mm/memory.c', 'handle_mm_fault'), [`${KERNEL} arch/x86/mm/fault.c:4`, `${KERNEL} include/linux/mm.h:3`]);
});

test('of equally ranked header copies reached through no include of theirs, the generic one nearer the root wins', () => {
  assert.equal(best('mm/vmscan.c', 'BUG_ON'), `${KERNEL} include/asm-generic/bug.h:2`);
});
