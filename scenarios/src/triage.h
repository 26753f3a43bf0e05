/* SPDX-License-Identifier: MIT */
/*
 * Triage: a failure's signature and a scenario's failure groups.
 *
 * A signature names what failed and where, without what differs from one
 * iteration to the next (seeds, object ids, indices): the kind, the
 * check, for an expectation its text, the point a check fired at, the
 * walk (entry and answer), the failing walk step's kind and the exit
 * paths the walk took.  Failures with one signature are one group: the
 * iterations it fired in (each counted once), the first and last of
 * them (seed and index) and one representative record kept in full
 * (reports/SCHEMA.md "groups").
 */
#ifndef WT_SCENARIOS_TRIAGE_H
#define WT_SCENARIOS_TRIAGE_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#define WT_SCN_GROUPS_MAX	32	/* further signatures go to "other" */
#define WT_SCN_SIGNATURE_MAX	512

/*
 * The signature of a failure record as the runner makes it (before its
 * "failing_point" is dropped), into buf.
 */
void wt_scn_signature(json_t *f, char *buf, size_t len);

/* Set "signature" on every record of an iteration's array. */
void wt_scn_sign_all(json_t *failures);

/* Is some record of failures (signed) of a signature groups lacks? */
bool wt_scn_groups_new(json_t *groups, json_t *failures);

/*
 * Count one iteration's records (signed) into groups: each signature
 * once, with the records' seed and iteration (null for a count over the
 * run).  New groups have no representative until the caller points one
 * at a kept record (wt_scn_group_represent).
 */
void wt_scn_groups_count(json_t *groups, json_t *failures);
/* The group of signature sig, or NULL. */
json_t *wt_scn_group(json_t *groups, const char *sig);
/* Make record index k (in the scenario's kept failures) g's representative
 * if it has none; true when it did. */
bool wt_scn_group_represent(json_t *g, size_t k);

#endif /* WT_SCENARIOS_TRIAGE_H */
