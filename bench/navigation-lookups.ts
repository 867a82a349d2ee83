/**
 * The fixed lookups of the navigation latency bench: (file, symbol) pairs a user would ask about,
 * each tagged with what kind of lookup it is, for this checkout and for the Linux corpus.
 */

export interface Lookup {
  readonly path: string;
  readonly symbol: string;
  readonly kind: string;
}

const lookup = (kind: string) => (path: string, symbol: string): Lookup => ({ path, symbol, kind });

const own = lookup('function');
export const QUARRY_LOOKUPS: readonly Lookup[] = [
  own('src/api/mcp/tools/read-file.ts', 'resolveRepoAtCommit'),
  lookup('class')('src/api/mcp/tools/read-file.ts', 'AnswerBuilder'),
  own('src/api/mcp/tools/keyword-search.ts', 'renderSearchAnswer'),
  own('src/api/mcp/run-tool.ts', 'checkArguments'),
  own('src/services.ts', 'createRepoBrowser'),
  own('src/main.ts', 'createServices'),
  own('src/errors.ts', 'createError'),
  own('src/api/mcp/format.ts', 'fileHeader'),
];

const fn = lookup('function');
const macro = lookup('macro');
const field = lookup('struct field');
const type = lookup('struct type');
const local = lookup('static, same name elsewhere');
const across = lookup('used across subsystems');

/** Every pair was checked to occur in the file (`grep -w`) in Linux 6.1. */
export const LINUX_LOOKUPS: readonly Lookup[] = [
  fn('kernel/fork.c', 'copy_process'),
  fn('kernel/fork.c', 'mutex_lock'),
  fn('kernel/exit.c', 'do_exit'),
  fn('kernel/sched/core.c', 'wake_up_process'),
  fn('kernel/sched/core.c', 'schedule'),
  fn('kernel/time/timer.c', 'schedule'),
  fn('mm/memory.c', 'handle_mm_fault'),
  fn('mm/slub.c', 'kmem_cache_alloc'),
  fn('mm/page_alloc.c', 'free_pages'),
  fn('kernel/workqueue.c', 'queue_work_on'),
  fn('fs/namei.c', 'kmalloc'),
  fn('fs/namei.c', 'kfree'),
  fn('fs/dcache.c', 'spin_lock'),
  fn('kernel/rcu/tree.c', 'rcu_read_lock'),
  fn('fs/read_write.c', 'vfs_read'),
  macro('fs/inode.c', 'container_of'),
  macro('kernel/sched/core.c', 'READ_ONCE'),
  macro('mm/page_alloc.c', 'BUG_ON'),
  macro('kernel/sched/core.c', 'list_for_each_entry_rcu'),
  macro('kernel/module/main.c', 'EXPORT_SYMBOL'),
  macro('kernel/printk/printk.c', 'printk'),
  macro('arch/x86/kernel/process.c', 'current'),
  field('mm/mmap.c', 'vm_start'),
  field('fs/read_write.c', 'f_op'),
  field('fs/inode.c', 'i_sb'),
  field('kernel/sys.c', 'comm'),
  type('net/ipv4/tcp.c', 'sk_buff'),
  type('kernel/sched/fair.c', 'task_struct'),
  local('net/ipv4/tcp_input.c', 'tcp_ack'),
  local('fs/ext4/super.c', 'init_once'),
  local('fs/ext2/super.c', 'destroy_inodecache'),
  local('kernel/fork.c', 'free_thread_stack'),
  local('kernel/trace/ftrace.c', 't_show'),
  local('fs/ext4/super.c', 'ext4_fill_super'),
  across('net/core/sock.c', 'alloc_skb'),
  across('fs/buffer.c', 'submit_bio'),
  across('drivers/net/ethernet/intel/e1000/e1000_main.c', 'pci_enable_device'),
  across('drivers/block/null_blk/main.c', 'blk_mq_start_request'),
  across('kernel/sys.c', 'copy_from_user'),
  across('drivers/usb/core/hub.c', 'usb_control_msg'),
];
