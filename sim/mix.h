/* SPDX-License-Identifier: MIT */
/*
 * splitmix64's finaliser: every input bit reaches every output bit, so
 * sequential ids (and seeds that differ in one bit) land far apart --
 * in hash buckets and in the values drawn from them.
 */
#ifndef WT_SIM_MIX_H
#define WT_SIM_MIX_H

#include <stdint.h>

static inline uint64_t wt_mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 31;
	return x;
}

#endif /* WT_SIM_MIX_H */
