/* SPDX-License-Identifier: MIT */
/* CPU lists: see cpus.h. */
#include <stdbool.h>
#include <stdio.h>

#include <hwloc.h>

#include "sim/sched/cpus.h"

static bool digit(char c)
{
	return c >= '0' && c <= '9';
}

/* A decimal PU index at *s (digits only: no sign, no space), advancing
 * *s; -1 when there is none or it is above WT_CPU_MAX. */
static long pu_number(const char **s)
{
	long v = 0;

	if (!digit(**s))
		return -1;
	for (; digit(**s); (*s)++) {
		v = v * 10 + (**s - '0');
		if (v > WT_CPU_MAX)
			return -2;
	}
	return v;
}

int wt_cpus_parse(const char *s, unsigned *out, unsigned max, char *msg,
		  size_t len)
{
	const char *p = s;
	unsigned n = 0;

	for (;;) {	/* one item a round: bounded by strlen(s) */
		const char *item = p;
		long a = pu_number(&p), b = a;

		if (a >= 0 && *p == '-') {
			p++;
			b = pu_number(&p);
		}
		if (a == -2 || b == -2) {
			snprintf(msg, len, "'%s': a PU above %d", s, WT_CPU_MAX);
			return -1;
		}
		if (!*item || *item == ',') {
			snprintf(msg, len, "'%s': an empty item", s);
			return -1;
		}
		if (a < 0 || b < 0 || (*p && *p != ',')) {
			snprintf(msg, len, "'%s': bad CPU list at '%s' (PU "
				 "numbers and ranges: 0,1 or 0-3 or 0,2-3)",
				 s, item);
			return -1;
		}
		if (b < a) {
			snprintf(msg, len, "'%s': range %ld-%ld runs backwards",
				 s, a, b);
			return -1;
		}
		if ((unsigned long)(b - a) + 1 > max - n) {
			snprintf(msg, len, "'%s': more than %u PUs", s, max);
			return -1;
		}
		for (long c = a; c <= b; c++)
			out[n++] = (unsigned)c;
		if (!*p)
			return (int)n;
		p++;	/* the ',' */
	}
}

int wt_cpus_check(const unsigned *cpus, unsigned n, unsigned *bad, char *msg,
		  size_t len)
{
	hwloc_topology_t topo;
	hwloc_bitmap_t have;
	hwloc_obj_t pu = NULL;
	char list[256];
	int ret = 0;

	if (hwloc_topology_init(&topo))
		goto no_topology;
	if (hwloc_topology_load(topo)) {
		hwloc_topology_destroy(topo);
		goto no_topology;
	}
	have = hwloc_bitmap_alloc();
	while ((pu = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_PU, pu)))
		hwloc_bitmap_set(have, pu->os_index);
	for (unsigned i = 0; i < n && !ret; i++) {
		if (hwloc_bitmap_isset(have, cpus[i]))
			continue;
		hwloc_bitmap_list_snprintf(list, sizeof(list), have);
		snprintf(msg, len, "no PU %u on this machine (PUs: %s)",
			 cpus[i], list);
		if (bad)
			*bad = i;
		ret = -1;
	}
	hwloc_bitmap_free(have);
	hwloc_topology_destroy(topo);
	return ret;
no_topology:
	if (bad)
		*bad = n;
	snprintf(msg, len, "hwloc cannot read this machine's topology");
	return -1;
}
