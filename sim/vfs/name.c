/* SPDX-License-Identifier: MIT */
/*
 * Name hashing: full_name_hash(), a function of the bytes only.
 *
 * The kernel salts its hash with the parent's address; walktorture keys
 * the bucket on the parent's id instead (wt_hash_bucket in
 * sim/vfs/internal.h), so the hash of a name is the same in every run
 * and every process and the chain layout depends only on the seed and
 * the operations.
 */
#include "sim/vfs/types.h"

/* FNV-1a over the bytes, folded to 32 bits. */
uint32_t full_name_hash(const char *name, uint32_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (uint32_t i = 0; i < len; i++) {
		h ^= (unsigned char)name[i];
		h *= 0x100000001b3ull;
	}
	return (uint32_t)(h ^ (h >> 32));
}
