/* What the bench programs share (cordon-bench-connect, -proxy, -cleanup). */
#ifndef CORDON_BENCH_H
#define CORDON_BENCH_H

#include <time.h>

/* CLOCK_MONOTONIC in microseconds. */
static inline double bench_now_us(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

/* qsort's order for doubles, ascending. */
static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

#endif
