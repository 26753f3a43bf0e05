/* SPDX-License-Identifier: MIT */
/*
 * x86-TSO store buffers: the buffers, the table of pending words, and
 * the slow paths of the accessors in sim/atomic.h (the model and the
 * representation are described in tso.h).
 *
 * Everything here runs on the one OS thread of a sim run, so memory is
 * touched with relaxed atomics only to keep each access untorn (and
 * ThreadSanitizer quiet); their order is program order.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "sim/tso.h"

__thread struct wt_tso_buf *wt_tso_self;
__thread uint64_t wt_primitive_bugs;

#define WORD_SIZE	8u
#define WORD_OF(a)	((a) & ~(uintptr_t)(WORD_SIZE - 1))

struct tso_entry {
	uintptr_t addr;
	uint8_t size;
	uint8_t val[WORD_SIZE];
	uint32_t epoch;			/* pso: the buffer's epoch when stored */
	uint64_t sn;			/* the buffer's store count before it */
};

struct wt_tso_buf {
	struct wt_tso_buf_head h;	/* first: count, read inline */
	struct wt_tso *tso;
	unsigned thread;
	unsigned head;			/* oldest entry */
	bool direct;			/* see wt_tso_set_direct() */
	/* pso: bumped by smp_wmb() and before a release store; an entry may
	 * reach memory only when no older entry has a smaller epoch */
	uint32_t epoch;
	uint64_t next_sn;		/* stores buffered so far (entry sn) */
	struct tso_entry e[WT_TSO_ENTRIES];
};

/* An aligned 8-byte word with bytes in some buffer. */
struct tso_word {
	uintptr_t word;			/* 0: free slot */
	uint32_t pending;		/* entries on it, all buffers */
	uint8_t mask;			/* bytes buffered since it entered */
	uint8_t committed[WORD_SIZE];	/* what the others see */
	uint8_t shadow[WORD_SIZE];	/* what the last buffered store wrote */
};

struct wt_tso {
	struct wt_tso_head h;		/* first: pending, read inline */
	unsigned nthreads;
	bool partial;			/* pso: see wt_tso_set_partial() */
	unsigned bits;			/* log2(nslots) */
	size_t nslots;
	struct tso_word *slot;		/* open addressing, linear probing */
	struct wt_tso_stats stats;
	wt_tso_flush_hook hook;		/* see wt_tso_set_flush_hook() */
	void *hook_ctx;
	struct wt_tso_buf buf[];
};

/* ---- memory ---- */

static void mem_read(uintptr_t a, size_t size, uint8_t *out)
{
	switch (size) {
	case 1: {
		uint8_t v = __atomic_load_n((const uint8_t *)a, __ATOMIC_RELAXED);

		memcpy(out, &v, 1);
		break;
	}
	case 2: {
		uint16_t v = __atomic_load_n((const uint16_t *)a, __ATOMIC_RELAXED);

		memcpy(out, &v, 2);
		break;
	}
	case 4: {
		uint32_t v = __atomic_load_n((const uint32_t *)a, __ATOMIC_RELAXED);

		memcpy(out, &v, 4);
		break;
	}
	case 8: {
		uint64_t v = __atomic_load_n((const uint64_t *)a, __ATOMIC_RELAXED);

		memcpy(out, &v, 8);
		break;
	}
	default:
		abort();
	}
}

static void mem_write(uintptr_t a, size_t size, const void *in)
{
	switch (size) {
	case 1: {
		uint8_t v;

		memcpy(&v, in, 1);
		__atomic_store_n((uint8_t *)a, v, __ATOMIC_RELAXED);
		break;
	}
	case 2: {
		uint16_t v;

		memcpy(&v, in, 2);
		__atomic_store_n((uint16_t *)a, v, __ATOMIC_RELAXED);
		break;
	}
	case 4: {
		uint32_t v;

		memcpy(&v, in, 4);
		__atomic_store_n((uint32_t *)a, v, __ATOMIC_RELAXED);
		break;
	}
	case 8: {
		uint64_t v;

		memcpy(&v, in, 8);
		__atomic_store_n((uint64_t *)a, v, __ATOMIC_RELAXED);
		break;
	}
	default:
		abort();
	}
}

/* An access the model can buffer: 1, 2, 4 or 8 bytes, naturally aligned
 * (so it lies inside one word). */
static void check_access(uintptr_t a, size_t size)
{
	assert(size == 1 || size == 2 || size == 4 || size == 8);
	assert((a & (size - 1)) == 0);
	(void)a;
	(void)size;
}

/* ---- the table of pending words ---- */

static size_t word_home(const struct wt_tso *t, uintptr_t w)
{
	return (size_t)(((uint64_t)w / WORD_SIZE * 0x9e3779b97f4a7c15ull) >>
			(64 - t->bits));
}

static struct tso_word *word_find(struct wt_tso *t, uintptr_t w)
{
	size_t m = t->nslots - 1, i = word_home(t, w);

	/* Bounded: the table is never more than half full. */
	for (size_t n = 0; n < t->nslots; n++, i = (i + 1) & m) {
		if (t->slot[i].word == w)
			return &t->slot[i];
		if (t->slot[i].word == 0)
			return NULL;
	}
	return NULL;
}

static struct tso_word *word_get(struct wt_tso *t, uintptr_t w)
{
	size_t m = t->nslots - 1, i = word_home(t, w);

	assert(w != 0);
	for (size_t n = 0; n < t->nslots; n++, i = (i + 1) & m) {
		struct tso_word *x = &t->slot[i];

		if (x->word == w)
			return x;
		if (x->word == 0) {
			memset(x, 0, sizeof(*x));
			x->word = w;
			return x;
		}
	}
	abort();	/* more words than entries: cannot happen */
}

/* Backward-shift deletion: no tombstones, so lookups stay short. */
static void word_remove(struct wt_tso *t, struct tso_word *x)
{
	size_t m = t->nslots - 1, i = (size_t)(x - t->slot), j = i;

	for (;;) {
		size_t k;

		j = (j + 1) & m;
		if (t->slot[j].word == 0)
			break;
		k = word_home(t, t->slot[j].word);
		/* Move j back into the hole at i unless its home lies
		 * cyclically in (i, j]. */
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		t->slot[i] = t->slot[j];
		i = j;
	}
	t->slot[i].word = 0;
}

/*
 * The word's last entry is gone: memory gets the committed bytes back
 * (they differ when two threads buffered the same byte and the earlier
 * store reached memory last), except where a plain store came after the
 * buffered ones (memory no longer equals the shadow): that one is newer.
 */
static void word_settle(struct wt_tso *t, struct tso_word *x)
{
	for (unsigned b = 0; b < WORD_SIZE; b++) {
		uint8_t cur;

		if (!(x->mask & (1u << b)))
			continue;
		mem_read(x->word + b, 1, &cur);
		if (cur == x->shadow[b] && cur != x->committed[b])
			mem_write(x->word + b, 1, &x->committed[b]);
	}
	word_remove(t, x);
}

/* ---- buffers ---- */

static struct tso_entry *buf_at(struct wt_tso_buf *b, unsigned i)
{
	return &b->e[(b->head + i) % WT_TSO_ENTRIES];
}

static void buf_flush_oldest(struct wt_tso_buf *b)
{
	struct wt_tso *t = b->tso;
	struct tso_entry *e = &b->e[b->head];
	struct tso_word *x = word_find(t, WORD_OF(e->addr));
	uint64_t sn = e->sn;

	assert(b->h.count > 0);
	assert(x && x->pending > 0);
	memcpy(x->committed + (e->addr - x->word), e->val, e->size);
	b->head = (b->head + 1) % WT_TSO_ENTRIES;
	b->h.count--;
	t->h.pending--;
	t->stats.flushes++;
	if (--x->pending == 0)
		word_settle(t, x);
	if (t->hook)
		t->hook(t->hook_ctx, b->thread, sn);
}

/* ---- pso: entries that may leave out of order ---- */

/*
 * May entry i reach memory now?  TSO: only the oldest.  PSO: when no older
 * entry is on the same word (stores to one location stay in order) and
 * none is older than the last barrier before it (smp_wmb, or a release
 * store's own implied one) -- epochs never decrease along the buffer, so
 * that is: i's epoch is the oldest entry's.
 */
static bool entry_flushable(struct wt_tso_buf *b, unsigned i)
{
	const struct tso_entry *e = buf_at(b, i);

	if (i == 0)
		return true;
	if (!b->tso->partial || e->epoch != buf_at(b, 0)->epoch)
		return false;
	for (unsigned j = 0; j < i; j++)
		if (WORD_OF(buf_at(b, j)->addr) == WORD_OF(e->addr))
			return false;
	return true;
}

/* Entry i reaches memory; the younger ones close the gap. */
static void buf_flush_entry(struct wt_tso_buf *b, unsigned i)
{
	struct tso_entry e = *buf_at(b, i);

	assert(i < b->h.count);
	assert(entry_flushable(b, i));
	if (i == 0) {
		buf_flush_oldest(b);
		return;
	}
	/* Bounded by the buffer: shift entries 0..i-1 up by one, so that
	 * entry i becomes the oldest, then flush it as the oldest. */
	for (unsigned j = i; j > 0; j--)
		*buf_at(b, j) = *buf_at(b, j - 1);
	*buf_at(b, 0) = e;
	buf_flush_oldest(b);
}

unsigned wt_tso_flushable(struct wt_tso_buf *b)
{
	unsigned n = 0;

	for (unsigned i = 0; i < b->h.count; i++)
		n += entry_flushable(b, i);
	return n;
}

int wt_tso_flushable_nth(struct wt_tso_buf *b, unsigned nth)
{
	for (unsigned i = 0; i < b->h.count; i++)
		if (entry_flushable(b, i) && nth-- == 0)
			return (int)i;
	return -1;
}

bool wt_tso_flush_at(struct wt_tso_buf *b, unsigned i)
{
	if (i >= b->h.count || !entry_flushable(b, i))
		return false;
	buf_flush_entry(b, i);
	return true;
}

bool wt_tso_must_precede(struct wt_tso_buf *b, unsigned k, unsigned i)
{
	const struct tso_entry *e = buf_at(b, k), *target = buf_at(b, i);

	assert(k < i && i < b->h.count);
	return !b->tso->partial || e->epoch < target->epoch ||
	       WORD_OF(e->addr) == WORD_OF(target->addr);
}

unsigned wt_tso_flush_through(struct wt_tso_buf *b, unsigned i)
{
	const struct tso_entry *target;
	uint32_t epoch;
	uintptr_t word;
	unsigned n = 0;

	if (i >= b->h.count)
		return 0;
	target = buf_at(b, i);
	epoch = target->epoch;
	word = WORD_OF(target->addr);
	/*
	 * What must go first: every older entry with a smaller epoch or on
	 * the same word (under tso, every older entry: the flushable test
	 * says so).  That set is closed under "must go first", so flushing
	 * it oldest first always flushes a flushable entry.  Bounded by i.
	 */
	for (unsigned j = 0; j < i; ) {
		const struct tso_entry *e = buf_at(b, j);

		if (!b->tso->partial || e->epoch < epoch ||
		    WORD_OF(e->addr) == word) {
			buf_flush_entry(b, j);
			i--;
			n++;
		} else {
			j++;
		}
	}
	buf_flush_entry(b, i);
	return n + 1;
}

void wt_tso_set_partial(struct wt_tso *t, bool partial)
{
	t->partial = partial;
}

bool wt_tso_partial_self(void)
{
	return wt_tso_self->tso->partial && !wt_tso_self->direct;
}

void wt_tso_wmb_slow(void)
{
	struct wt_tso_buf *b = wt_tso_self;

	if (b->tso->partial && !b->direct)
		b->epoch++;
}

bool wt_tso_flush(struct wt_tso_buf *b)
{
	if (b->h.count == 0)
		return false;
	buf_flush_oldest(b);
	return true;
}

unsigned wt_tso_drain(struct wt_tso_buf *b)
{
	unsigned n = b->h.count;

	/* Bounded by the entries there are: each pass removes one. */
	while (b->h.count > 0)
		buf_flush_oldest(b);
	return n;
}

void wt_tso_drain_all(struct wt_tso *t)
{
	for (unsigned i = 0; i < t->nthreads; i++)
		wt_tso_drain(&t->buf[i]);
	assert(t->h.pending == 0);
}

uint64_t wt_tso_next_sn(const struct wt_tso_buf *b)
{
	return b->next_sn;
}

int wt_tso_index_of(struct wt_tso_buf *b, uint64_t sn)
{
	for (unsigned i = 0; i < b->h.count; i++)
		if (buf_at(b, i)->sn == sn)
			return (int)i;
	return -1;
}

bool wt_tso_buffered(struct wt_tso_buf *b, uint64_t sn)
{
	return wt_tso_index_of(b, sn) >= 0;
}

void wt_tso_set_flush_hook(struct wt_tso *t, wt_tso_flush_hook hook,
			   void *ctx)
{
	t->hook = hook;
	t->hook_ctx = ctx;
}

bool wt_tso_set_direct(struct wt_tso_buf *b, bool direct)
{
	bool old = b->direct;

	b->direct = direct;
	return old;
}

/* ---- the slow paths of sim/atomic.h ---- */

void wt_tso_store(void *addr, const void *val, size_t size)
{
	struct wt_tso_buf *b = wt_tso_self;
	struct wt_tso *t = b->tso;
	uintptr_t a = (uintptr_t)addr;
	uint8_t cur[WORD_SIZE];
	struct tso_word *x;
	struct tso_entry *e;
	unsigned off = (unsigned)(a - WORD_OF(a));

	check_access(a, size);
	if (b->direct) {
		mem_write(a, size, val);
		return;
	}
	if (b->h.count == WT_TSO_ENTRIES) {
		/* Full: the oldest entry goes first (before the table is
		 * touched: the flush may remove words). */
		buf_flush_oldest(b);
		t->stats.full++;
	}
	x = word_get(t, WORD_OF(a));
	mem_read(a, size, cur);
	for (unsigned i = 0; i < size; i++) {
		unsigned bit = 1u << (off + i);

		/* First buffered store of this byte: memory is what the
		 * others see until an entry reaches it. */
		if (!(x->mask & bit)) {
			x->committed[off + i] = cur[i];
			x->mask = (uint8_t)(x->mask | bit);
		}
	}
	memcpy(x->shadow + off, val, size);
	x->pending++;
	mem_write(a, size, val);
	e = buf_at(b, b->h.count);
	e->addr = a;
	e->size = (uint8_t)size;
	e->epoch = b->epoch;
	e->sn = b->next_sn++;
	memcpy(e->val, val, size);
	b->h.count++;
	t->h.pending++;
	t->stats.stores++;
	if (b->h.count > t->stats.max_depth)
		t->stats.max_depth = b->h.count;
}

/* The own newest buffered byte at word offset `byte', or -1. */
static int own_byte(struct wt_tso_buf *b, uintptr_t word, unsigned byte)
{
	for (unsigned i = b->h.count; i-- > 0; ) {
		const struct tso_entry *e = buf_at(b, i);
		uintptr_t at = word + byte;

		if (WORD_OF(e->addr) == word && e->addr <= at &&
		    at < e->addr + e->size)
			return e->val[at - e->addr];
	}
	return -1;
}

void wt_tso_load(const void *addr, void *out, size_t size)
{
	struct wt_tso_buf *b = wt_tso_self;
	struct wt_tso *t = b->tso;
	uintptr_t a = (uintptr_t)addr;
	uint8_t *o = out;
	struct tso_word *x;
	unsigned off = (unsigned)(a - WORD_OF(a));
	bool own = false, stale = false;

	check_access(a, size);
	mem_read(a, size, o);
	if (t->h.pending == 0)
		return;
	x = word_find(t, WORD_OF(a));
	if (!x)
		return;
	for (unsigned i = 0; i < size; i++) {
		unsigned byte = off + i;
		int v;

		/* Not buffered, or a plain store came after the buffered
		 * ones: memory is right. */
		if (!(x->mask & (1u << byte)) || o[i] != x->shadow[byte])
			continue;
		v = own_byte(b, x->word, byte);
		if (v >= 0) {
			own = true;
			o[i] = (uint8_t)v;
		} else {
			stale |= o[i] != x->committed[byte];
			o[i] = x->committed[byte];
		}
	}
	if (!b->direct) {	/* a load of the program (wt_tso_stats) */
		t->stats.forwards += own;
		t->stats.stale += stale;
	}
}

void wt_tso_fence_slow(void)
{
	struct wt_tso_buf *b = wt_tso_self;

	if (!b->direct)
		wt_tso_drain(b);
}

/* Flush thread i's entries up to its newest one on `word'. */
static void flush_through_word(struct wt_tso_buf *b, uintptr_t word)
{
	unsigned upto = 0;

	for (unsigned i = 0; i < b->h.count; i++)
		if (WORD_OF(buf_at(b, i)->addr) == word)
			upto = i + 1;
	while (upto-- > 0)
		buf_flush_oldest(b);
}

void wt_tso_rmw_slow(const void *addr, size_t size)
{
	struct wt_tso_buf *b = wt_tso_self;
	struct wt_tso *t = b->tso;
	uintptr_t word = WORD_OF((uintptr_t)addr);

	check_access((uintptr_t)addr, size);
	if (b->direct)
		return;
	wt_tso_drain(b);
	if (!word_find(t, word))
		return;
	/* In thread order: deterministic, and any order is a legal one. */
	for (unsigned i = 0; i < t->nthreads; i++)
		flush_through_word(&t->buf[i], word);
	assert(!word_find(t, word));
}

/* ---- set-up ---- */

struct wt_tso *wt_tso_create(unsigned nthreads)
{
	struct wt_tso *t = calloc(1, sizeof(*t) +
				  nthreads * sizeof(struct wt_tso_buf));
	size_t need = 2 * (size_t)(nthreads ? nthreads : 1) * WT_TSO_ENTRIES;

	if (!t)
		return NULL;
	t->nthreads = nthreads;
	/* At most one word per entry: twice that keeps probes short. */
	for (t->bits = 4; ((size_t)1 << t->bits) < need; t->bits++)
		;
	t->nslots = (size_t)1 << t->bits;
	t->slot = calloc(t->nslots, sizeof(*t->slot));
	if (!t->slot) {
		free(t);
		return NULL;
	}
	for (unsigned i = 0; i < nthreads; i++) {
		t->buf[i].tso = t;
		t->buf[i].h.pending = &t->h.pending;
		t->buf[i].thread = i;
	}
	return t;
}

void wt_tso_destroy(struct wt_tso *t)
{
	if (!t)
		return;
	free(t->slot);
	free(t);
}

struct wt_tso_buf *wt_tso_buf_of(struct wt_tso *t, unsigned thread)
{
	assert(thread < t->nthreads);
	return &t->buf[thread];
}

void wt_tso_get_stats(const struct wt_tso *t, struct wt_tso_stats *out)
{
	*out = t->stats;
}
