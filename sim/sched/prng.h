/* SPDX-License-Identifier: MIT */
/*
 * A small seeded PRNG and the derivation of every seed of a run from one.
 *
 * A run has one 64-bit seed.  Everything random in it is derived from that
 * seed, so that the seed alone replays the run:
 *
 *	iteration seed	= wt_seed_derive(run_seed, WT_SEED_ITERATION + i)
 *	thread seed	= wt_seed_derive(iteration_seed, WT_SEED_THREAD + tid)
 *	scheduler seed	= wt_seed_derive(iteration_seed, WT_SEED_SCHED)
 *
 * where wt_seed_derive(parent, tag) is splitmix64's output function applied
 * to parent + (tag + 1) * 0x9e3779b97f4a7c15 (the golden-ratio increment),
 * i.e. the (tag+1)-th output of a splitmix64 stream started at parent.
 * Tags are disjoint ranges, so no two derived seeds of a run collide by
 * construction of the tag (only by 64-bit accident).
 *
 * A stream (struct wt_prng) is xoshiro256** seeded from one derived seed
 * through splitmix64, as its authors recommend.  The derivation and the
 * generator are part of the trace format: changing either changes every
 * digest.
 */
#ifndef WT_SIM_SCHED_PRNG_H
#define WT_SIM_SCHED_PRNG_H

#include <stdbool.h>
#include <stdint.h>

#define WT_SEED_SCHED		0x0ull		/* the scheduler's stream */
#define WT_SEED_ITERATION	0x100000000ull	/* + iteration index */
#define WT_SEED_THREAD		0x200000000ull	/* + thread id */

struct wt_prng {
	uint64_t s[4];
};

static inline uint64_t wt_splitmix64_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* One step of a splitmix64 stream. */
static inline uint64_t wt_splitmix64(uint64_t *state)
{
	*state += 0x9e3779b97f4a7c15ull;
	return wt_splitmix64_mix(*state);
}

static inline uint64_t wt_seed_derive(uint64_t parent, uint64_t tag)
{
	return wt_splitmix64_mix(parent + (tag + 1) * 0x9e3779b97f4a7c15ull);
}

static inline uint64_t wt_seed_iteration(uint64_t run_seed, uint64_t i)
{
	return wt_seed_derive(run_seed, WT_SEED_ITERATION + i);
}

static inline uint64_t wt_seed_thread(uint64_t iteration_seed, uint32_t tid)
{
	return wt_seed_derive(iteration_seed, WT_SEED_THREAD + tid);
}

static inline void wt_prng_seed(struct wt_prng *r, uint64_t seed)
{
	uint64_t sm = seed;

	for (int i = 0; i < 4; i++)
		r->s[i] = wt_splitmix64(&sm);
}

static inline uint64_t wt_prng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* xoshiro256** (Blackman and Vigna). */
static inline uint64_t wt_prng_next(struct wt_prng *r)
{
	uint64_t *s = r->s;
	uint64_t result = wt_prng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = wt_prng_rotl(s[3], 45);
	return result;
}

/* Uniform in [0, n); n == 0 gives 0.  Multiply-shift: the bias is below
 * n / 2^64, invisible at the sizes we draw. */
static inline uint64_t wt_prng_below(struct wt_prng *r, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)wt_prng_next(r) * n) >> 64);
}

/* Uniform in [0, 1), 53 bits. */
static inline double wt_prng_double(struct wt_prng *r)
{
	return (double)(wt_prng_next(r) >> 11) * 0x1.0p-53;
}

/* True with probability p (p <= 0 never draws, p >= 1 never draws):
 * not drawing keeps streams aligned when a probability is certain. */
static inline int wt_prng_chance(struct wt_prng *r, double p)
{
	if (p <= 0.0)
		return 0;
	if (p >= 1.0)
		return 1;
	return wt_prng_double(r) < p;
}

/*
 * wt_prng_chance(r, p) for a p fixed beforehand (wt_prng_p_set): the
 * same draws and the same answers, with an integer compare for the
 * double's.  For 0 < p < 1 the draw is x = next >> 11, and
 * x * 2^-53 < p (both sides exact: x has 53 bits, and scaling by a
 * power of two is exact) is x < p * 2^53, so x < ceil(p * 2^53), so
 * next < ceil(p * 2^53) << 11 (below 2^64: p <= 1 - 2^-53).
 */
struct wt_prng_p {
	uint64_t below;		/* draw: next < below; no draw: below != 0 */
	bool draw;
};

static inline void wt_prng_p_set(struct wt_prng_p *c, double p)
{
	double x = p * 0x1.0p53;
	uint64_t k;

	if (p <= 0.0 || p >= 1.0) {
		c->draw = false;
		c->below = p >= 1.0;
		return;
	}
	c->draw = true;
	if (p != p) {			/* NaN: drawn, never true */
		c->below = 0;
		return;
	}
	k = (uint64_t)x;		/* x in (0, 2^53): exact truncation */
	if ((double)k < x)
		k++;
	c->below = k << 11;
}

static inline int wt_prng_chance_p(struct wt_prng *r, const struct wt_prng_p *c)
{
	if (!c->draw)
		return c->below != 0;
	return wt_prng_next(r) < c->below;
}

/* Natural log for the exponential distribution, without libm: x = m * 2^e
 * with m in [1, 2), ln m = 2 atanh((m - 1) / (m + 1)), |z| <= 1/3 so the
 * odd series converges to double precision in 20 terms. */
static inline double wt_ln(double x)
{
	union { double d; uint64_t u; } v = { .d = x };
	int e = (int)((v.u >> 52) & 0x7ff) - 1023;
	double z, z2, sum = 0.0, term;

	if (x <= 0.0)
		return -1e300;
	v.u = (v.u & ~(0x7ffull << 52)) | (1023ull << 52);
	z = (v.d - 1.0) / (v.d + 1.0);
	z2 = z * z;
	term = z;
	for (int k = 1; k < 40; k += 2) {
		sum += term / k;
		term *= z2;
	}
	return 2.0 * sum + e * 0.69314718055994530942;
}

/* Exponentially distributed with the given mean. */
static inline double wt_prng_exp(struct wt_prng *r, double mean)
{
	return -mean * wt_ln(1.0 - wt_prng_double(r));
}

#endif /* WT_SIM_SCHED_PRNG_H */
