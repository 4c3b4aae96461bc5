/* parts_bench.c - mha-bench --parts: the roofline of one forward pass.
 *
 * The pass is cut into the parts the engine works through (the four
 * projections; for each head the transpose of its keys, the scores, the
 * softmax and the context; and the copies: the split and transpose into
 * heads and the merge), each timed on its own, every head at once, by the
 * engine functions the pass calls (the copies as mha.c makes them; a head's
 * products whole, where the pass takes them a block of rows at a time and
 * streams the scores past the caches when they are large, so the parts
 * added can differ a little from the whole pass, timed too), in the same run as the FMA peak
 * (peak_bench.c) and the write bandwidth (a store loop over a buffer far larger than the caches).
 * For each part: its floating-point operations and the bytes it reads and writes, the least time it
 * could take (the operations at the peak, or the bytes at the write bandwidth, whichever is
 * longer), and its time now.  Prints a Markdown table, then one JSON object as the last line.  A
 * head whose keys fit in registers (short sequences) is worked a row at a time by other kernels
 * (mha_rows.c): there the heads are one part.  Exit status 2 on bad options. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_clock.h"
#include "engine/mat.h"
#include "engine/mat_kernel.h"
#include "engine/mha.h"
#include "engine/mha_long.h"
#include "engine/mha_rows.h"

int bench_parts(int argc, char **argv);
double bench_peak_gflops(int repeat); /* peak_bench.c */

/* Floating-point operations of the softmax per weight, counted in the
 * engine's loops (mha_long.c, mat_kernel.h): the scaling and the max (2),
 * x - max (1), the exponential's fused reduction, polynomial and scaling
 * (12), the sum (1) and the normalising multiply (1). */
#define SOFTMAX_OPS 17.0

/* The bytes of the write-bandwidth buffer: far past any cache. */
#define WRITE_BYTES ((size_t)512 << 20)

enum part { PROJ, KT, SCORES, SOFTMAX, CONTEXT, REST, HEADS, N_PARTS };

static const char *const part_names[N_PARTS] = {"projections (Q, K, V, output)",
                                                "keys transposed",
                                                "scores Q·Kᵀ",
                                                "softmax (scale, mask, exp, sum)",
                                                "context weights·V",
                                                "split, transposes, merge",
                                                "heads (row kernels)"};

struct part_cost {
    double ops, bytes; /* floating-point operations; bytes read and written */
    double ms;         /* median time now */
    bool timed;
};

/* Best GB/s of writing WRITE_BYTES with plain stores, of five runs. */
static double write_bandwidth(void)
{
    float *buf = malloc(WRITE_BYTES);
    if (!buf)
        return 0.0;
    memset(buf, 1, WRITE_BYTES); /* fault every page in first */
    double best = 0.0;
    const size_t n = WRITE_BYTES / sizeof *buf;
    for (int r = 0; r < 5; r++) {
        const float v = (float)r;
        const double t0 = bench_now_ms();
        for (size_t i = 0; i < n; i++)
            buf[i] = v;
        const double ms = bench_now_ms() - t0;
        __asm__ volatile("" : : "r"(buf) : "memory");
        const double gbs = (double)WRITE_BYTES / (ms * 1e6);
        best = gbs > best ? gbs : best;
    }
    free(buf);
    return best;
}

struct run {
    const struct mha_example *ex;
    struct mha_params w;
    struct mha_trace *t;
    float *kts; /* every head's keys transposed: (H, d_k, lk) */
};

/* One part, once, for every head where it is a head's. */
static void run_part(struct run *r, enum part p)
{
    struct mha_trace *t = r->t;
    const int lq = t->lq, lk = t->lk, d = t->d_model, d_k = t->d_k;
    const size_t att = (size_t)lq * (size_t)lk;
    switch (p) {
    case PROJ:
        mat_linear(r->ex->query, r->w.w_q, r->w.b_q, t->q, lq, d, d);
        mat_linear(r->ex->key, r->w.w_k, r->w.b_k, t->k, lk, d, d);
        mat_linear(r->ex->value, r->w.w_v, r->w.b_v, t->v, lk, d, d);
        mat_linear(t->merged, r->w.w_o, r->w.b_o, t->output, lq, d, d);
        break;
    case KT: /* in panels of keys, as mha_long_head takes them */
        for (int h = 0; h < t->heads; h++)
            for (int j0 = 0; j0 < lk; j0 += MHA_LONG_KEY_PANEL) {
                const int w = lk - j0 < MHA_LONG_KEY_PANEL ? lk - j0 : MHA_LONG_KEY_PANEL;
                mat_transpose_rows(t->kh + mha_idx3(lk, d_k, h, j0, 0), (size_t)d_k, w, d_k,
                                   r->kts + ((size_t)h * (size_t)lk + (size_t)j0) * (size_t)d_k,
                                   (size_t)w);
            }
        break;
    case SCORES:
        for (int h = 0; h < t->heads; h++)
            for (int j0 = 0; j0 < lk; j0 += MHA_LONG_KEY_PANEL) {
                const int w = lk - j0 < MHA_LONG_KEY_PANEL ? lk - j0 : MHA_LONG_KEY_PANEL;
                mat_rows_times(t->qh + mha_idx3(lq, d_k, h, 0, 0), (size_t)d_k, 1,
                               r->kts + ((size_t)h * (size_t)lk + (size_t)j0) * (size_t)d_k,
                               (size_t)w, t->scores + (size_t)h * att + (size_t)j0, (size_t)lk, lq,
                               w, d_k, false, NULL);
            }
        break;
    case SOFTMAX:
        for (int h = 0; h < t->heads; h++)
            mha_long_rows(t, r->ex->mask, r->ex->causal, 0, lq, t->scores + (size_t)h * att,
                          t->scaled_scores + (size_t)h * att, t->weights + (size_t)h * att);
        break;
    case CONTEXT:
        for (int h = 0; h < t->heads; h++)
            mat_rows_times(t->weights + (size_t)h * att, (size_t)lk, 1,
                           t->vh + mha_idx3(lk, d_k, h, 0, 0), (size_t)d_k,
                           t->context + mha_idx3(lq, d_k, h, 0, 0), (size_t)d_k, lq, d_k, lk, false,
                           NULL);
        break;
    case REST:
        /* the copies mha_forward_attend makes around the heads (mha.c):
         * q, k and v split and transposed to (H, L, d_k), the context
         * merged back to (L, H·d_k) */
        for (int h = 0; h < t->heads; h++) {
            for (int l = 0; l < lq; l++)
                mat_copy(t->qh + mha_idx3(lq, d_k, h, l, 0),
                         t->q + (size_t)l * (size_t)d + (size_t)h * (size_t)d_k, d_k);
            for (int l = 0; l < lk; l++) {
                mat_copy(t->kh + mha_idx3(lk, d_k, h, l, 0),
                         t->k + (size_t)l * (size_t)d + (size_t)h * (size_t)d_k, d_k);
                mat_copy(t->vh + mha_idx3(lk, d_k, h, l, 0),
                         t->v + (size_t)l * (size_t)d + (size_t)h * (size_t)d_k, d_k);
            }
        }
        for (int i = 0; i < lq; i++)
            for (int h = 0; h < t->heads; h++)
                mat_copy(t->merged + (size_t)i * (size_t)d + (size_t)h * (size_t)d_k,
                         t->context + mha_idx3(lq, d_k, h, i, 0), d_k);
        break;
    case HEADS:
        mha_forward_attend(r->ex->mask, r->ex->causal, r->ex->scaled, t);
        break;
    case N_PARTS:
        break;
    }
}

/* The median ms of repeat runs of part p (after two untimed). */
static double time_part(struct run *r, enum part p, long repeat, double *times)
{
    for (int w = 0; w < 2; w++)
        run_part(r, p);
    for (long i = 0; i < repeat; i++) {
        const double t0 = bench_now_ms();
        run_part(r, p);
        times[i] = bench_now_ms() - t0;
    }
    return bench_median(times, repeat);
}

/* A whole number in [lo, hi], or exit 2 naming opt. */
static long parts_count(const char *opt, const char *text, long lo, long hi)
{
    char *end = NULL;
    errno = 0;
    const long v = text ? strtol(text, &end, 10) : 0;
    if (!text || end == text || *end != '\0' || errno == ERANGE || v < lo || v > hi) {
        fprintf(stderr, "mha-bench: %s: %s is not a whole number in %ld..%ld\n", opt,
                text ? text : "(nothing)", lo, hi);
        exit(2);
    }
    return v;
}

static void print_ms(double ms)
{
    if (ms >= 1.0)
        printf(" %.2f |", ms);
    else
        printf(" %.4f |", ms);
}

int bench_parts(int argc, char **argv)
{
    /* argv[0] is "--parts" */
    long seq = 256, d_model = 512, heads = 8, repeat = 20;
    for (int i = 1; i < argc; i++) {
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--seq"))
            seq = parts_count("--seq", val, 1, MHA_MAX_TOKENS);
        else if (!strcmp(argv[i], "--d-model"))
            d_model = parts_count("--d-model", val, 1, MHA_MAX_D_MODEL);
        else if (!strcmp(argv[i], "--heads"))
            heads = parts_count("--heads", val, 1, MHA_MAX_D_MODEL);
        else if (!strcmp(argv[i], "--repeat"))
            repeat = parts_count("--repeat", val, 1, 100000);
        else {
            fprintf(stderr, "mha-bench: usage: mha-bench --parts [--seq L] [--d-model D] "
                            "[--heads H] [--repeat N]\n");
            return 2;
        }
        i++;
    }
    if (d_model % heads) {
        fprintf(stderr, "mha-bench: --heads: %ld does not divide d_model %ld\n", heads, d_model);
        return 2;
    }
    mat_set_backend(MAT_BACKEND_PLAIN);
    struct mha_error err;
    mha_error_clear(&err);
    struct mha_example *ex =
        mha_example_generated((int)seq, NULL, (int)d_model, (int)heads, 42u, &err);
    struct mha_trace *t = ex ? mha_trace_new(ex, &err) : NULL;
    double *times = malloc((size_t)repeat * sizeof *times);
    float *work = t ? malloc((size_t)seq * (size_t)d_model * sizeof *work) : NULL;
    if (!ex || !t || !times || !work) {
        fprintf(stderr, "mha-bench: %s\n", ex && t ? "out of memory" : err.text);
        free(work);
        free(times);
        mha_trace_free(t);
        mha_example_free(ex);
        return 1;
    }
    struct run r = {.ex = ex, .w = mha_example_params(ex), .t = t, .kts = work};
    mha_forward(ex, t, &err); /* every stage filled, as each part reads them */

    const double peak = bench_peak_gflops(10);
    const double bw = write_bandwidth();
    const double L = (double)seq, d = (double)d_model, H = (double)heads, f = sizeof(float);
    const bool rows = mha_rows_fit((int)seq, t->d_k);
    struct part_cost c[N_PARTS] = {0};
    c[PROJ] = (struct part_cost){8.0 * L * d * d, f * 4.0 * (2.0 * L * d + d * d), 0, true};
    if (rows) {
        c[HEADS] = (struct part_cost){4.0 * L * L * d + SOFTMAX_OPS * H * L * L,
                                      f * (3.0 * H * L * L + 8.0 * L * d), 0, true};
    } else {
        c[KT] = (struct part_cost){0.0, f * 2.0 * L * d, 0, true};
        c[SCORES] = (struct part_cost){2.0 * L * L * d, f * (3.0 * L * d + H * L * L), 0, true};
        c[SOFTMAX] = (struct part_cost){SOFTMAX_OPS * H * L * L, f * 3.0 * H * L * L, 0, true};
        c[CONTEXT] = (struct part_cost){2.0 * L * L * d, f * (H * L * L + 2.0 * L * d), 0, true};
        c[REST] = (struct part_cost){0.0, f * 8.0 * L * d, 0, true}; /* 4 copies, read + write */
    }
    double whole_times_sum = 0.0;
    for (int p = 0; p < N_PARTS; p++)
        if (c[p].timed)
            c[p].ms = time_part(&r, (enum part)p, repeat, times);
    for (long i = 0; i < repeat; i++) {
        const double t0 = bench_now_ms();
        mha_forward(ex, t, &err);
        times[i] = bench_now_ms() - t0;
    }
    const double whole = bench_median(times, repeat);
    for (int p = 0; p < N_PARTS; p++)
        whole_times_sum += c[p].timed ? c[p].ms : 0.0;

    printf("mha-bench --parts: %ld tokens, d_model %ld, %ld heads (d_k %d), seed 42, "
           "%ld timed runs of each part (median)\n",
           seq, d_model, heads, t->d_k, repeat);
    printf("FMA peak %.1f GFLOP/s, write bandwidth %.1f GB/s (one core)\n\n", peak, bw);
    printf("| part | operations (M) | bytes (MB) | least at peak (ms) | least at bandwidth (ms) "
           "| now (ms) | now / least |\n|---|---:|---:|---:|---:|---:|---:|\n");
    double least_sum = 0.0;
    for (int p = 0; p < N_PARTS; p++) {
        if (!c[p].timed)
            continue;
        const double at_peak = peak > 0 ? c[p].ops / (peak * 1e6) : 0.0;
        const double at_bw = bw > 0 ? c[p].bytes / (bw * 1e6) : 0.0;
        const double least = at_peak > at_bw ? at_peak : at_bw;
        least_sum += least;
        printf("| %s | %.1f | %.1f |", part_names[p], c[p].ops / 1e6, c[p].bytes / 1e6);
        print_ms(at_peak);
        print_ms(at_bw);
        print_ms(c[p].ms);
        printf(" %.2f× |\n", least > 0 ? c[p].ms / least : 0.0);
    }
    printf("| the whole pass (parts added: %.2f ms) | %.1f | | | |", whole_times_sum,
           (8.0 * L * d * d + 4.0 * L * L * d) / 1e6);
    print_ms(whole);
    printf(" %.2f× |\n", least_sum > 0 ? whole / least_sum : 0.0);
    printf("\nshare of the peak (8·L·d² + 4·L²·d operations): %.0f%%\n",
           peak > 0 ? 100.0 * (8.0 * L * d * d + 4.0 * L * L * d) / (whole * peak * 1e6) : 0.0);
    printf("{\"seq\":%ld,\"d_model\":%ld,\"heads\":%ld,\"peak_gflops\":%.2f,\"write_gbs\":%.2f,"
           "\"forward_ms\":%.6f,\"parts\":[",
           seq, d_model, heads, peak, bw, whole);
    bool first = true;
    for (int p = 0; p < N_PARTS; p++) {
        if (!c[p].timed)
            continue;
        printf("%s{\"part\":\"%s\",\"ops\":%.0f,\"bytes\":%.0f,\"ms\":%.6f}", first ? "" : ",",
               part_names[p], c[p].ops, c[p].bytes, c[p].ms);
        first = false;
    }
    printf("]}\n");
    free(work);
    free(times);
    mha_trace_free(t);
    mha_example_free(ex);
    return 0;
}
