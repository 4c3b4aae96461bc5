/* test_engine_long.c - heads too long for registers (more than 64 keys):
 * the rows taken sixteen floats at a time where the processor has
 * AVX-512, and the arrays of scores written past the caches, give the
 * bits of the eight-float loops, with and without masks, scaled or not,
 * at lengths that fill sixteen-float registers and lengths that do not.
 * Their numbers against PyTorch are in the reference cases
 * (tests/reference/generate_engine.py: 40 queries over 1024 keys). */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/mha.h"
#include "engine/mha_long.h"
#include "engine/mha_rows.h"
#include "engine/rng.h"
#include "engine_ref.h"

/* (lq, lk, d_model, heads): lk a multiple of sixteen or not, blocks of
 * query rows whole and cut, self- and cross-attention */
static const int long_sizes[][4] = {
    {80, 80, 16, 2}, {96, 96, 32, 4}, {72, 72, 16, 2}, {70, 136, 24, 3}, {130, 208, 32, 2},
};
#define N_LONG (int)(sizeof long_sizes / sizeof long_sizes[0])

/* mask kinds: none, causal, an explicit mask with a row masked whole,
 * both */
#define N_MASKS 4

static struct mha_example *long_example(int size, int masks, bool scaled)
{
    const int *sz = long_sizes[size];
    struct mha_error err = {0};
    struct mha_example *ex = mha_example_new(sz[0], sz[1], sz[2], sz[3], sz[0] != sz[1], &err);
    ck_assert_msg(ex != NULL, "%s", err.text);
    mha_example_generate(ex, 17u + (uint32_t)size);
    ex->scaled = scaled;
    ex->causal = masks == 1 || masks == 3;
    if (masks >= 2) {
        struct rng r;
        rng_init(&r, 5u + (uint32_t)size);
        ex->has_mask = true;
        for (int i = 0; i < ex->lq; i++)
            for (int j = 0; j < ex->lk; j++)
                ex->mask[(size_t)i * (size_t)ex->lk + (size_t)j] =
                    i == 3 ? 0 : rng_uniform(&r, 0.0, 1.0) < 0.7;
    }
    return ex;
}

/* every stage of b is a's, bit for bit */
static void same_trace(const struct mha_trace *a, const struct mha_trace *b, const char *what,
                       int size, int masks, bool scaled)
{
    const size_t floats = mha_trace_floats(a->lq, a->lk, a->d_model, a->heads);
    ck_assert_msg(memcmp(a->q, b->q, floats * sizeof(float)) == 0,
                  "%s changes the stages at size %d, masks %d, scaled %d", what, size, masks,
                  scaled);
    ck_assert_int_eq(a->empty_rows, b->empty_rows);
    ck_assert_msg(memcmp(a->row_empty, b->row_empty, (size_t)a->lq) == 0, "%s: empty rows differ",
                  what);
}

START_TEST(test_long_same_bits)
{
    const int size = _i / (2 * N_MASKS), masks = _i / 2 % N_MASKS;
    const bool scaled = _i % 2;
    struct mha_example *ex = long_example(size, masks, scaled);
    struct mha_error err = {0};
    struct mha_trace *wide = mha_run(ex, &err);
    ck_assert_msg(wide != NULL, "%s", err.text);
    /* the trace's stages are laid out from a whole cache line, so that
     * the arrays of scores can be written past the caches */
    ck_assert_uint_eq((uintptr_t)wide->q % 64, 0);
    if (masks >= 2) /* row 3, and with causal perhaps row 0 too */
        ck_assert(wide->row_empty[3] && wide->empty_rows >= 1);

    const size_t before = mha_long_stream_above(0);
    struct mha_trace *streamed = mha_run(ex, &err);
    mha_long_stream_above(before);
    ck_assert_msg(streamed != NULL, "%s", err.text);
    same_trace(wide, streamed, "writing past the caches", size, masks, scaled);

    mha_rows_allow_wide(false);
    struct mha_trace *narrow = mha_run(ex, &err);
    mha_rows_allow_wide(true);
    ck_assert_msg(narrow != NULL, "%s", err.text);
    same_trace(narrow, wide, "sixteen floats a register", size, masks, scaled);

    /* a trace used again gives the same bits (rows masked before are
     * counted once) */
    ck_assert_int_eq(mha_forward(ex, wide, &err), 0);
    same_trace(narrow, wide, "a second pass", size, masks, scaled);
    mha_trace_free(narrow);
    mha_trace_free(streamed);
    mha_trace_free(wide);
    mha_example_free(ex);
}
END_TEST

void engine_add_long(Suite *s)
{
    TCase *tc = tcase_create("long");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_long_same_bits, 0, N_LONG * N_MASKS * 2);
    suite_add_tcase(s, tc);
}
