/* bench_clock.h - what every benchmark here needs: the monotonic clock in
 * milliseconds and the median of a set of timings. */
#ifndef MHA_BENCH_CLOCK_H
#define MHA_BENCH_CLOCK_H

#include <stdlib.h>
#include <time.h>

static inline double bench_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of v (n of them, sorted in place). */
static inline double bench_median(double *v, long n)
{
    qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

#endif
