/* sgemm_bench.c - mha-bench --sgemm N: the roof the speed tables are read
 * against.  C (N, N) = A (N, N) · B (N, N) through the engine's matrix
 * multiply's OpenBLAS call (cblas_sgemm, one thread unless
 * OPENBLAS_NUM_THREADS says more), 2·N³ floating-point operations a
 * call; prints the median and the best GFLOP/s over the timed calls and
 * the kernels OpenBLAS chose (its core name) as one JSON line.  Exit status 2 on bad arguments or a
 * build without CBLAS. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_clock.h"
#include "engine/mat.h"
#include "engine/mat_blas.h"

int bench_sgemm(int argc, char **argv);

int bench_sgemm(int argc, char **argv)
{
    /* argv[0] is "--sgemm" */
    int n = 1024, repeat = 20;
    for (int i = 0; i < argc; i++) {
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        long v = val ? strtol(val, &end, 10) : 0;
        const bool ok = val && end != val && *end == '\0';
        if (strcmp(argv[i], "--sgemm") == 0 && ok && v >= 64 && v <= 4096)
            n = (int)v, i++;
        else if (strcmp(argv[i], "--repeat") == 0 && ok && v >= 1 && v <= 1000)
            repeat = (int)v, i++;
        else {
            fprintf(stderr, "mha-bench: usage: mha-bench --sgemm N [--repeat R]   "
                            "(N 64..4096, R 1..1000)\n");
            return 2;
        }
    }
    if (!mat_have_cblas()) {
        fprintf(stderr, "mha-bench: --sgemm times OpenBLAS, and this build has no CBLAS\n");
        return 2;
    }
    mat_set_backend(MAT_BACKEND_CBLAS);
    const size_t nn = (size_t)n * (size_t)n;
    float *a = malloc(nn * sizeof *a), *b = malloc(nn * sizeof *b), *c = malloc(nn * sizeof *c);
    double *gflops = malloc((size_t)repeat * sizeof *gflops);
    if (!a || !b || !c || !gflops) {
        fprintf(stderr, "mha-bench: out of memory\n");
        return 2;
    }
    for (size_t i = 0; i < nn; i++) {
        a[i] = (float)((i * 2654435761u) % 2001u) / 1000.0f - 1.0f;
        b[i] = (float)((i * 40503u) % 2001u) / 1000.0f - 1.0f;
    }
    /* OpenBLAS itself, not mat_mul (which keeps products in the plain
     * loops where those are faster) */
    mat_blas_sgemm(false, false, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n); /* warm-up */
    for (int r = 0; r < repeat; r++) {
        const double t0 = bench_now_ms();
        mat_blas_sgemm(false, false, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n);
        const double ms = bench_now_ms() - t0;
        gflops[r] = 2.0 * (double)n * (double)n * (double)n / ms * 1e-6;
    }
    const double median = bench_median(gflops, repeat); /* sorts: the best is last */
    printf("{\"sgemm\":%d,\"repeat\":%d,\"gflops_median\":%.2f,\"gflops_best\":%.2f,"
           "\"check\":%.6g,\"core\":\"%s\"}\n",
           n, repeat, median, gflops[repeat - 1], (double)c[nn / 2], mat_blas_core());
    free(a);
    free(b);
    free(c);
    free(gflops);
    return 0;
}
