/* SPDX-License-Identifier: MIT */
/*
 * Assertions for the host unit tests.  Each test is one program for one
 * behaviour: exit 0 pass, 1 fail, 77 skip.  A failed CHECK prints where and
 * what, counts, and the test goes on so one run shows every mismatch;
 * CHECK_DONE() turns the count into the exit status.
 */
#ifndef NPUPROF_TEST_CHECK_H
#define NPUPROF_TEST_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_failures;

/*
 * CHECK_ROUNDS(n): how many rounds a randomised loop runs.  Under a
 * sanitizer every round costs ten times as much, and what the sanitizer
 * looks for (bad accesses, overflow) shows in the first rounds as well as
 * in the last: the sanitized build runs a tenth of them, the plain build
 * all of them.
 */
#if defined(__SANITIZE_ADDRESS__)
#define CHECK_ROUNDS(n) ((n) / 10)
#else
#define CHECK_ROUNDS(n) (n)
#endif

#define CHECK(cond)                                                          \
	do {                                                                 \
		if (!(cond)) {                                               \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, \
				__LINE__, #cond);                            \
			check_failures++;                                    \
		}                                                            \
	} while (0)

/* Exact integer equality, printing both values. */
#define CHECK_EQ(got, want)                                                  \
	do {                                                                 \
		long long g_ = (long long)(got), w_ = (long long)(want);     \
		if (g_ != w_) {                                              \
			fprintf(stderr, "%s:%d: %s = %lld, want %lld\n",      \
				__FILE__, __LINE__, #got, g_, w_);           \
			check_failures++;                                    \
		}                                                            \
	} while (0)

/* Exact string equality, printing both values. */
#define CHECK_STR(got, want)                                                 \
	do {                                                                 \
		const char *g_ = (got), *w_ = (want);                        \
		if (!g_ || strcmp(g_, w_) != 0) {                            \
			fprintf(stderr, "%s:%d: %s = \"%s\", want \"%s\"\n",  \
				__FILE__, __LINE__, #got, g_ ? g_ : "(null)", w_); \
			check_failures++;                                    \
		}                                                            \
	} while (0)

#define CHECK_SKIP(why)                                                      \
	do {                                                                 \
		fprintf(stderr, "SKIP: %s\n", why);                          \
		exit(77);                                                    \
	} while (0)

#define CHECK_DONE() (check_failures ? 1 : 0)

#endif /* NPUPROF_TEST_CHECK_H */
