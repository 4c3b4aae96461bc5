/* peak_bench.c - mha-bench --peak: the core's own limit for single-precision
 * fused multiply-adds, the ceiling every speed table is read against.  A
 * loop that keeps twelve independent accumulators in registers (sixteen
 * floats each with AVX-512, eight with AVX2) and does nothing but
 * acc = acc * a + b on them: no load, no store, no dependence between the
 * twelve, so the processor's FMA units are the only limit.  2 floating-point
 * operations per lane per FMA.  Prints the best and the median GFLOP/s over
 * the timed runs for each register width the processor has, one thread, and
 * the last line as one JSON object.  Exit status 2 on bad arguments or an
 * x86-64 processor without FMA. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_clock.h"

int bench_peak(int argc, char **argv);
double bench_peak_gflops(int repeat);

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

/* Iterations of a run: 12 FMAs each, about 0.1 s at 250 GFLOP/s. */
#define PEAK_ITERS 800000L

/* One run: PEAK_ITERS rounds of twelve FMAs on sixteen-float registers; the
 * sum of the accumulators, so that none of it can be left out. */
__attribute__((target("avx512f"), noinline)) static float peak_run16(long iters)
{
    const __m512 a = _mm512_set1_ps(0.999999f), b = _mm512_set1_ps(1e-6f);
    __m512 c0 = _mm512_set1_ps(0.1f), c1 = _mm512_set1_ps(0.2f), c2 = _mm512_set1_ps(0.3f);
    __m512 c3 = _mm512_set1_ps(0.4f), c4 = _mm512_set1_ps(0.5f), c5 = _mm512_set1_ps(0.6f);
    __m512 c6 = _mm512_set1_ps(0.7f), c7 = _mm512_set1_ps(0.8f), c8 = _mm512_set1_ps(0.9f);
    __m512 c9 = _mm512_set1_ps(1.0f), c10 = _mm512_set1_ps(1.1f), c11 = _mm512_set1_ps(1.2f);
    for (long i = 0; i < iters; i++) {
        c0 = _mm512_fmadd_ps(c0, a, b);
        c1 = _mm512_fmadd_ps(c1, a, b);
        c2 = _mm512_fmadd_ps(c2, a, b);
        c3 = _mm512_fmadd_ps(c3, a, b);
        c4 = _mm512_fmadd_ps(c4, a, b);
        c5 = _mm512_fmadd_ps(c5, a, b);
        c6 = _mm512_fmadd_ps(c6, a, b);
        c7 = _mm512_fmadd_ps(c7, a, b);
        c8 = _mm512_fmadd_ps(c8, a, b);
        c9 = _mm512_fmadd_ps(c9, a, b);
        c10 = _mm512_fmadd_ps(c10, a, b);
        c11 = _mm512_fmadd_ps(c11, a, b);
    }
    __m512 s = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(c0, c1), _mm512_add_ps(c2, c3)),
                             _mm512_add_ps(_mm512_add_ps(c4, c5), _mm512_add_ps(c6, c7)));
    s = _mm512_add_ps(s, _mm512_add_ps(_mm512_add_ps(c8, c9), _mm512_add_ps(c10, c11)));
    return _mm512_reduce_add_ps(s);
}

/* The same on eight-float registers. */
__attribute__((target("avx2,fma"), noinline)) static float peak_run8(long iters)
{
    const __m256 a = _mm256_set1_ps(0.999999f), b = _mm256_set1_ps(1e-6f);
    __m256 c0 = _mm256_set1_ps(0.1f), c1 = _mm256_set1_ps(0.2f), c2 = _mm256_set1_ps(0.3f);
    __m256 c3 = _mm256_set1_ps(0.4f), c4 = _mm256_set1_ps(0.5f), c5 = _mm256_set1_ps(0.6f);
    __m256 c6 = _mm256_set1_ps(0.7f), c7 = _mm256_set1_ps(0.8f), c8 = _mm256_set1_ps(0.9f);
    __m256 c9 = _mm256_set1_ps(1.0f), c10 = _mm256_set1_ps(1.1f), c11 = _mm256_set1_ps(1.2f);
    for (long i = 0; i < iters; i++) {
        c0 = _mm256_fmadd_ps(c0, a, b);
        c1 = _mm256_fmadd_ps(c1, a, b);
        c2 = _mm256_fmadd_ps(c2, a, b);
        c3 = _mm256_fmadd_ps(c3, a, b);
        c4 = _mm256_fmadd_ps(c4, a, b);
        c5 = _mm256_fmadd_ps(c5, a, b);
        c6 = _mm256_fmadd_ps(c6, a, b);
        c7 = _mm256_fmadd_ps(c7, a, b);
        c8 = _mm256_fmadd_ps(c8, a, b);
        c9 = _mm256_fmadd_ps(c9, a, b);
        c10 = _mm256_fmadd_ps(c10, a, b);
        c11 = _mm256_fmadd_ps(c11, a, b);
    }
    __m256 s = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(c0, c1), _mm256_add_ps(c2, c3)),
                             _mm256_add_ps(_mm256_add_ps(c4, c5), _mm256_add_ps(c6, c7)));
    s = _mm256_add_ps(s, _mm256_add_ps(_mm256_add_ps(c8, c9), _mm256_add_ps(c10, c11)));
    float lanes[8];
    _mm256_storeu_ps(lanes, s);
    float sum = 0.0f;
    for (int i = 0; i < 8; i++)
        sum += lanes[i];
    return sum;
}

struct peak {
    double best, median; /* GFLOP/s */
    float check;         /* the runs' sum (printed, so the loop must run) */
};

/* repeat runs of run(), each timed alone; lanes floats per register. */
static struct peak measure(float (*run)(long), int lanes, int repeat)
{
    struct peak p = {0};
    double *gflops = malloc((size_t)repeat * sizeof *gflops);
    if (!gflops)
        return p;
    (void)run(PEAK_ITERS / 4); /* the core leaves its idle clock */
    const double flops = (double)PEAK_ITERS * 12.0 * lanes * 2.0;
    for (int r = 0; r < repeat; r++) {
        const double t0 = bench_now_ms();
        p.check += run(PEAK_ITERS);
        const double ms = bench_now_ms() - t0;
        gflops[r] = flops / (ms * 1e6);
        p.best = gflops[r] > p.best ? gflops[r] : p.best;
    }
    p.median = bench_median(gflops, repeat);
    free(gflops);
    return p;
}

/* The best GFLOP/s of repeat runs on the widest registers the processor
 * has; 0 without FMA (mha-bench --parts reads its roofline against it). */
double bench_peak_gflops(int repeat)
{
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma"))
        return 0.0;
    const struct peak p = __builtin_cpu_supports("avx512f") ? measure(peak_run16, 16, repeat)
                                                            : measure(peak_run8, 8, repeat);
    return p.best;
}

int bench_peak(int argc, char **argv)
{
    /* argv[0] is "--peak" */
    int repeat = 20;
    for (int i = 1; i < argc; i++) {
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        const long v = val ? strtol(val, &end, 10) : 0;
        if (strcmp(argv[i], "--repeat") == 0 && val && end != val && *end == '\0' && v >= 1 &&
            v <= 1000) {
            repeat = (int)v;
            i++;
        } else {
            fprintf(stderr, "mha-bench: usage: mha-bench --peak [--repeat R]   (R 1..1000)\n");
            return 2;
        }
    }
    __builtin_cpu_init();
    const bool have8 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    const bool have16 = __builtin_cpu_supports("avx512f");
    if (!have8) {
        fprintf(stderr, "mha-bench: --peak measures fused multiply-adds, which this processor "
                        "does not have (no AVX2 and FMA)\n");
        return 2;
    }
    const struct peak p8 = measure(peak_run8, 8, repeat);
    struct peak p16 = {0};
    printf("FMA peak, one core, twelve accumulators, %d runs of %ld rounds:\n", repeat, PEAK_ITERS);
    printf("  eight floats (AVX2):    best %.1f GFLOP/s, median %.1f\n", p8.best, p8.median);
    if (have16) {
        p16 = measure(peak_run16, 16, repeat);
        printf("  sixteen floats (AVX-512): best %.1f GFLOP/s, median %.1f\n", p16.best,
               p16.median);
    }
    const struct peak *top = have16 ? &p16 : &p8;
    printf("{\"peak_gflops\": %.2f, \"peak_median_gflops\": %.2f, \"avx2_gflops\": %.2f, "
           "\"avx512_gflops\": %.2f, \"lanes\": %d, \"check\": %g}\n",
           top->best, top->median, p8.best, p16.best, have16 ? 16 : 8,
           (double)(p8.check + p16.check));
    return 0;
}

#else

double bench_peak_gflops(int repeat)
{
    (void)repeat;
    return 0.0;
}

int bench_peak(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "mha-bench: --peak measures x86-64 fused multiply-adds; this build is for "
                    "another processor\n");
    return 2;
}

#endif
