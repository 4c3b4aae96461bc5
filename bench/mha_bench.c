/* mha_bench.c - time mha_forward on a generated example.
 *
 * Builds the example the explorer would generate for the given sizes (seed
 * 42), makes one trace, runs a few warm-up passes and then times every
 * forward pass on its own with CLOCK_MONOTONIC.  Human-readable lines go to
 * stdout, and the last line is one JSON object for scripts (bench/compare.py).
 * Bad options: a message naming the option on stderr, exit status 2.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_clock.h"
#include "engine/mat.h"
#include "engine/mha.h"
#include "mha_config.h"

#define BENCH_SEED 42u
#define BENCH_MAX_RUNS 10000000L

struct bench_opts {
    int seq, d_model, heads;
    long repeat, warmup;
    enum mat_backend backend;
    bool causal;
};

static void usage(FILE *out)
{
    fprintf(out,
            "usage: mha-bench [--seq L] [--d-model D] [--heads H] [--repeat N]\n"
            "                 [--warmup W] [--backend plain|cblas] [--causal]\n"
            "\n"
            "Times mha_forward on a generated example (seed 42) of L tokens, width D\n"
            "and H heads: W untimed warm-up passes, then N passes timed one by one.\n"
            "Prints a summary, then as its last line one JSON object with the median,\n"
            "minimum and mean time of one forward pass in milliseconds.\n"
            "\n"
            "  --seq L          tokens, 1..%d (default 4)\n"
            "  --d-model D      model width, 1..%d (default 6)\n"
            "  --heads H        heads; must divide D (default 2)\n"
            "  --repeat N       timed passes, 1..%ld (default 1000)\n"
            "  --warmup W       untimed passes first, 0..%ld (default 10)\n"
            "  --backend B      matrix multiply: plain (the reference loops) or cblas\n"
            "                   (default: cblas when this build has it; it %s)\n"
            "  --causal         mask keys after the query (decoder-style attention)\n"
            "  --help           show this text\n"
            "\n"
            "mha-bench --train [--d-model 8] [--heads 2] [--vocab 16] [--context 8]\n"
            "          [--batch 64] [--layers 1] [--task first-prev] [--repeat N]\n"
            "          [--warmup W] [--backend B]\n"
            "times one training step of a task's model (forward, loss, backward,\n"
            "Adam) on a fixed batch instead; --layers stacks attention layers.\n"
            "\n"
            "mha-bench --sgemm N [--repeat R]\n"
            "times OpenBLAS's sgemm alone on N x N matrices and prints its GFLOP/s.\n"
            "\n"
            "mha-bench --peak [--repeat R]\n"
            "measures the core's own limit: twelve independent fused multiply-adds\n"
            "on registers, nothing else (the peak the speed tables are read against).\n"
            "\n"
            "mha-bench --parts [--seq 256] [--d-model 512] [--heads 8] [--repeat 20]\n"
            "times each part of a forward pass (projections, the heads' transposes,\n"
            "scores, softmax and context, the copies) through the plain loops and\n"
            "sets each beside its least time at the FMA peak and the write bandwidth\n"
            "measured in the same run: a Markdown table, then one JSON line.\n"
            "\n"
            "mha-bench --product M N K [--trans | --weights-grad] [--repeat R]\n"
            "times one product (M x K by K x N, or by N x K transposed; or a linear\n"
            "layer's weights' gradient, N x M transposed by M x K) through the plain\n"
            "loops and through OpenBLAS, and prints the best GFLOP/s of each.\n",
            MHA_MAX_TOKENS, MHA_MAX_D_MODEL, BENCH_MAX_RUNS, BENCH_MAX_RUNS,
            mat_have_cblas() ? "does" : "does not");
}

/* Report a bad option and leave with status 2. */
static void bad_option(const char *opt, const char *what)
{
    fprintf(stderr, "mha-bench: %s: %s\n", opt, what);
    fprintf(stderr, "Try 'mha-bench --help'.\n");
    exit(2);
}

/* A whole number in [lo, hi] from the value of option opt. */
static long parse_count(const char *opt, const char *text, long lo, long hi)
{
    char msg[256];
    char *end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (text[0] == '\0' || *end != '\0') {
        snprintf(msg, sizeof msg, "'%s' is not a whole number", text);
        bad_option(opt, msg);
    }
    if (errno == ERANGE || v < lo || v > hi) {
        snprintf(msg, sizeof msg, "%s is out of range: expected %ld..%ld", text, lo, hi);
        bad_option(opt, msg);
    }
    return v;
}

/* Options take their value as "--opt value" or "--opt=value".  Returns the
 * value, advancing *i past it; NULL when arg is not the option name. */
static const char *option_value(int argc, char **argv, int *i, const char *name)
{
    const char *arg = argv[*i];
    const size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0)
        return NULL;
    if (arg[n] == '=')
        return arg + n + 1;
    if (arg[n] != '\0')
        return NULL;
    if (*i + 1 >= argc)
        bad_option(name, "needs a value");
    *i += 1;
    return argv[*i];
}

static void parse_args(int argc, char **argv, struct bench_opts *o)
{
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *val;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(stdout);
            exit(0);
        } else if (strcmp(arg, "--causal") == 0) {
            o->causal = true;
        } else if ((val = option_value(argc, argv, &i, "--seq"))) {
            o->seq = (int)parse_count("--seq", val, 1, MHA_MAX_TOKENS);
        } else if ((val = option_value(argc, argv, &i, "--d-model"))) {
            o->d_model = (int)parse_count("--d-model", val, 1, MHA_MAX_D_MODEL);
        } else if ((val = option_value(argc, argv, &i, "--heads"))) {
            o->heads = (int)parse_count("--heads", val, 1, MHA_MAX_D_MODEL);
        } else if ((val = option_value(argc, argv, &i, "--repeat"))) {
            o->repeat = parse_count("--repeat", val, 1, BENCH_MAX_RUNS);
        } else if ((val = option_value(argc, argv, &i, "--warmup"))) {
            o->warmup = parse_count("--warmup", val, 0, BENCH_MAX_RUNS);
        } else if ((val = option_value(argc, argv, &i, "--backend"))) {
            if (strcmp(val, "plain") == 0) {
                o->backend = MAT_BACKEND_PLAIN;
            } else if (strcmp(val, "cblas") == 0) {
                if (!mat_have_cblas())
                    bad_option("--backend", "'cblas': this build has no CBLAS (OpenBLAS); "
                                            "use 'plain'");
                o->backend = MAT_BACKEND_CBLAS;
            } else {
                char msg[256];
                snprintf(msg, sizeof msg, "'%s': expected 'plain' or 'cblas'", val);
                bad_option("--backend", msg);
            }
        } else {
            bad_option(arg, arg[0] == '-' ? "unknown option" : "unexpected argument");
        }
    }

    /* heads against d_model: the engine's own rule and explanation */
    struct mha_error err;
    mha_error_clear(&err);
    if (mha_check_sizes(o->seq, o->seq, o->d_model, o->heads, &err))
        bad_option("--heads", err.text);
    const size_t bytes = mha_trace_bytes(o->seq, o->seq, o->d_model, o->heads);
    if (bytes == 0 || bytes > MHA_MAX_TRACE_BYTES) {
        char msg[256];
        snprintf(msg, sizeof msg,
                 "a trace of %d tokens, d_model %d and %d heads needs %.1f GiB (limit %.0f "
                 "GiB): use fewer heads or fewer tokens",
                 o->seq, o->d_model, o->heads, (double)bytes / (1u << 30),
                 (double)MHA_MAX_TRACE_BYTES / (1u << 30));
        bad_option("--seq, --heads", msg);
    }
}

int bench_train(int argc, char **argv);   /* train_bench.c */
int bench_sgemm(int argc, char **argv);   /* sgemm_bench.c */
int bench_product(int argc, char **argv); /* sgemm_bench.c */
int bench_peak(int argc, char **argv);    /* peak_bench.c */
int bench_parts(int argc, char **argv);   /* parts_bench.c */

int main(int argc, char **argv)
{
    /* mha-bench --train ...: a training step instead of a forward pass */
    if (argc > 1 && strcmp(argv[1], "--train") == 0)
        return bench_train(argc - 1, argv + 1);
    /* mha-bench --sgemm N: OpenBLAS's sgemm alone, the roof */
    if (argc > 1 && strcmp(argv[1], "--sgemm") == 0)
        return bench_sgemm(argc - 1, argv + 1);
    /* mha-bench --peak: the core's own FMA limit */
    if (argc > 1 && strcmp(argv[1], "--peak") == 0)
        return bench_peak(argc - 1, argv + 1);
    /* mha-bench --parts: each part of a forward pass against its roofline */
    if (argc > 1 && strcmp(argv[1], "--parts") == 0)
        return bench_parts(argc - 1, argv + 1);
    /* mha-bench --product M N K: one product, the plain loops beside OpenBLAS */
    if (argc > 1 && strcmp(argv[1], "--product") == 0)
        return bench_product(argc - 1, argv + 1);
    struct bench_opts o = {
        .seq = 4,
        .d_model = 6,
        .heads = 2,
        .repeat = 1000,
        .warmup = 10,
        .backend = mat_have_cblas() ? MAT_BACKEND_CBLAS : MAT_BACKEND_PLAIN,
        .causal = false,
    };
    parse_args(argc, argv, &o);
    const enum mat_backend backend = mat_set_backend(o.backend);

    struct mha_error err;
    mha_error_clear(&err);
    struct mha_example *ex =
        mha_example_generated(o.seq, NULL, o.d_model, o.heads, BENCH_SEED, &err);
    if (!ex) {
        fprintf(stderr, "mha-bench: %s\n", err.text);
        return 1;
    }
    ex->causal = o.causal;
    struct mha_trace *t = mha_trace_new(ex, &err);
    double *times = malloc((size_t)o.repeat * sizeof *times);
    if (!t || !times) {
        fprintf(stderr, "mha-bench: %s\n", t ? "out of memory for the timings" : err.text);
        mha_trace_free(t);
        mha_example_free(ex);
        free(times);
        return 1;
    }

    /* pass 1: warm-up (caches, page faults in the arena, BLAS buffers), then
     * every forward pass timed on its own */
    int status = 0;
    for (long r = 0; r < o.warmup && !status; r++)
        status = mha_forward(ex, t, &err);
    for (long r = 0; r < o.repeat && !status; r++) {
        const double start = bench_now_ms();
        status = mha_forward(ex, t, &err);
        times[r] = bench_now_ms() - start;
    }
    if (status) {
        fprintf(stderr, "mha-bench: %s\n", err.text);
        free(times);
        mha_trace_free(t);
        mha_example_free(ex);
        return 1;
    }

    /* pass 2: summary; the checksum shows the numbers did not change */
    double total = 0.0, checksum = 0.0;
    for (long r = 0; r < o.repeat; r++)
        total += times[r];
    const size_t n_out = (size_t)o.seq * (size_t)o.d_model;
    for (size_t i = 0; i < n_out; i++)
        checksum += t->output[i];
    const double mean = total / (double)o.repeat;
    const double median = bench_median(times, o.repeat);
    const double min = times[0];

    printf("mha-bench: %d tokens, d_model %d, %d heads (d_k %d), %s, seed %u\n", o.seq, o.d_model,
           o.heads, t->d_k, o.causal ? "causal" : "no mask", BENCH_SEED);
    printf("backend %s, %ld warm-up + %ld timed forward passes\n", mat_backend_name(backend),
           o.warmup, o.repeat);
    printf("trace: %zu bytes (%.2f MiB) in one arena\n", t->arena_bytes,
           (double)t->arena_bytes / (1u << 20));
    printf("output checksum (sum of every output entry): %.9g\n", checksum);
    printf("forward: median %.3f us, min %.3f us, mean %.3f us\n", median * 1e3, min * 1e3,
           mean * 1e3);
    printf("{\"seq\":%d,\"d_model\":%d,\"heads\":%d,\"repeat\":%ld,\"backend\":\"%s\","
           "\"forward_ms_median\":%.6f,\"forward_ms_min\":%.6f,\"forward_ms_mean\":%.6f,"
           "\"trace_bytes\":%zu,\"warmup\":%ld,\"causal\":%s}\n",
           o.seq, o.d_model, o.heads, o.repeat, mat_backend_name(backend), median, min, mean,
           t->arena_bytes, o.warmup, o.causal ? "true" : "false");

    free(times);
    mha_trace_free(t);
    mha_example_free(ex);
    return 0;
}
