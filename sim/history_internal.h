/* SPDX-License-Identifier: MIT */
/*
 * The history's inside, shared by history.c, ns.c and the writer ops.
 * struct wt_history is also where the writer side keeps its per-world
 * state (the writer mutex, the creating-path table): the world has one
 * hook for the writer side, w->history, and the log is what the writer
 * mutex serialises.
 */
#ifndef WT_SIM_HISTORY_INTERNAL_H
#define WT_SIM_HISTORY_INTERNAL_H

#include "sim/history.h"
#include "sim/idmap.h"
#include "sim/mutex.h"
#include "sim/spinlock.h"

#define WT_HIST_CHUNK	1024u		/* entries per chunk */
#define WT_HIST_CHUNKS	4096u		/* chunks: 4M steps per iteration */

struct wt_ns;

/* Open records tracked (history.c, rec_track): more than the writers and
 * automounts a run has open at once. */
#define WT_HIST_OPEN	32

struct wt_history {
	struct wt_world *world;
	spinlock_t lock;		/* the known table, chunk allocation */
	uint64_t reserved;		/* last version begun (atomic) */
	uint64_t published;		/* last version published (atomic) */
	uint64_t first;			/* oldest version still in the log */
	struct wt_hist_entry *chunks[WT_HIST_CHUNKS];
	uint32_t nchunks;		/* chunks[] past this are NULL */
	struct wt_idmap known;		/* id -> logged marker (under lock) */
	/* the writer side's state (sim/ops) */
	struct wt_mutex writer;		/* serialises writer operations */
	struct wt_idmap origins;	/* inode id -> creating path (char *) */
	uint64_t ops_done;		/* writer operations that succeeded */
	uint64_t sync_umount_not_final;	/* sync umounts whose own put was not the last */
	/* Records begun and not committed yet, by version mod
	 * WT_HIST_OPEN (raw __atomic: no point, no store buffer): what a
	 * run abandoned mid-step (stuck, halted) leaves, freed by the
	 * rewind or the reset that follows it instead of leaked. */
	struct wt_hist_rec *open[WT_HIST_OPEN];
	/* wt_history_mark's: where wt_history_rewind goes back to (marked
	 * false: nowhere).  Copies of the tables; the creating paths'
	 * strings are the mark's, shared with the live table (history.c,
	 * origins_unshare).  base: the namespace at the mark, which
	 * wt_ns_create copies instead of applying every entry up to the
	 * mark again (NULL: none; its facts are the entries up to the
	 * mark, which a rewind keeps and a truncate or reset frees, so
	 * those drop it) */
	struct {
		bool marked;
		uint64_t version;
		struct wt_ns *base;
		struct wt_idmap known;
		struct wt_idmap origins;
		uint64_t ops_done;
		uint64_t sync_umount_not_final;
		/* the facts up to the mark that name remote handles, drawn
		 * from seed: wt_history_reseed moves them */
		struct wt_fact **handles;
		uint32_t nhandles;
		uint64_t seed;
	} mark;
};

/*
 * All live objects of the world as facts (supers, inodes, dentries,
 * mounts), for the initial entry, checkpoints and wt_world_dump.  The
 * world must be quiescent or the caller must hold the writer mutex.
 * Mount orders come from h (NULL: 0).
 */
void wt_capture_world(struct wt_world *w, const struct wt_history *h,
		      struct wt_fact **factsp, uint32_t *nfactsp);
void wt_facts_free(struct wt_fact *facts, uint32_t n);

/* The snapshot's objects (id -> const struct wt_fact *), for the printer. */
const struct wt_idmap *wt_ns_objects(const struct wt_ns *ns);

#endif /* WT_SIM_HISTORY_INTERNAL_H */
