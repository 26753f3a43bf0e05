/* SPDX-License-Identifier: MIT */
/*
 * Loading a scenario file: YAML (libyaml's document API, which keeps a
 * start mark on every node) into struct wt_scenario, validating as it
 * goes.  The first error ends the load with "file:line:col: message";
 * nothing of a file that failed is ever run.
 *
 * Keys are read in a fixed order (threads before what names threads)
 * after one pass that rejects unknown and duplicate keys, so an error in
 * the rules can already name the threads.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/paths.h"
#include "scenarios/src/yamlpos.h"

int wt_scn_fail(struct wt_scn_error *err, const char *file,
		struct wt_scn_pos pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!err || err->set)
		return -1;
	n = snprintf(err->text, sizeof(err->text), "%s:%u:%u: ", file,
		     pos.line, pos.col);
	if (n < 0 || (size_t)n >= sizeof(err->text))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(err->text + n, sizeof(err->text) - (size_t)n, fmt, ap);
	va_end(ap);
	err->set = true;
	return -1;
}

/* Offset of the start of 0-based line `line' in src, or NULL. */
static const char *line_start(const char *src, size_t line)
{
	const char *p = src;

	for (size_t i = 0; i < line; i++) {
		p = strchr(p, '\n');
		if (!p)
			return NULL;
		p++;
	}
	return p;
}

struct wt_scn_pos wt_ld_pos_at(const struct wt_ld *ld, const yaml_node_t *n,
			       size_t off)
{
	struct wt_scn_pos p = wt_ld_pos(n);
	const char *v = (const char *)n->data.scalar.value;
	size_t k = 0, c = off, indent = 0;
	const char *ls;

	if (n->type != YAML_SCALAR_NODE || off > n->data.scalar.length)
		return p;
	for (size_t i = 0; i < off; i++)
		if (v[i] == '\n') {
			k++;
			c = off - i - 1;
		}
	switch (n->data.scalar.style) {
	case YAML_PLAIN_SCALAR_STYLE:
		if (k)
			return p;	/* folded plain lines: the node */
		p.col += (unsigned)off;
		return p;
	case YAML_SINGLE_QUOTED_SCALAR_STYLE:
	case YAML_DOUBLE_QUOTED_SCALAR_STYLE:
		if (k)
			return p;
		p.col += 1 + (unsigned)off;
		return p;
	case YAML_LITERAL_SCALAR_STYLE:
		/* The mark is the `|'; the value's line k is the file's
		 * line mark+1+k, at that line's indentation. */
		ls = line_start(ld->src, n->start_mark.line + 1 + k);
		if (!ls)
			return p;
		while (ls[indent] == ' ')
			indent++;
		p.line = (unsigned)(n->start_mark.line + 2 + k);
		p.col = (unsigned)(indent + c + 1);
		return p;
	default:
		return p;
	}
}

static int vfail(struct wt_ld *ld, struct wt_scn_pos pos, const char *fmt,
		 va_list ap) __attribute__((format(printf, 3, 0)));

static int vfail(struct wt_ld *ld, struct wt_scn_pos pos, const char *fmt,
		 va_list ap)
{
	char msg[WT_SCN_ERR_MAX];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	return wt_scn_fail(ld->err, ld->file, pos, "%s", msg);
}

int wt_ld_fail(struct wt_ld *ld, const yaml_node_t *n, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vfail(ld, wt_ld_pos(n), fmt, ap);
	va_end(ap);
	return ret;
}

int wt_ld_fail_at(struct wt_ld *ld, const yaml_node_t *n, size_t off,
		  const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vfail(ld, wt_ld_pos_at(ld, n, off), fmt, ap);
	va_end(ap);
	return ret;
}

/* --- node helpers --- */

static yaml_node_t *node(struct wt_ld *ld, int idx)
{
	return yaml_document_get_node(ld->doc, idx);
}

static const char *type_name(const yaml_node_t *n)
{
	switch (n->type) {
	case YAML_SCALAR_NODE:
		return "a scalar";
	case YAML_SEQUENCE_NODE:
		return "a list";
	case YAML_MAPPING_NODE:
		return "a mapping";
	default:
		return "nothing";
	}
}

static const char *sval(const yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

static bool is_null(const yaml_node_t *n)
{
	const char *v;

	if (n->type != YAML_SCALAR_NODE ||
	    n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	v = sval(n);
	return !*v || !strcmp(v, "~") || !strcmp(v, "null");
}

static int want(struct wt_ld *ld, const yaml_node_t *n, yaml_node_type_t t,
		const char *key)
{
	static const char *const names[] = {
		[YAML_SCALAR_NODE] = "a scalar",
		[YAML_SEQUENCE_NODE] = "a list",
		[YAML_MAPPING_NODE] = "a mapping",
	};

	if (n->type == t)
		return 0;
	return wt_ld_fail(ld, n, "'%s' must be %s, not %s", key, names[t],
			  type_name(n));
}

static int get_string(struct wt_ld *ld, const yaml_node_t *n, const char *key,
		      char **out)
{
	if (want(ld, n, YAML_SCALAR_NODE, key))
		return -1;
	free(*out);
	*out = strdup(sval(n));
	return *out ? 0 : wt_ld_fail(ld, n, "out of memory");
}

static int get_u64(struct wt_ld *ld, const yaml_node_t *n, const char *key,
		   uint64_t min, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (want(ld, n, YAML_SCALAR_NODE, key))
		return -1;
	errno = 0;
	v = strtoull(sval(n), &end, 0);
	if (errno || end == sval(n) || *end || sval(n)[0] == '-')
		return wt_ld_fail(ld, n, "'%s' must be an integer, not '%s'",
				  key, sval(n));
	if (v < min)
		return wt_ld_fail(ld, n, "'%s' must be at least %llu", key,
				  (unsigned long long)min);
	*out = v;
	return 0;
}

static int get_u32(struct wt_ld *ld, const yaml_node_t *n, const char *key,
		   uint64_t min, uint32_t *out)
{
	uint64_t v;

	if (get_u64(ld, n, key, min, &v))
		return -1;
	if (v > UINT32_MAX)
		return wt_ld_fail(ld, n, "'%s' is too large", key);
	*out = (uint32_t)v;
	return 0;
}

static int get_bool(struct wt_ld *ld, const yaml_node_t *n, const char *key,
		    bool *out)
{
	static const char *const yes[] = { "true", "yes", "on", NULL };
	static const char *const no[] = { "false", "no", "off", NULL };

	if (want(ld, n, YAML_SCALAR_NODE, key))
		return -1;
	for (unsigned i = 0; yes[i]; i++) {
		if (!strcasecmp(sval(n), yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcasecmp(sval(n), no[i])) {
			*out = false;
			return 0;
		}
	}
	return wt_ld_fail(ld, n, "'%s' must be true or false, not '%s'", key,
			  sval(n));
}

static int get_duration(struct wt_ld *ld, const yaml_node_t *n,
			const char *key, uint64_t *ns)
{
	const char *end;

	if (want(ld, n, YAML_SCALAR_NODE, key))
		return -1;
	if (wt_duration_parse(sval(n), ns, &end) || *end)
		return wt_ld_fail(ld, n, "'%s' must be a duration (500ns, 3us, "
				  "1.5ms, 2s), not '%s'", key, sval(n));
	return 0;
}

static int get_double(struct wt_ld *ld, const yaml_node_t *n, const char *key,
		      double lo, double hi, double *out)
{
	char *end;
	double v;

	if (want(ld, n, YAML_SCALAR_NODE, key))
		return -1;
	v = strtod(sval(n), &end);
	if (end == sval(n) || *end || v < lo || v > hi)
		return wt_ld_fail(ld, n, "'%s' must be a number in [%g, %g], "
				  "not '%s'", key, lo, hi, sval(n));
	*out = v;
	return 0;
}

/*
 * A mapping with known keys: vals[i] receives the value node of keys[i]
 * (NULL when absent).  Unknown and repeated keys are errors.
 */
static int mapping(struct wt_ld *ld, const yaml_node_t *n, const char *what,
		   const char *const *keys, yaml_node_t **vals)
{
	unsigned nk = 0;

	if (want(ld, n, YAML_MAPPING_NODE, what))
		return -1;
	while (keys[nk])
		vals[nk++] = NULL;
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start;
	     p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *k = node(ld, p->key);
		unsigned i;

		if (k->type != YAML_SCALAR_NODE)
			return wt_ld_fail(ld, k, "a key in %s must be a "
					  "scalar", what);
		for (i = 0; i < nk && strcmp(keys[i], sval(k)); i++)
			;
		if (i == nk) {
			char valid[256] = "";
			size_t len = 0;

			for (unsigned j = 0; j < nk && len < sizeof(valid); j++)
				len += (size_t)snprintf(valid + len,
					sizeof(valid) - len, "%s%s",
					j ? ", " : "", keys[j]);
			return wt_ld_fail(ld, k, "unknown key '%s' in %s "
					  "(valid: %s)", sval(k), what, valid);
		}
		if (vals[i])
			return wt_ld_fail(ld, k, "duplicate key '%s' in %s",
					  sval(k), what);
		vals[i] = node(ld, p->value);
	}
	return 0;
}

/* --- sections --- */

static int load_memory(struct wt_ld *ld, yaml_node_t *memory)
{
	struct wt_scenario *s = ld->s;

	if (!memory)
		return 0;
	if (want(ld, memory, YAML_SCALAR_NODE, "memory"))
		return -1;
	if (!strcmp(sval(memory), "sc"))
		s->memory = WT_SCN_SC;
	else if (!strcmp(sval(memory), "tso"))
		s->memory = WT_SCN_TSO;
	else if (!strcmp(sval(memory), "pso"))
		s->memory = WT_SCN_PSO;
	else
		return wt_ld_fail(ld, memory, "unknown memory model '%s' "
				  "(valid: sc, tso, pso)", sval(memory));
	/* Stress threads run on the machine's memory, not the model's. */
	if (s->memory != WT_SCN_SC && s->mode == WT_SCN_STRESS)
		return wt_ld_fail(ld, memory, "'memory: %s' needs mode sim",
				  sval(memory));
	return 0;
}

static int load_mode(struct wt_ld *ld, yaml_node_t *mode, yaml_node_t *policy)
{
	struct wt_scenario *s = ld->s;

	if (mode) {
		if (want(ld, mode, YAML_SCALAR_NODE, "mode"))
			return -1;
		if (!strcmp(sval(mode), "sim"))
			s->mode = WT_SCN_SIM;
		else if (!strcmp(sval(mode), "stress"))
			s->mode = WT_SCN_STRESS;
		else
			return wt_ld_fail(ld, mode, "unknown mode '%s' (valid: "
					  "sim, stress)", sval(mode));
	}
	s->policy = s->nsteps ? WT_SCN_DIRECTED : WT_SCN_RANDOM;
	if (!policy)
		return 0;
	if (want(ld, policy, YAML_SCALAR_NODE, "policy"))
		return -1;
	if (wt_scn_policy_parse(sval(policy)) < 0)
		return wt_ld_fail(ld, policy, "unknown policy '%s' (valid: "
				  "random, pct, directed, pos, explore)",
				  sval(policy));
	s->policy = (enum wt_scn_policy)wt_scn_policy_parse(sval(policy));
	if (s->policy == WT_SCN_DIRECTED && !s->nsteps)
		return wt_ld_fail(ld, policy, "policy directed needs a "
				  "'schedule'");
	if (s->policy != WT_SCN_DIRECTED && s->nsteps)
		return wt_ld_fail(ld, policy, "a 'schedule' runs under policy "
				  "directed, not %s", sval(policy));
	return 0;
}

/* `pct_steps: N', or `auto': calibrated from one run, as a twin's
 * (runner.c calibrate_pct). */
static int pct_steps(struct wt_ld *ld, yaml_node_t *n)
{
	if (n->type == YAML_SCALAR_NODE && !strcmp(sval(n), "auto")) {
		ld->s->pct_auto = true;
		return 0;
	}
	return get_u64(ld, n, "pct_steps", 1, &ld->s->pct_steps);
}

static int load_sched(struct wt_ld *ld, yaml_node_t *n)
{
	static const char *const keys[] = { "switch_p", "pct_depth",
		"pct_steps", "step_ns", "max_points", "timeout", "flush_p",
		NULL };
	yaml_node_t *v[8];
	struct wt_scenario *s = ld->s;
	uint64_t depth = s->pct_depth, tmo = s->timeout_ms * 1000000ull;

	if (!n)
		return 0;
	if (mapping(ld, n, "sched", keys, v) ||
	    (v[0] && get_double(ld, v[0], "switch_p", 0, 1, &s->switch_p)) ||
	    (v[1] && get_u64(ld, v[1], "pct_depth", 1, &depth)) ||
	    (v[2] && pct_steps(ld, v[2])) ||
	    (v[3] && get_u64(ld, v[3], "step_ns", 0, &s->step_ns)) ||
	    (v[4] && get_u64(ld, v[4], "max_points", 1, &s->max_points)) ||
	    (v[5] && get_duration(ld, v[5], "timeout", &tmo)) ||
	    (v[6] && get_double(ld, v[6], "flush_p", 0, 1, &s->flush_p)))
		return -1;
	if (v[6] && s->memory == WT_SCN_SC)
		return wt_ld_fail(ld, v[6], "'flush_p' needs 'memory: tso' or "
				  "'memory: pso'");
	if (depth > 64)
		return wt_ld_fail(ld, v[1], "'pct_depth' must be at most 64");
	s->pct_depth = (unsigned)depth;
	s->timeout_ms = tmo / 1000000ull ? tmo / 1000000ull : 1;
	return 0;
}

static int load_world(struct wt_ld *ld, yaml_node_t *n)
{
	static const char *const keys[] = { "dcache_buckets", "mount_buckets",
		"protected_symlinks", "history", NULL };
	yaml_node_t *v[5];
	struct wt_scenario *s = ld->s;

	if (!n)
		return 0;
	return mapping(ld, n, "world", keys, v) ||
	       (v[0] && get_u32(ld, v[0], "dcache_buckets", 1,
				&s->dcache_buckets)) ||
	       (v[1] && get_u32(ld, v[1], "mount_buckets", 1,
				&s->mount_buckets)) ||
	       (v[2] && get_bool(ld, v[2], "protected_symlinks",
				 &s->protected_symlinks)) ||
	       (v[3] && get_bool(ld, v[3], "history", &s->history)) ? -1 : 0;
}

static int load_budget(struct wt_ld *ld, yaml_node_t *n)
{
	static const char *const keys[] = { "iterations", "nightly_iterations",
		"duration", "virtual", "nightly_duration", NULL };
	yaml_node_t *v[6];
	struct wt_scenario *s = ld->s;

	if (!n)
		return 0;
	if (mapping(ld, n, "budget", keys, v) ||
	    (v[0] && get_u64(ld, v[0], "iterations", 1, &s->iterations)) ||
	    (v[1] && get_u64(ld, v[1], "nightly_iterations", 1,
			     &s->nightly_iterations)) ||
	    (v[2] && get_duration(ld, v[2], "duration", &s->duration_ns)) ||
	    (v[3] && get_duration(ld, v[3], "virtual", &s->virtual_ns)) ||
	    (v[4] && get_duration(ld, v[4], "nightly_duration",
				  &s->nightly_duration_ns)))
		return -1;
	if (v[3] && s->mode == WT_SCN_STRESS)
		return wt_ld_fail(ld, v[3], "a 'virtual' budget needs mode sim");
	/* A time budget without a count runs until the time is up. */
	if (!v[0] && (v[2] || v[3]))
		s->iterations = 0;
	return 0;
}

static int load_lines(struct wt_ld *ld, yaml_node_t *n, const char *key,
		      struct wt_scn_line **out, unsigned *nout)
{
	size_t cap = 16;

	*out = calloc(cap, sizeof(**out));
	if (!*out)
		return wt_ld_fail(ld, n, "out of memory");
	if (n->type == YAML_SCALAR_NODE) {
		/* A block of lines: each non-blank, non-comment line. */
		const char *v = sval(n), *p = v;

		while (*p) {
			const char *e = strchr(p, '\n');
			size_t len = e ? (size_t)(e - p) : strlen(p);
			size_t skip = strspn(p, " \t");

			if (skip < len && p[skip] != '#') {
				if (*nout == cap) {
					void *nv = realloc(*out, 2 * cap *
							   sizeof(**out));
					if (!nv)
						return wt_ld_fail(ld, n, "out of memory");
					*out = nv;
					cap *= 2;
				}
				(*out)[*nout].text = strndup(p, len);
				(*out)[*nout].pos = wt_ld_pos_at(ld, n,
						(size_t)(p - v));
				(*nout)++;
			}
			p += len + (e ? 1 : 0);
		}
		return 0;
	}
	if (want(ld, n, YAML_SEQUENCE_NODE, key))
		return -1;
	for (yaml_node_item_t *it = n->data.sequence.items.start;
	     it < n->data.sequence.items.top; it++) {
		yaml_node_t *item = node(ld, *it);

		if (item->type != YAML_SCALAR_NODE)
			return wt_ld_fail(ld, item, "each item of '%s' must be "
					  "a string, not %s", key,
					  type_name(item));
		if (*nout == cap) {
			void *nv = realloc(*out, 2 * cap * sizeof(**out));

			if (!nv)
				return wt_ld_fail(ld, n, "out of memory");
			*out = nv;
			cap *= 2;
		}
		(*out)[*nout].text = strdup(sval(item));
		(*out)[*nout].pos = wt_ld_pos(item);
		if (item->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
		    item->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE)
			(*out)[*nout].pos.col++;
		(*nout)++;
	}
	return 0;
}

/* --- threads and their programs --- */

struct prog {
	struct wt_scn_op *ops;
	unsigned n;
	unsigned cap;
};

static struct wt_scn_op *prog_push(struct wt_ld *ld, struct prog *p,
				   yaml_node_t *at)
{
	if (p->n == p->cap) {
		unsigned cap = p->cap ? 2 * p->cap : 16;
		void *nv = realloc(p->ops, cap * sizeof(*p->ops));

		if (!nv) {
			wt_ld_fail(ld, at, "out of memory");
			return NULL;
		}
		p->ops = nv;
		p->cap = cap;
	}
	memset(&p->ops[p->n], 0, sizeof(p->ops[0]));
	p->ops[p->n].pos = wt_ld_pos(at);
	return &p->ops[p->n++];
}

static int get_loop(struct wt_ld *ld, yaml_node_t *n, uint64_t *count)
{
	if (n->type == YAML_SCALAR_NODE && !strcmp(sval(n), "forever")) {
		*count = 0;
		return 0;
	}
	if (n->type != YAML_SCALAR_NODE || get_u64(ld, n, "loop", 1, count))
		return wt_ld_fail(ld, n, "'loop' must be a count >= 1 or "
				  "'forever'");
	return 0;
}

static int load_item(struct wt_ld *ld, struct prog *p, yaml_node_t *item,
		     unsigned depth, bool *has_walks);

/* The items of a `do:' list, appended to p (a loop block nests). */
static int load_do(struct wt_ld *ld, struct prog *p, yaml_node_t *n,
		   unsigned depth, bool *has_walks)
{
	if (want(ld, n, YAML_SEQUENCE_NODE, "do"))
		return -1;
	if (n->data.sequence.items.start == n->data.sequence.items.top)
		return wt_ld_fail(ld, n, "'do' is empty");
	for (yaml_node_item_t *it = n->data.sequence.items.start;
	     it < n->data.sequence.items.top; it++)
		if (load_item(ld, p, node(ld, *it), depth, has_walks))
			return -1;
	return 0;
}

static int load_block(struct wt_ld *ld, struct prog *p, yaml_node_t *item,
		      unsigned depth, bool *has_walks)
{
	static const char *const keys[] = { "loop", "do", NULL };
	yaml_node_t *v[3];
	struct wt_scn_op *op;
	unsigned begin;
	uint64_t count;

	if (mapping(ld, item, "a program block", keys, v))
		return -1;
	if (!v[0] || !v[1])
		return wt_ld_fail(ld, item, "a program block needs 'loop' and "
				  "'do'");
	if (depth >= WT_SCN_LOOP_DEPTH)
		return wt_ld_fail(ld, item, "loops nest at most %d deep",
				  WT_SCN_LOOP_DEPTH);
	if (get_loop(ld, v[0], &count))
		return -1;
	op = prog_push(ld, p, item);
	if (!op)
		return -1;
	begin = p->n - 1;
	op->kind = WT_SCN_OP_LOOP;
	op->count = count;
	op->text = strdup("loop");
	if (load_do(ld, p, v[1], depth + 1, has_walks))
		return -1;
	op = prog_push(ld, p, item);
	if (!op)
		return -1;
	op->kind = WT_SCN_OP_END;
	op->text = strdup("end");
	op->match = begin;
	p->ops[begin].match = p->n - 1;
	return 0;
}

static int load_item(struct wt_ld *ld, struct prog *p, yaml_node_t *item,
		     unsigned depth, bool *has_walks)
{
	struct wt_scn_op *op;
	char msg[768] = "";
	size_t off = 0;

	if (item->type == YAML_MAPPING_NODE)
		return load_block(ld, p, item, depth, has_walks);
	if (item->type != YAML_SCALAR_NODE)
		return wt_ld_fail(ld, item, "a program item must be a walk or "
				  "a verb (a string), or a {loop, do} block");
	op = prog_push(ld, p, item);
	if (!op)
		return -1;
	if (wt_scn_op_parse(sval(item), op, &off, msg, sizeof(msg)))
		return wt_ld_fail_at(ld, item, off, "%s", msg);
	op->pos = wt_ld_pos_at(ld, item, 0);
	if (op->kind == WT_SCN_OP_WALK)
		*has_walks = true;
	return 0;
}

static bool valid_thread_name(const char *s)
{
	if (!*s || strlen(s) >= WT_SCN_NAME_MAX || s[0] == '#')
		return false;
	for (; *s; s++)
		if (!(*s >= 'a' && *s <= 'z') && !(*s >= 'A' && *s <= 'Z') &&
		    !(*s >= '0' && *s <= '9') && *s != '_' && *s != '-')
			return false;
	return true;
}

static int load_thread(struct wt_ld *ld, yaml_node_t *k, yaml_node_t *n,
		       struct wt_scn_thread *t)
{
	static const char *const keys[] = { "role", "cpu", "uid", "gid",
		"cwd", "do", "loop", NULL };
	yaml_node_t *v[8];
	struct prog p = { 0 };
	uint64_t cpu;
	int ret;

	if (!valid_thread_name(sval(k)))
		return wt_ld_fail(ld, k, "bad thread name '%s' (letters, "
				  "digits, '_' and '-', at most %d)", sval(k),
				  WT_SCN_NAME_MAX - 1);
	snprintf(t->name, sizeof(t->name), "%s", sval(k));
	snprintf(t->role, sizeof(t->role), "%s", sval(k));
	t->pos = wt_ld_pos(k);
	t->cpu = -1;
	t->loop = 1;
	if (mapping(ld, n, "a thread", keys, v))
		return -1;
	if (v[0]) {
		if (want(ld, v[0], YAML_SCALAR_NODE, "role"))
			return -1;
		if (!valid_thread_name(sval(v[0])))
			return wt_ld_fail(ld, v[0], "bad role '%s'", sval(v[0]));
		snprintf(t->role, sizeof(t->role), "%s", sval(v[0]));
	}
	if (v[1]) {
		if (get_u64(ld, v[1], "cpu", 0, &cpu))
			return -1;
		if (cpu > 4095)
			return wt_ld_fail(ld, v[1], "'cpu' is too large");
		t->cpu = (int)cpu;
		t->cpu_pos = wt_ld_pos(v[1]);
	}
	if ((v[2] && get_u32(ld, v[2], "uid", 0, &t->uid)) ||
	    (v[3] && get_u32(ld, v[3], "gid", 0, &t->gid)) ||
	    (v[4] && get_string(ld, v[4], "cwd", &t->cwd)))
		return -1;
	if (t->cwd && t->cwd[0] != '/')
		return wt_ld_fail(ld, v[4], "'cwd' must be an absolute path");
	if (v[6]) {
		if (get_loop(ld, v[6], &t->loop))
			return -1;
		t->forever = t->loop == 0;
	}
	if (!v[5])
		return wt_ld_fail(ld, n, "thread '%s' has no 'do' program",
				  t->name);
	ret = load_do(ld, &p, v[5], 0, &t->has_walks);
	t->ops = p.ops;
	t->nops = p.n;
	return ret;
}

static int load_threads(struct wt_ld *ld, yaml_node_t *n)
{
	struct wt_scenario *s = ld->s;
	unsigned finite = 0;

	if (!n)
		return wt_ld_fail(ld, node(ld, 1), "no 'threads'");
	if (want(ld, n, YAML_MAPPING_NODE, "threads"))
		return -1;
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start;
	     p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *k = node(ld, p->key);

		if (k->type != YAML_SCALAR_NODE)
			return wt_ld_fail(ld, k, "a thread name must be a scalar");
		if (wt_scenario_thread(s, sval(k)) >= 0)
			return wt_ld_fail(ld, k, "duplicate thread '%s'",
					  sval(k));
		if (s->nthreads == WT_SCN_THREADS_MAX)
			return wt_ld_fail(ld, k, "at most %d threads",
					  WT_SCN_THREADS_MAX);
		if (load_thread(ld, k, node(ld, p->value),
				&s->threads[s->nthreads++]))
			return -1;
		if (!s->threads[s->nthreads - 1].forever)
			finite++;
	}
	if (!s->nthreads)
		return wt_ld_fail(ld, n, "'threads' is empty");
	/* The forever threads stop when the last finite one is done. */
	if (!finite)
		return wt_ld_fail(ld, n, "every thread loops forever: nothing "
				  "would ever stop them");
	return 0;
}

int wt_scenario_thread(const struct wt_scenario *s, const char *name)
{
	if (name[0] == '#') {
		char *end;
		unsigned long id = strtoul(name + 1, &end, 10);

		return !*end && end != name + 1 && id < s->nthreads ?
			(int)id : -1;
	}
	for (unsigned i = 0; i < s->nthreads; i++)
		if (!strcmp(s->threads[i].name, name))
			return (int)i;
	for (unsigned i = 0; i < s->nthreads; i++)
		if (!strcmp(s->threads[i].role, name))
			return (int)i;
	return -1;
}

/* --- injection rules --- */

/* Offset of "key=" as a word in text, or 0. */
static size_t key_offset(const char *text, const char *key)
{
	size_t kl = strlen(key);

	for (const char *p = text; (p = strstr(p, key)); p++)
		if ((p == text || p[-1] == ' ' || p[-1] == '\t') &&
		    p[kl] == '=')
			return (size_t)(p - text) + kl + 1;
	return 0;
}

static bool bare_word(const char *key)
{
	return !strcmp(key, "yield") || !strcmp(key, "fail") ||
	       !strcmp(key, "count") || !strcmp(key, "delay");
}

static int rule_from_map(struct wt_ld *ld, yaml_node_t *n, struct wt_rule *r)
{
	struct wt_parse_error pe;

	wt_rule_init(r);
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start;
	     p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *k = node(ld, p->key), *v = node(ld, p->value);
		const char *val = NULL;

		if (k->type != YAML_SCALAR_NODE || v->type != YAML_SCALAR_NODE)
			return wt_ld_fail(ld, k, "a rule's keys and values "
					  "must be scalars");
		if (!is_null(v) && !(bare_word(sval(k)) &&
				     !strcmp(sval(v), "true")))
			val = sval(v);
		memset(&pe, 0, sizeof(pe));
		if (wt_rule_set(r, sval(k), val, &pe))
			return val ? wt_ld_fail_at(ld, v, pe.pos, "%s", pe.msg)
				   : wt_ld_fail(ld, k, "%s", pe.msg);
	}
	return 0;
}

/*
 * Where a rule's key is: in the text form, the offset just after "key="
 * in the scalar; in the mapping form, the key's value node.
 */
static yaml_node_t *rule_key(struct wt_ld *ld, yaml_node_t *n, const char *key,
			     size_t *off)
{
	*off = 0;
	if (n->type == YAML_SCALAR_NODE) {
		*off = key_offset(sval(n), key);
		return n;
	}
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start;
	     p < n->data.mapping.pairs.top; p++)
		if (!strcmp(sval(node(ld, p->key)), key))
			return node(ld, p->value);
	return n;
}

/* The threads and points a rule names must exist. */
static int rule_check(struct wt_ld *ld, yaml_node_t *n, struct wt_rule *r)
{
	struct wt_parse_error pe = { 0 };
	struct wt_point_set ps;
	yaml_node_t *at;
	size_t off;

	if (r->thread[0] && wt_scenario_thread(ld->s, r->thread) < 0) {
		at = rule_key(ld, n, r->thread_is_role ? "role" : "thread", &off);
		return wt_ld_fail_at(ld, at, off, "unknown thread '%s' in rule",
				     r->thread);
	}
	if (r->preempt_thread[0] &&
	    wt_scenario_thread(ld->s, r->preempt_thread) < 0) {
		at = rule_key(ld, n, "preempt-until", &off);
		return wt_ld_fail_at(ld, at, off, "unknown thread '%s' in "
				     "preempt-until", r->preempt_thread);
	}
	if (r->at[0]) {
		if (wt_point_set_build(&ps, r->at, &pe)) {
			at = rule_key(ld, n, "at", &off);
			return wt_ld_fail_at(ld, at, off + pe.pos, "%s", pe.msg);
		}
		wt_point_set_free(&ps);
	}
	if (r->preempt_point[0]) {
		memset(&pe, 0, sizeof(pe));
		if (wt_point_set_build(&ps, r->preempt_point, &pe)) {
			at = rule_key(ld, n, "preempt-until", &off);
			return wt_ld_fail_at(ld, at, off, "%s", pe.msg);
		}
		wt_point_set_free(&ps);
	}
	return 0;
}

static int load_rules(struct wt_ld *ld, yaml_node_t *n)
{
	struct wt_scenario *s = ld->s;
	size_t cnt;

	if (!n)
		return 0;
	if (want(ld, n, YAML_SEQUENCE_NODE, "inject"))
		return -1;
	cnt = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
	s->rules = calloc(cnt ? cnt : 1, sizeof(*s->rules));
	if (!s->rules)
		return wt_ld_fail(ld, n, "out of memory");
	for (yaml_node_item_t *it = n->data.sequence.items.start;
	     it < n->data.sequence.items.top; it++) {
		yaml_node_t *item = node(ld, *it);
		struct wt_rule *r = &s->rules[s->nrules];
		struct wt_parse_error pe = { 0 };

		if (item->type == YAML_MAPPING_NODE) {
			if (rule_from_map(ld, item, r))
				return -1;
		} else if (item->type == YAML_SCALAR_NODE) {
			if (wt_rule_parse(sval(item), r, &pe))
				return wt_ld_fail_at(ld, item, pe.pos, "%s",
						     pe.msg);
		} else {
			return wt_ld_fail(ld, item, "a rule must be a string "
					  "or a mapping, not %s",
					  type_name(item));
		}
		r->line = wt_ld_pos(item).line;
		if (rule_check(ld, item, r))
			return -1;
		s->nrules++;
	}
	return 0;
}

/* --- expectations --- */

static int load_expects(struct wt_ld *ld, yaml_node_t *n)
{
	struct wt_scenario *s = ld->s;
	size_t cnt;

	if (!n)
		return 0;
	if (want(ld, n, YAML_SEQUENCE_NODE, "expect"))
		return -1;
	cnt = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
	s->expects = calloc(cnt ? cnt : 1, sizeof(*s->expects));
	if (!s->expects)
		return wt_ld_fail(ld, n, "out of memory");
	for (yaml_node_item_t *it = n->data.sequence.items.start;
	     it < n->data.sequence.items.top; it++) {
		yaml_node_t *item = node(ld, *it);
		struct wt_expect *e = &s->expects[s->nexpects];
		char msg[768] = "";
		size_t off = 0;

		if (item->type != YAML_SCALAR_NODE)
			return wt_ld_fail(ld, item, "an expectation must be a "
					  "string, not %s", type_name(item));
		s->nexpects++;
		if (wt_expect_parse(s, sval(item), e, &off, msg, sizeof(msg)))
			return wt_ld_fail_at(ld, item, off, "%s", msg);
		e->pos = wt_ld_pos_at(ld, item, 0);
	}
	return 0;
}

/* --- the file --- */

enum {
	K_NAME, K_DESC, K_TREE, K_THREADS, K_INJECT, K_SCHEDULE, K_MODE,
	K_POLICY, K_SCHED, K_WORLD, K_BUDGET, K_EXPECT, K_MEMORY, K__COUNT
};

static const char *const top_keys[] = {
	[K_NAME] = "name", [K_DESC] = "description", [K_TREE] = "tree",
	[K_THREADS] = "threads", [K_INJECT] = "inject",
	[K_SCHEDULE] = "schedule", [K_MODE] = "mode", [K_POLICY] = "policy",
	[K_SCHED] = "sched", [K_WORLD] = "world", [K_BUDGET] = "budget",
	[K_EXPECT] = "expect", [K_MEMORY] = "memory", NULL
};

static void defaults(struct wt_scenario *s)
{
	s->mode = WT_SCN_SIM;
	s->policy = WT_SCN_RANDOM;
	s->memory = WT_SCN_SC;
	s->flush_p = 0.1;
	s->switch_p = 0.1;
	s->pct_depth = 3;
	s->pct_steps = 10000;
	s->step_ns = 10;
	s->max_points = 10000000;
	s->dcache_buckets = 64;
	s->mount_buckets = 16;
	s->history = true;
	s->iterations = 1;
	s->timeout_ms = 60000;
}

static int load_top(struct wt_ld *ld, yaml_node_t *root)
{
	struct wt_scenario *s = ld->s;
	yaml_node_t *v[K__COUNT + 1];

	if (mapping(ld, root, "a scenario", top_keys, v))
		return -1;
	if (!v[K_NAME])
		return wt_ld_fail(ld, root, "no 'name'");
	if (get_string(ld, v[K_NAME], "name", &s->name) ||
	    (v[K_DESC] && get_string(ld, v[K_DESC], "description",
				     &s->description)))
		return -1;
	if (!s->name[0] || strpbrk(s->name, " \t\n/"))
		return wt_ld_fail(ld, v[K_NAME], "'name' must be one word "
				  "without '/'");
	if ((v[K_SCHEDULE] && load_lines(ld, v[K_SCHEDULE], "schedule",
					 &s->steps, &s->nsteps)) ||
	    load_mode(ld, v[K_MODE], v[K_POLICY]) ||
	    load_memory(ld, v[K_MEMORY]) ||
	    load_sched(ld, v[K_SCHED]) || load_world(ld, v[K_WORLD]) ||
	    load_budget(ld, v[K_BUDGET]) ||
	    (v[K_TREE] && load_lines(ld, v[K_TREE], "tree", &s->tree,
				     &s->ntree)) ||
	    load_threads(ld, v[K_THREADS]) || load_rules(ld, v[K_INJECT]) ||
	    load_expects(ld, v[K_EXPECT]))
		return -1;
	if (s->nsteps && s->mode == WT_SCN_STRESS)
		return wt_ld_fail(ld, v[K_SCHEDULE], "a directed 'schedule' "
				  "needs mode sim");
	if (s->nsteps && wt_scn_check_schedule(s, ld->err))
		return -1;
	return wt_scn_check_tree(s, ld->err);
}

static char *read_file(const char *file, struct wt_scn_error *err)
{
	struct wt_scn_pos none = { 0, 0 };
	FILE *f = fopen(file, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		wt_scn_fail(err, file, none, "cannot open: %s", strerror(errno));
		return NULL;
	}
	do {
		if (len + 4096 + 1 > cap) {
			char *nb = realloc(buf, cap = 2 * cap + 8192);

			if (!nb)
				break;
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
	} while (n > 0 && len <= WT_SCN_FILE_MAX);
	fclose(f);
	if (len > WT_SCN_FILE_MAX) {
		free(buf);
		wt_scn_fail(err, file, none, "larger than %d bytes: not a "
			    "scenario", WT_SCN_FILE_MAX);
		return NULL;
	}
	if (!buf || memchr(buf, '\0', len)) {
		free(buf);
		wt_scn_fail(err, file, none, "not a text file");
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}

static char *suite_of(const char *file)
{
	const char *slash = strrchr(file, '/'), *b;

	if (!slash)
		return strdup(".");
	for (b = slash; b > file && b[-1] != '/'; b--)
		;
	return strndup(b, (size_t)(slash - b) ? (size_t)(slash - b) : 1);
}

/*
 * Aliases (*name) are refused before the document is loaded: libyaml
 * shares an aliased node, and the loader, which walks the tree, would
 * walk it once per reference -- a few lines of nested aliases (a
 * "billion laughs") make that exponential.  No scenario needs them.
 * Syntax errors are left to the loader, which reports them.
 */
static int no_aliases(struct wt_ld *ld)
{
	yaml_parser_t yp;
	yaml_event_t ev;
	int ret = 0;

	yaml_parser_initialize(&yp);
	yaml_parser_set_input_string(&yp, (const unsigned char *)ld->src,
				     strlen(ld->src));
	while (yaml_parser_parse(&yp, &ev)) {
		bool end = ev.type == YAML_STREAM_END_EVENT;

		if (ev.type == YAML_ALIAS_EVENT) {
			struct wt_scn_pos pos = {
				(unsigned)ev.start_mark.line + 1,
				(unsigned)ev.start_mark.column + 1,
			};

			ret = wt_scn_fail(ld->err, ld->file, pos, "YAML aliases "
					  "(*%s) are not supported: write the "
					  "value out", ev.data.alias.anchor);
			end = true;
		}
		yaml_event_delete(&ev);
		if (end)
			break;
	}
	yaml_parser_delete(&yp);
	return ret;
}

static int parse_doc(struct wt_ld *ld, yaml_parser_t *yp, yaml_document_t *doc)
{
	struct wt_scn_pos pos;
	yaml_document_t extra;
	yaml_node_t *root;
	int ret;

	if (no_aliases(ld))
		return -1;
	if (!yaml_parser_load(yp, doc)) {
		pos.line = (unsigned)yp->problem_mark.line + 1;
		pos.col = (unsigned)yp->problem_mark.column + 1;
		return wt_scn_fail(ld->err, ld->file, pos, "YAML: %s%s%s",
				   yp->problem ? yp->problem : "syntax error",
				   yp->context ? " " : "",
				   yp->context ? yp->context : "");
	}
	ld->doc = doc;	/* loaded: the caller deletes it, even empty */
	root = yaml_document_get_root_node(doc);
	if (!root) {
		pos.line = pos.col = 1;
		return wt_scn_fail(ld->err, ld->file, pos, "empty file");
	}
	ret = load_top(ld, root);
	if (ret)
		return ret;
	if (!yaml_parser_load(yp, &extra))
		return 0;
	if (yaml_document_get_root_node(&extra)) {
		pos.line = (unsigned)extra.start_mark.line + 1;
		pos.col = (unsigned)extra.start_mark.column + 1;
		ret = wt_scn_fail(ld->err, ld->file, pos, "one scenario per "
				  "file: a second YAML document");
	}
	yaml_document_delete(&extra);
	return ret;
}

struct wt_scenario *wt_scenario_load(const char *file, const char *suite,
				     struct wt_scn_error *err)
{
	return wt_scenario_load_text(file, suite, NULL, err);
}

struct wt_scenario *wt_scenario_load_text(const char *file, const char *suite,
					  const char *text,
					  struct wt_scn_error *err)
{
	struct wt_scenario *s = calloc(1, sizeof(*s));
	struct wt_ld ld = { .file = file, .s = s, .err = err };
	yaml_parser_t yp;
	yaml_document_t doc;
	int ret;

	if (!s)
		return NULL;
	defaults(s);
	s->file = strdup(file);
	s->suite = suite ? strdup(suite) : suite_of(file);
	s->text = text ? strdup(text) : read_file(file, err);
	if (!s->text) {
		if (text)
			wt_scn_fail(err, file, (struct wt_scn_pos){ 1, 1 },
				    "out of memory");
		wt_scenario_free(s);
		return NULL;
	}
	ld.src = s->text;
	wt_points_catalogue();
	yaml_parser_initialize(&yp);
	yaml_parser_set_input_string(&yp, (const unsigned char *)s->text,
				     strlen(s->text));
	memset(&doc, 0, sizeof(doc));
	ret = parse_doc(&ld, &yp, &doc);
	if (ld.doc)
		yaml_document_delete(&doc);
	yaml_parser_delete(&yp);
	if (ret) {
		wt_scenario_free(s);
		return NULL;
	}
	return s;
}

void wt_scenario_free(struct wt_scenario *s)
{
	if (!s)
		return;
	for (unsigned i = 0; i < s->nthreads; i++) {
		for (unsigned j = 0; j < s->threads[i].nops; j++)
			wt_scn_op_free(&s->threads[i].ops[j]);
		free(s->threads[i].ops);
		free(s->threads[i].cwd);
	}
	for (unsigned i = 0; i < s->ntree; i++)
		free(s->tree[i].text);
	for (unsigned i = 0; i < s->nsteps; i++)
		free(s->steps[i].text);
	for (unsigned i = 0; i < s->nexpects; i++)
		wt_expect_free(&s->expects[i]);
	wt_scn_schedule_free(s);
	free(s->tree);
	free(s->steps);
	free(s->expects);
	free(s->rules);
	free(s->file);
	free(s->suite);
	free(s->name);
	free(s->twin_of);
	free(s->description);
	free(s->text);
	free(s);
}
