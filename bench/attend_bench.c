/* attend_bench.c - time the attention's row kernels on one head at a time,
 * the way a training step calls them (bench/RESULTS.md, "Where a step's
 * time goes"):
 *
 *   mha-attend-bench L D H [--causal]
 *
 * A generated example of L tokens, width D and H heads is run forward once;
 * then each head's forward rows (mha_rows_attend, head read in place, no
 * scores kept) and backward rows (mha_rows_backward, a fixed d context) are
 * timed 2000 times in a row, 30 times over, and the fastest of the 30 is
 * given per head call, with the GFLOP/s its products make: 4·L·L·d_k
 * floating-point operations forward (scores and context), 8·L·L·d_k
 * backward (four products), the softmax's exponentials not counted.  L is
 * at most 64 and d_k = D / H at most 64 (the row kernels' limits). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_clock.h"
#include "engine/mha.h"
#include "engine/mha_rows.h"

#define CALLS 2000
#define ROUNDS 30

static int usage(void)
{
    fprintf(stderr, "usage: mha-attend-bench L D H [--causal]   (L <= 64, D / H <= 64)\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 4 || argc > 5 || (argc == 5 && strcmp(argv[4], "--causal")))
        return usage();
    const int L = atoi(argv[1]), D = atoi(argv[2]), H = atoi(argv[3]);
    const bool causal = argc == 5;
    if (L < 1 || D < 1 || H < 1 || D % H || !mha_rows_fit(L, D / H))
        return usage();
    struct mha_error err;
    struct mha_example *ex = mha_example_generated(L, NULL, D, H, 3, &err);
    if (!ex) {
        fprintf(stderr, "mha-attend-bench: %s\n", err.text);
        return 2;
    }
    ex->causal = causal;
    struct mha_trace *t = mha_run(ex, &err);
    const size_t n = (size_t)L * (size_t)D;
    float *d_ctx = malloc(n * sizeof *d_ctx), *grads = malloc(3 * n * sizeof *grads);
    if (!t || !d_ctx || !grads) {
        fprintf(stderr, "mha-attend-bench: out of memory\n");
        return 2;
    }
    for (size_t i = 0; i < n; i++)
        d_ctx[i] = (float)((i * 7919u) % 1000u) / 1000.0f - 0.5f;
    double fwd = 1e300, bwd = 1e300;
    for (int round = 0; round < ROUNDS; round++) {
        const double t0 = (bench_now_ms() * 1e6);
        for (int c = 0; c < CALLS; c++)
            for (int h = 0; h < H; h++) {
                const struct mha_rows_head hd = mha_rows_head_in_place(t, h);
                mha_rows_attend(&hd, NULL, causal, t->scale, t->row_empty);
            }
        const double t1 = (bench_now_ms() * 1e6);
        for (int c = 0; c < CALLS; c++)
            for (int h = 0; h < H; h++) {
                const struct mha_rows_head hd = mha_rows_head_in_place(t, h);
                const size_t col = (size_t)h * (size_t)t->d_k;
                mha_rows_backward(&hd, causal, t->scale, d_ctx + col, (size_t)D, grads + col,
                                  grads + n + col, grads + 2 * n + col);
            }
        const double t2 = (bench_now_ms() * 1e6);
        fwd = t1 - t0 < fwd ? t1 - t0 : fwd;
        bwd = t2 - t1 < bwd ? t2 - t1 : bwd;
    }
    fwd /= (double)CALLS * H;
    bwd /= (double)CALLS * H;
    const double flop = 4.0 * L * L * (double)t->d_k;
    printf("L %d, d_model %d, %d heads (d_k %d)%s: forward %.1f ns a head (%.1f GFLOP/s), "
           "backward %.1f ns (%.1f GFLOP/s)\n",
           L, D, H, t->d_k, causal ? ", causal" : "", fwd, flop / fwd, bwd, 2.0 * flop / bwd);
    free(d_ctx);
    free(grads);
    mha_trace_free(t);
    mha_example_free(ex);
    return 0;
}
