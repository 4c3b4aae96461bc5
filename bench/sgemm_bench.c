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

int bench_product(int argc, char **argv);

/* mha-bench --product M N K [--trans | --weights-grad] [--repeat R]: C (M,
 * N) = A (M, K) · B, B (K, N) or, with --trans, (N, K) used transposed; or,
 * with --weights-grad, a linear layer's weights' gradient dW (N, K) += dYᵀ
 * · X for dY (M, N) and X (M, K), its first matrix read down the columns
 * (M the batch's rows).  Timed R times (default 7) through the plain loops
 * (mat_mul_plain and mat_mul_backward, as the engine takes them) and
 * through OpenBLAS's call; prints the best GFLOP/s of each, and the kernels
 * OpenBLAS chose, as one JSON line. */
int bench_product(int argc, char **argv)
{
    /* argv[0] is "--product" */
    long size[3] = {0, 0, 0};
    int repeat = 7;
    bool trans = false, grad = false, ok = argc >= 4;
    for (int i = 0; ok && i < 3; i++) {
        char *end = NULL;
        size[i] = strtol(argv[1 + i], &end, 10);
        ok = end != argv[1 + i] && *end == '\0' && size[i] >= 1 && size[i] <= 8192;
    }
    for (int i = 4; ok && i < argc; i++) {
        char *end = NULL;
        if (strcmp(argv[i], "--trans") == 0 && !grad)
            trans = true;
        else if (strcmp(argv[i], "--weights-grad") == 0 && !trans)
            grad = true;
        else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc &&
                 (repeat = (int)strtol(argv[i + 1], &end, 10), end != argv[i + 1]) &&
                 *end == '\0' && repeat >= 1 && repeat <= 1000)
            i++;
        else
            ok = false;
    }
    if (!ok) {
        fprintf(stderr, "mha-bench: usage: mha-bench --product M N K [--trans | --weights-grad] "
                        "[--repeat R]   (M, N, K 1..8192, R 1..1000)\n");
        return 2;
    }
    const int m = (int)size[0], n = (int)size[1], k = (int)size[2];
    float *a = malloc((size_t)m * (size_t)k * sizeof *a);
    float *b = malloc((size_t)n * (size_t)k * sizeof *b);
    float *c = malloc((size_t)m * (size_t)n * sizeof *c);
    if (!a || !b || !c) {
        fprintf(stderr, "mha-bench: out of memory\n");
        free(a), free(b), free(c);
        return 2;
    }
    for (size_t i = 0; i < (size_t)m * (size_t)k; i++)
        a[i] = (float)((i * 2654435761u) % 2001u) / 1000.0f - 1.0f;
    for (size_t i = 0; i < (size_t)n * (size_t)k; i++)
        b[i] = (float)((i * 40503u) % 2001u) / 1000.0f - 1.0f;
    for (size_t i = 0; grad && i < (size_t)m * (size_t)n; i++) /* dY */
        c[i] = (float)((i * 2246822519u) % 2001u) / 1000.0f - 1.0f;
    const double flop = 2.0 * m * n * k;
    double best[2] = {0.0, 0.0}; /* plain, OpenBLAS */
    const bool blas = mat_have_cblas();
    for (int way = 0; way < (blas ? 2 : 1); way++)
        for (int r = 0; r <= repeat; r++) { /* the first call warms up */
            const double t0 = bench_now_ms();
            if (grad && way == 0) /* a: X (m, k), c: dY (m, n), b: dW (n, k) */
                mat_mul_backward(a, b, c, NULL, b, m, n, k, true);
            else if (grad)
                mat_blas_sgemm(true, false, n, k, m, 1.0f, c, n, a, k, 1.0f, b, k);
            else if (way == 0)
                mat_mul_plain(a, b, c, m, n, k, trans);
            else
                mat_blas_sgemm(false, trans, m, n, k, 1.0f, a, k, b, trans ? k : n, 0.0f, c, n);
            const double gflops = flop / (bench_now_ms() - t0) * 1e-6;
            if (r > 0 && gflops > best[way])
                best[way] = gflops;
        }
    printf("{\"product\":[%d,%d,%d],\"trans\":%s,\"weights_grad\":%s,\"repeat\":%d,"
           "\"plain_gflops_best\":%.1f,",
           m, n, k, trans ? "true" : "false", grad ? "true" : "false", repeat, best[0]);
    if (blas)
        printf("\"openblas_gflops_best\":%.1f,\"core\":\"%s\"}\n", best[1], mat_blas_core());
    else
        printf("\"openblas_gflops_best\":null,\"core\":\"\"}\n");
    free(a);
    free(b);
    free(c);
    return 0;
}
