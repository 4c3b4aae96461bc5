/* test_kernel_regions.c - in a build with AddressSanitizer, the copy of
 * the kernels everything but tests/engine links (built without the checks
 * of each access, src/engine/meson.build) still stops at once when it is
 * given memory that is not the program's: a product whose C is a float
 * short, a head whose weights are a row short.  The calls that fit run
 * through.  Elsewhere the test is skipped (exit status 77). */
#include <check.h>
#include <signal.h>
#include <stdlib.h>

#include "engine/mat_kernel.h"
#include "engine/mha_rows.h"
#include "check_run.h"

#if defined(__SANITIZE_ADDRESS__)

enum { M = 9, N = 20, K = 7, LQ = 8, LK = 8, DK = 4 };

static float *zeros(size_t n)
{
    float *x = calloc(n, sizeof *x);
    ck_assert_ptr_nonnull(x);
    return x;
}

/* C (M, N) = A (M, K) · B (K, N), C `short_by` floats short */
static void product(size_t short_by)
{
    float *a = zeros(M * K), *b = zeros(K * N), *c = zeros(M * N - short_by);
    mat_rows_times(a, K, 1, b, N, c, N, M, N, K, false, NULL);
    free(a);
    free(b);
    free(c);
}

START_TEST(test_product_fits)
{
    product(0);
}
END_TEST

START_TEST(test_product_short)
{
    product(1);
}
END_TEST

/* one head of LQ queries over LK keys, its weights `short_rows` short */
static void head(int short_rows)
{
    float *q = zeros(LQ * DK), *k = zeros(LK * DK), *v = zeros(LK * DK);
    float *w = zeros((size_t)(LQ - short_rows) * LK), *ctx = zeros(LQ * DK);
    unsigned char empty[LQ] = {0};
    const struct mha_rows_head hd = {.lq = LQ,
                                     .lk = LK,
                                     .d_k = DK,
                                     .ld_q = DK,
                                     .ld_k = DK,
                                     .ld_v = DK,
                                     .ld_ctx = DK,
                                     .qh = q,
                                     .kh = k,
                                     .vh = v,
                                     .weights = w,
                                     .context = ctx};
    mha_rows_attend(&hd, NULL, false, 0.5f, empty);
    free(q);
    free(k);
    free(v);
    free(w);
    free(ctx);
}

START_TEST(test_head_fits)
{
    head(0);
}
END_TEST

START_TEST(test_head_short)
{
    head(1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("kernel_regions");
    TCase *tc = tcase_create("regions");
    tcase_add_test(tc, test_product_fits);
    tcase_add_test_raise_signal(tc, test_product_short, SIGABRT);
    if (MHA_HAVE_ROWS) {
        tcase_add_test(tc, test_head_fits);
        tcase_add_test_raise_signal(tc, test_head_short, SIGABRT);
    }
    suite_add_tcase(s, tc);
    return check_run(s);
}

#else

int main(void)
{
    return 77; /* no AddressSanitizer in this build: nothing to check */
}

#endif
