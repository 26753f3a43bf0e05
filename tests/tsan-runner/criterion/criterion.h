/* SPDX-License-Identifier: MIT */
/*
 * A minimal Criterion-compatible runner for the tsan preset.
 *
 * Criterion cannot start under ThreadSanitizer: its BoxFort sandbox fails
 * to map its "inheritable arena" in TSan's address-space layout
 * (upstream Criterion issue #274, open since 2018; gcc 12 and clang 14
 * here both fail before the first test).  So the tsan preset builds the
 * same test sources against this header and tests/tsan-runner/runner.c,
 * which implement the subset of Criterion's API the tests use: Test()
 * with .init/.fini/.timeout/.disabled, the cr_assert family, cr_log_*
 * and cr_skip_test.  Each test runs in a forked child, as under
 * Criterion, so a crash or a failed assertion ends only that test.  The
 * other presets use the real Criterion.
 */
#ifndef WT_TSAN_CRITERION_SHIM_H
#define WT_TSAN_CRITERION_SHIM_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

struct criterion_test_extra {
	void (*init)(void);
	void (*fini)(void);
	double timeout;
	bool disabled;
	const char *description;
	int signal;
	int exit_code;
};

struct wt_shim_test {
	const char *suite;
	const char *name;
	void (*fn)(void);
	struct criterion_test_extra extra;
	struct wt_shim_test *next;
};

struct wt_shim_suite {
	const char *name;
	struct criterion_test_extra extra;
	struct wt_shim_suite *next;
};

void wt_shim_register(struct wt_shim_test *t);
void wt_shim_register_suite(struct wt_shim_suite *s);
void wt_shim_fail(const char *file, int line, const char *what,
		  const char *fmt, ...) __attribute__((noreturn));
void wt_shim_skip(const char *fmt, ...) __attribute__((noreturn));
void wt_shim_log(const char *level, const char *fmt, ...);

#define Test(suite_, name_, ...)					\
	static void wt_test_##suite_##_##name_(void);			\
	static struct wt_shim_test wt_desc_##suite_##_##name_ = {	\
		.suite = #suite_, .name = #name_,			\
		.fn = wt_test_##suite_##_##name_,			\
		.extra = { __VA_ARGS__ } };				\
	__attribute__((constructor)) static void			\
	wt_reg_##suite_##_##name_(void)					\
	{ wt_shim_register(&wt_desc_##suite_##_##name_); }		\
	static void wt_test_##suite_##_##name_(void)

/* Suite-wide defaults (.init, .fini, .timeout) for tests that set none. */
#define TestSuite(suite_, ...)						\
	static struct wt_shim_suite wt_suite_##suite_ = {		\
		.name = #suite_, .extra = { __VA_ARGS__ } };		\
	__attribute__((constructor)) static void			\
	wt_reg_suite_##suite_(void)					\
	{ wt_shim_register_suite(&wt_suite_##suite_); }

/* The message arguments are optional, as in Criterion. */
#define WT_SHIM_MSG(...) "" __VA_ARGS__

#define cr_assert(cond, ...) do {					\
	if (!(cond))							\
		wt_shim_fail(__FILE__, __LINE__, #cond, WT_SHIM_MSG(__VA_ARGS__)); \
} while (0)
#define cr_assert_not(cond, ...) cr_assert(!(cond), __VA_ARGS__)
#define cr_assert_fail(...)						\
	wt_shim_fail(__FILE__, __LINE__, "cr_assert_fail", WT_SHIM_MSG(__VA_ARGS__))
#define WT_SHIM_CMP(a, op, b, ...) do {					\
	if (!((a) op (b)))						\
		wt_shim_fail(__FILE__, __LINE__, #a " " #op " " #b,	\
			     WT_SHIM_MSG(__VA_ARGS__));			\
} while (0)
#define cr_assert_eq(a, b, ...)	 WT_SHIM_CMP(a, ==, b, __VA_ARGS__)
#define cr_assert_neq(a, b, ...) WT_SHIM_CMP(a, !=, b, __VA_ARGS__)
#define cr_assert_lt(a, b, ...)	 WT_SHIM_CMP(a, <, b, __VA_ARGS__)
#define cr_assert_leq(a, b, ...) WT_SHIM_CMP(a, <=, b, __VA_ARGS__)
#define cr_assert_gt(a, b, ...)	 WT_SHIM_CMP(a, >, b, __VA_ARGS__)
#define cr_assert_geq(a, b, ...) WT_SHIM_CMP(a, >=, b, __VA_ARGS__)
#define cr_assert_null(p, ...)	 cr_assert((p) == NULL, __VA_ARGS__)
#define cr_assert_not_null(p, ...) cr_assert((p) != NULL, __VA_ARGS__)
#define cr_assert_str_eq(a, b, ...)					\
	cr_assert(strcmp((a), (b)) == 0, __VA_ARGS__)
#define cr_assert_str_neq(a, b, ...)					\
	cr_assert(strcmp((a), (b)) != 0, __VA_ARGS__)
#define cr_assert_float_eq(a, b, eps, ...)				\
	cr_assert(fabs((double)(a) - (double)(b)) <= (eps), __VA_ARGS__)
/* cr_expect_* do not stop the test under Criterion; here they do, which
 * is stricter, never laxer. */
#define cr_expect		cr_assert
#define cr_expect_not		cr_assert_not
#define cr_expect_eq		cr_assert_eq
#define cr_expect_neq		cr_assert_neq
#define cr_expect_lt		cr_assert_lt
#define cr_expect_leq		cr_assert_leq
#define cr_expect_gt		cr_assert_gt
#define cr_expect_geq		cr_assert_geq
#define cr_expect_null		cr_assert_null
#define cr_expect_not_null	cr_assert_not_null
#define cr_expect_str_eq	cr_assert_str_eq
#define cr_expect_str_neq	cr_assert_str_neq
#define cr_skip_test(...)	wt_shim_skip(WT_SHIM_MSG(__VA_ARGS__))
#define cr_log_info(...)	wt_shim_log("info", __VA_ARGS__)
#define cr_log_warn(...)	wt_shim_log("warn", __VA_ARGS__)
#define cr_log_error(...)	wt_shim_log("error", __VA_ARGS__)

#endif /* WT_TSAN_CRITERION_SHIM_H */
