/* SPDX-License-Identifier: MIT */
/*
 * casefold: case-insensitive names (ASCII folding, like ext4's casefold
 * with a trivial table).  d_hash hashes the folded bytes, so "ABC" and
 * "abc" land in one bucket; d_compare compares folded.  Dentries keep the
 * case they were created with.  Every dentry of the type gets
 * DCACHE_OP_HASH | DCACHE_OP_COMPARE (d_set_d_op), so __d_lookup_rcu
 * takes its slow_dentry_cmp path here, under the child's d_seq.
 */
#include "sim/fs/libfs.h"

static unsigned char fold(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') ? (unsigned char)(c - 'A' + 'a') : c;
}

/* full_name_hash over the folded bytes. */
static int casefold_d_hash(const struct dentry *parent, struct qstr *name)
{
	uint64_t h = 0xcbf29ce484222325ull;

	(void)parent;
	for (uint32_t i = 0; i < name->len; i++) {
		h ^= fold((unsigned char)name->name[i]);
		h *= 0x100000001b3ull;
	}
	name->hash = (uint32_t)(h ^ (h >> 32));
	return 0;
}

/*
 * str may be a name a rename is rewriting (RCU-walk): each byte is read
 * once, and the compare stops at the first difference, so a NUL of a
 * shorter name ends it inside the buffer.  0 means equal.
 */
static int casefold_d_compare(const struct dentry *dentry, uint32_t len,
			      const char *str, const struct qstr *name)
{
	(void)dentry;
	if (len != name->len)
		return 1;
	for (uint32_t i = 0; i < len; i++)
		if (fold((unsigned char)d_name_byte(str, i)) !=
		    fold((unsigned char)name->name[i]))
			return 1;
	return 0;
}

static const struct dentry_operations casefold_dops = {
	.d_hash = casefold_d_hash,
	.d_compare = casefold_d_compare,
};

const struct file_system_type wt_casefold_type = {
	.name = "casefold",
	.kind = WT_FS_CASEFOLD,
	.dir_iop = &wt_simple_dir_iop,
	.file_iop = &wt_simple_file_iop,
	.link_iop = &wt_simple_link_iop,
	.dop = &casefold_dops,
};
