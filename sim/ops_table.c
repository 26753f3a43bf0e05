/* SPDX-License-Identifier: MIT */
/*
 * The publication protocol of every writer operation: documentation, and
 * the data tests/test_ops.c checks each operation against (the seqcounts
 * it bumps, the writer steps it hits in order, the history steps it
 * publishes).  Locks are listed in the order taken; "[in X]" marks a lock
 * the named VFS call takes itself.
 */
#include <string.h>

#include "sim/ops.h"

#define MNT_LOCKS "writer_mutex", "namespace_sem", "mount_lock (lock_mount_hash)", \
	"d_lock(mountpoint) [in wt_mnt_attach]"

const struct wt_op_row wt_op_table[WT_OP__COUNT] = {
	[WT_OP_MKDIR] = {
		.op = WT_OP_MKDIR, .name = "mkdir",
		.locks = { "writer_mutex", "i_rwsem(dir)",
			   "d_lock(dentry) [in d_instantiate]",
			   "dcache_lock [in d_rehash, a fresh dentry]" },
		.seqs = WT_SEQ_CREATED_DENTRY,
		.stores = { "mkdir.d_instantiate" },
		.publish = { "mkdir.d_instantiate" },
		.notes = "d_instantiate (+ d_rehash of a fresh dentry) makes the name"
			 " positive under its d_seq; the parent's d_seq is untouched",
	},
	[WT_OP_CREATE] = {
		.op = WT_OP_CREATE, .name = "touch",
		.locks = { "writer_mutex", "i_rwsem(dir)",
			   "d_lock(dentry) [in d_instantiate]" },
		.seqs = WT_SEQ_CREATED_DENTRY,
		.stores = { "create.d_instantiate" },
		.publish = { "create.d_instantiate" },
		.notes = "an existing name is left alone: no step, no bump",
	},
	[WT_OP_OPEN_CREATE] = {
		.op = WT_OP_OPEN_CREATE, .name = "open O_CREAT",
		.locks = { "i_rwsem(dir) [held by the caller: open_last_lookups]",
			   "d_lock(dentry) [in d_instantiate]" },
		.seqs = WT_SEQ_CREATED_DENTRY,
		.stores = { "create.d_instantiate" },
		.publish = { "create.d_instantiate" },
		.notes = "wt_op_create_in, a walker's creation: no writer mutex"
			 " (writers take it before i_rwsem); the name's cached"
			 " negative dentry (lookup_open's) is the one made"
			 " positive; owner = the caller's fsuid:fsgid",
	},
	[WT_OP_UNLINK] = {
		.op = WT_OP_UNLINK, .name = "rm",
		.locks = { "writer_mutex", "i_rwsem(dir)", "i_rwsem(victim)",
			   "d_lock(victim) [in d_delete]" },
		.seqs = WT_SEQ_VICTIM_DENTRY,
		.stores = { "unlink.d_delete" },
		.publish = { "unlink.d_delete" },
		.notes = "d_delete: negative in place when only we hold it, else"
			 " unhashed (__d_drop invalidates d_seq)",
	},
	[WT_OP_RMDIR] = {
		.op = WT_OP_RMDIR, .name = "rmdir",
		.locks = { "writer_mutex", "i_rwsem(dir)", "i_rwsem(victim)",
			   "d_lock(victim) [in d_delete]" },
		.seqs = WT_SEQ_VICTIM_DENTRY,
		.stores = { "rmdir.S_DEAD", "rmdir.d_delete" },
		.publish = { "rmdir.S_DEAD", "rmdir.d_delete" },
		.notes = "two visible steps: the dead directory is still hashed"
			 " between them; detach_mounts is empty (a mountpoint is EBUSY)",
	},
	[WT_OP_SYMLINK] = {
		.op = WT_OP_SYMLINK, .name = "ln -s",
		.locks = { "writer_mutex", "i_rwsem(dir)",
			   "d_lock(dentry) [in d_instantiate]" },
		.seqs = WT_SEQ_CREATED_DENTRY,
		.stores = { "symlink.d_instantiate" },
		.publish = { "symlink.d_instantiate" },
		.notes = "the body is set before the inode is published",
	},
	[WT_OP_LINK] = {
		.op = WT_OP_LINK, .name = "ln",
		.locks = { "writer_mutex", "i_rwsem(new dir)", "i_rwsem(inode)",
			   "d_lock(dentry) [in d_instantiate]" },
		.seqs = WT_SEQ_CREATED_DENTRY,
		.stores = { "link.d_instantiate" },
		.publish = { "link.d_instantiate" },
		.notes = "EXDEV across mounts, EPERM for a directory",
	},
	[WT_OP_RENAME] = {
		.op = WT_OP_RENAME, .name = "mv",
		.locks = { "writer_mutex", "i_rwsem(ancestor dir)", "i_rwsem(other dir)",
			   "i_rwsem(source)", "i_rwsem(target)",
			   "rename_lock (write_seqlock)",
			   "d_lock x4 [in d_move: parents, then dentry, target]",
			   "dcache_lock [in d_move: the chains]" },
		.seqs = WT_SEQ_RENAME_LOCK | WT_SEQ_MOVED_DENTRY | WT_SEQ_TARGET_DENTRY,
		.stores = { "rename.S_DEAD?", "rename.d_move" },
		.publish = { "rename.d_move" },
		.notes = "the target is the dentry at the new name (a cached negative,"
			 " the replaced one, or a fresh one); it is unhashed;"
			 " rename.S_DEAD only when a directory is replaced;"
			 " --noreplace is the same row",
	},
	[WT_OP_RENAME_EXCHANGE] = {
		.op = WT_OP_RENAME_EXCHANGE, .name = "mv --exchange",
		.locks = { "writer_mutex", "i_rwsem(ancestor dir)", "i_rwsem(other dir)",
			   "i_rwsem(a)", "i_rwsem(b)", "rename_lock (write_seqlock)",
			   "d_lock x4 [in d_exchange]" },
		.seqs = WT_SEQ_RENAME_LOCK | WT_SEQ_MOVED_DENTRY | WT_SEQ_TARGET_DENTRY,
		.stores = { "rename.d_exchange" },
		.publish = { "rename.d_exchange" },
		.notes = "both dentries move and both stay hashed",
	},
	[WT_OP_CHMOD] = {
		.op = WT_OP_CHMOD, .name = "chmod",
		.locks = { "writer_mutex", "i_rwsem(inode)" },
		.seqs = 0,
		.stores = { "chmod.i_mode" },
		.publish = { "chmod.i_mode" },
		.notes = "no seqcount: a walker's permission check reads i_mode once",
	},
	[WT_OP_CHOWN] = {
		.op = WT_OP_CHOWN, .name = "chown",
		.locks = { "writer_mutex", "i_rwsem(inode)" },
		.seqs = 0,
		.stores = { "chown.i_uid", "chown.i_gid" },
		.publish = { "chown.i_gid" },
		.notes = "two stores: a walker may see the new uid with the old gid",
	},
	[WT_OP_MOUNT] = {
		.op = WT_OP_MOUNT, .name = "mount -t",
		.locks = { MNT_LOCKS },
		.seqs = WT_SEQ_MOUNT_LOCK,
		.stores = { "mnt_attach.mnt_mountpoint", "mnt_attach.mnt_parent" },
		.publish = { "mount.attach" },
		.notes = "mounts on the top of the stack at PATH; the kernel's"
			 " d_set_mounted rename_lock section is left out (see ops_mount.c)",
	},
	[WT_OP_BIND] = {
		.op = WT_OP_BIND, .name = "mount --bind",
		.locks = { MNT_LOCKS },
		.seqs = WT_SEQ_MOUNT_LOCK,
		.stores = { "mnt_attach.mnt_mountpoint", "mnt_attach.mnt_parent" },
		.publish = { "bind.attach" },
		.notes = "a clone of the source mount rooted at SRC",
	},
	[WT_OP_RBIND] = {
		.op = WT_OP_RBIND, .name = "mount --rbind",
		.locks = { MNT_LOCKS },
		.seqs = WT_SEQ_MOUNT_LOCK,
		.stores = { "mnt_attach.mnt_mountpoint*", "mnt_attach.mnt_parent*" },
		.publish = { "rbind.attach" },
		.notes = "copy_tree: the top clone first, then each child clone,"
			 " all in one mount_lock section",
	},
	[WT_OP_MOVE_MOUNT] = {
		.op = WT_OP_MOVE_MOUNT, .name = "mount --move",
		.locks = { MNT_LOCKS },
		.seqs = WT_SEQ_MOUNT_LOCK,
		.stores = { "mnt_detach.mnt_parent", "mnt_detach.mnt_mountpoint",
			    "mnt_attach.mnt_mountpoint", "mnt_attach.mnt_parent" },
		.publish = { "move_mount.attach" },
		.notes = "detach and attach in one mount_lock section: a walker"
			 " between the stores sees a torn mount, which mount_lock catches",
	},
	[WT_OP_UMOUNT] = {
		.op = WT_OP_UMOUNT, .name = "umount",
		.locks = { "writer_mutex", "namespace_sem", "mount_lock (lock_mount_hash)",
			   "smp_mb (pairs with __legitimize_mnt)",
			   "synchronize_rcu (after both unlocks)" },
		.seqs = WT_SEQ_MOUNT_LOCK,
		.stores = { "umount.MNT_SYNC_UMOUNT", "mnt_detach.mnt_parent",
			    "mnt_detach.mnt_mountpoint" },
		.publish = { "umount.detach" },
		.notes = "EBUSY with child mounts or mnt_count > 2 (the tree's and"
			 " ours); after the grace period the umount does the final put",
	},
	[WT_OP_UMOUNT_LAZY] = {
		.op = WT_OP_UMOUNT_LAZY, .name = "umount -l",
		.locks = { "writer_mutex", "namespace_sem", "mount_lock (lock_mount_hash)",
			   "synchronize_rcu (after both unlocks)" },
		.seqs = WT_SEQ_MOUNT_LOCK,
		.stores = { "umount.MNT_UMOUNT*", "mnt_detach.mnt_parent*",
			    "mnt_detach.mnt_mountpoint*" },
		.publish = { "umount.detach" },
		.notes = "the whole subtree, top first, MNT_UMOUNT without"
			 " MNT_SYNC_UMOUNT; whoever puts last frees",
	},
	[WT_OP_SHRINK] = {
		.op = WT_OP_SHRINK, .name = "shrink",
		.locks = { "writer_mutex", "d_lock(each) [in wt_dcache_shrink]",
			   "dcache_lock [in wt_dcache_shrink]" },
		.seqs = WT_SEQ_KILLED_DENTRIES,
		.stores = { "shrink" },
		.publish = { "shrink" },
		.notes = "kills unused dentries (each invalidated, then freed);"
			 " no namespace change: the entry has no facts",
	},
	[WT_OP_PROC_MAGIC] = {
		.op = WT_OP_PROC_MAGIC, .name = "proc-magic",
		.locks = { "writer_mutex", "i_rwsem(proc root)",
			   "d_lock(dentry) [in wt_proc_add_magic]" },
		.seqs = WT_SEQ_CREATED_DENTRY,
		.stores = { "proc-magic.d_instantiate" },
		.publish = { "proc-magic.d_instantiate" },
		.notes = "a magic link (S_MAGICLINK) aimed at a resolved path",
	},
	[WT_OP_REMOTE] = {
		.op = WT_OP_REMOTE, .name = "remote-*",
		.locks = { "writer_mutex", "the server's lock [in sim/fs/remote.c]" },
		.seqs = 0,
		.stores = { "remote.server" },
		.publish = { "remote.server" },
		.notes = "behind the client's back: no client seqcount moves, the"
			 " entry has no facts; revalidation finds out",
	},
	[WT_OP_ACL_UNCACHE] = {
		.op = WT_OP_ACL_UNCACHE, .name = "acl-uncache",
		.locks = { "writer_mutex" },
		.seqs = 0,
		.stores = { NULL },
		.publish = { NULL },
		.notes = "slowperm: not a namespace change, not logged",
	},
	[WT_OP_AUTOFS_BUSY] = {
		.op = WT_OP_AUTOFS_BUSY, .name = "autofs-busy",
		.locks = { "writer_mutex" },
		.seqs = 0,
		.stores = { NULL },
		.publish = { NULL },
		.notes = "the daemon's state: not a namespace change, not logged",
	},
	[WT_OP_REMOTE_BAD] = {
		.op = WT_OP_REMOTE_BAD, .name = "remote-bad",
		.locks = { "writer_mutex", "i_lock(inode)" },
		.seqs = 0,
		.stores = { NULL },
		.publish = { NULL },
		.notes = "the client's inode state (S_BAD_INODE): not a namespace"
			 " change, not logged",
	},
	[WT_OP_REMOTE_LAYER] = {
		.op = WT_OP_REMOTE_LAYER, .name = "remote-layer",
		.locks = { "writer_mutex" },
		.seqs = 0,
		.stores = { NULL },
		.publish = { NULL },
		.notes = "a mount option (WT_REMOTE_OVL_LAYER): not logged",
	},
	[WT_OP_TOUCH_NOFOLLOW] = {
		.op = WT_OP_TOUCH_NOFOLLOW, .name = "touch -h",
		.locks = { "writer_mutex", "i_lock(inode)" },
		.seqs = 0,
		.stores = { NULL },
		.publish = { NULL },
		.notes = "timestamps (S_NEEDS_ATIME): not namespace facts, not logged",
	},
	[WT_OP_REMOUNT] = {
		.op = WT_OP_REMOUNT, .name = "mount -o remount",
		.locks = { "writer_mutex", "namespace_sem",
			   "mount_lock (lock_mount_hash)" },
		.seqs = WT_SEQ_MOUNT_LOCK,
		.stores = { "remount.mnt_flags" },
		.publish = { "remount.mnt_flags" },
		.notes = "without bind the super_block's SB_RDONLY changes first"
			 " (a plain WRITE_ONCE: walkers read it only when they"
			 " write); then the mount's user flags, replaced wholesale",
	},
};

const struct wt_op_row *wt_op_row(enum wt_op op)
{
	return (unsigned)op < WT_OP__COUNT ? &wt_op_table[op] : NULL;
}

const struct wt_op_row *wt_op_row_by_name(const char *name)
{
	for (unsigned i = 0; i < WT_OP__COUNT; i++)
		if (!strcmp(wt_op_table[i].name, name))
			return &wt_op_table[i];
	return NULL;
}
